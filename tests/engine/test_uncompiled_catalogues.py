"""A checkout whose catalogues nobody compiled runs its debate: each catalogue is
compiled on first use; one that cannot be compiled stops the debate before its first
model call, not after a round of them (docs/engine.md, "Translations")."""

from __future__ import annotations

from pathlib import Path

import pytest

from debates.engine import run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.i18n import CatalogueNotCompiled, catalogue, catalogues, translator
from debates.engine.i18n import compile as compile_module
from debates.engine.state import DebateState

PACKAGE = Path(__file__).parents[2] / "debates"
QUESTION = "請求サービスを来年 PostgreSQL に移行すべきでしょうか？"


def _forget_read_catalogues() -> None:
    for cached in (catalogues.read_messages, catalogues._chain, catalogues._plural_keys,
                   translator, catalogue):
        cached.cache_clear()


@pytest.fixture
def uncompiled(tmp_path, monkeypatch):
    """Every .mo looked for under ``tmp_path``, where none is yet: a fresh checkout."""
    def elsewhere(localedir: Path, language: str, domain: str) -> Path:
        return (tmp_path / localedir.relative_to(PACKAGE) / language / "LC_MESSAGES"
                / f"{domain}.mo")

    for po in PACKAGE.rglob("*.po"):
        (tmp_path / po.parent.relative_to(PACKAGE)).mkdir(parents=True, exist_ok=True)
    _forget_read_catalogues()
    monkeypatch.setattr(catalogues, "mo_path", elsewhere)
    yield tmp_path
    monkeypatch.undo()
    _forget_read_catalogues()


class Calls(EngineHooks):
    def __init__(self) -> None:
        self.calls: list[object] = []

    async def on_call(self, record):
        self.calls.append(record)


def _state() -> DebateState:
    return DebateState(question=QUESTION, config=resolve_config(mode="quick",
                                                                retry_backoff_s=0.0))


async def test_a_debate_compiles_the_catalogues_it_needs_and_speaks_its_language(uncompiled):
    assert not list(uncompiled.rglob("*.mo"))
    state, hooks = _state(), Calls()
    await run_protocol(state, hooks)
    assert state.view.failure() is None and hooks.calls  # type: ignore[attr-defined]
    compiled = {p.relative_to(uncompiled).as_posix() for p in uncompiled.rglob("*.mo")}
    assert {"engine/i18n/locale/ja/LC_MESSAGES/engine.mo",
            "engine/protocols/council/locale/ja/LC_MESSAGES/council.mo"} <= compiled
    assert translator("ja")("title") != translator("en")("title")  # Japanese, not English


async def test_a_catalogue_that_does_not_compile_stops_the_debate_before_any_call(
        uncompiled, monkeypatch):
    def malformed(po: Path) -> bytes:
        raise ValueError(f"{po.name}: line 3: unknown keyword")

    monkeypatch.setattr(compile_module, "compiled_bytes", malformed)
    state, hooks = _state(), Calls()
    with pytest.raises(CatalogueNotCompiled, match="make install"):
        await run_protocol(state, hooks)
    assert hooks.calls == [] and not state.turns


def test_the_command_line_says_what_to_compile_and_calls_no_model(uncompiled, monkeypatch):
    import io

    from debates.engine.cli import EXIT_FAILED, main

    def malformed(po: Path) -> bytes:
        raise ValueError(f"{po.name}: line 3: unknown keyword")

    monkeypatch.setattr(compile_module, "compiled_bytes", malformed)
    out, err = io.StringIO(), io.StringIO()
    assert main(["--mode", "quick", QUESTION], stdout=out, stderr=err) == EXIT_FAILED
    header, error = err.getvalue().splitlines()  # no progress line: no step ran
    assert "does not compile" in error and "make install" in error
    assert header.startswith("Council · quick") and out.getvalue() == ""
