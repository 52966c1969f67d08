"""The engine's public face (debates/engine/__init__.py, docs/engine.md): every name it
promises exists, and the import contract that keeps the project on it covers every
module of the project outside the engine."""

from __future__ import annotations

import tomllib
from pathlib import Path

import debates.engine as engine

ROOT = Path(__file__).parents[2]
CONTRACT = "The project imports the engine through its public face"


def _contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c for c in config["contracts"] if c["name"].startswith(CONTRACT))


def test_every_promised_name_is_there_once():
    assert len(engine.__all__) == len(set(engine.__all__))
    missing = [name for name in engine.__all__ if not hasattr(engine, name)]
    assert missing == []


def test_the_contract_covers_every_package_and_every_module_of_the_debates_app():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    sources = set(_contract()["source_modules"])
    roots = set(config["root_packages"]) - {"debates"}
    assert roots <= sources
    debates = ROOT / "debates"
    children = {f"debates.{p.stem}" for p in debates.glob("*.py") if p.stem != "__init__"}
    children |= {f"debates.{p.parent.name}" for p in debates.glob("*/__init__.py")}
    assert children - {"debates.engine"} <= sources
    assert "debates.engine" not in sources and "debates" not in sources


def test_nothing_is_let_through():
    assert _contract()["forbidden_modules"] == ["debates.engine.**"]
    assert "ignore_imports" not in _contract()
