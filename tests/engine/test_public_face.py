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


PROTOCOL_BOUNDARY = "Nothing outside a protocol's package imports it"
BUILT_IN = {"council", "adversarial", "workflow"}


def _named(prefix: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c for c in config["contracts"] if c["name"].startswith(prefix))


def test_the_protocol_boundary_covers_every_engine_module_but_the_plugins():
    """A module added to the engine is inside the boundary until someone lists it; the
    plugins module alone registers the built-ins (docs/engine.md, "Protocols")."""
    contract = _named(PROTOCOL_BOUNDARY)
    engine_dir = ROOT / "debates" / "engine"
    expected = {f"debates.engine.{p.stem}" for p in engine_dir.glob("*.py")
                if p.stem not in {"__init__", "__main__", "plugins"}}
    expected |= {f"debates.engine.{p.parent.name}" for p in engine_dir.glob("*/__init__.py")
                 if p.parent.name != "protocols"}
    expected |= {f"debates.engine.protocols.{p.stem}"
                 for p in (engine_dir / "protocols").glob("*.py") if p.stem != "__init__"}
    assert set(contract["source_modules"]) == expected
    assert {m.rsplit(".", 1)[1] for m in contract["forbidden_modules"]} == BUILT_IN
    assert "ignore_imports" not in contract


def test_the_face_names_nothing_of_one_protocol():
    defined_in = {name: getattr(getattr(engine, name), "__module__", "") or ""
                  for name in engine.__all__}
    own = sorted(name for name, module in defined_in.items()
                 if module.split(".")[:4] in (["debates", "engine", "protocols", p]
                                              for p in BUILT_IN))
    assert own == []
