"""Every fixed string is translated; a report in Japanese has no English headings."""

from __future__ import annotations

import re
import string

import pytest

from debates.engine import run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.i18n import TRANSLATIONS, step_words, translator
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols.council.report import render_markdown
from debates.engine.protocols.council.synthesis import build_result
from debates.engine.schemas import SimulatorOptions
from debates.engine.state import DebateState


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", ["zh", "ja"])
def test_every_key_is_translated_with_the_same_placeholders(language):
    english, table = TRANSLATIONS["en"], TRANSLATIONS[language]
    assert set(table) == set(english)
    for key, text in english.items():
        assert fields(table[key]) == fields(text), key
        if re.search(r"[A-Za-z]{4,}", text) and key not in ("protocol_line",):
            assert table[key] != text, f"{key} is still English in {language}"


def test_languages_without_a_table_get_english_headings():
    assert translator("fr")("title") == translator("en")("title")
    assert step_words(translator("ja"), "round 2") == "ラウンド 2"


class Calls(EngineHooks):
    def __init__(self):
        self.calls = []

    async def on_call(self, record):
        self.calls.append(record)


async def report_for(question, agents=None):
    simulator = SimulatorOptions(script={"agents": agents}) if agents else SimulatorOptions()
    state = DebateState(question=question, config=resolve_config(
        mode="quick", retry_backoff_s=0.0, simulator=simulator))
    hooks = Calls()
    await run_protocol(state, hooks)
    assert state.failure() is None
    result = build_result(state, usage_from_calls(hooks.calls))
    return result, render_markdown(result)


HEADING_KEYS = ["title", "question", "protocol", "stopped", "diagnostic", "degraded",
                "recommended_path", "divergence_title", "convergence", "agents", "risks",
                "concerns", "disagreements", "consensus", "assumptions", "claims"]


async def test_a_japanese_report_has_no_english_headings():
    result, report = await report_for(
        "請求サービスを来年 PostgreSQL に移行すべきでしょうか？",
        [{"name": "Ann", "position_confidence": 0.3, "fail_in": ["cross_exam:1"]}])
    assert result.language == "ja"
    headings = [line for line in report.splitlines() if line.startswith("#")]
    assert len(headings) >= 9
    for line in headings:
        assert not re.search(r"[A-Za-z]", line), line
    for label in re.findall(r"\*\*([^*]+):\*\*", report):
        if label not in {a.persona.name for a in result.agents}:
            assert not re.search(r"[A-Za-z]{3,}", label), label
    english = TRANSLATIONS["en"]
    for key in HEADING_KEYS + ["metrics_header", "failed_in"]:
        assert english[key].split("{")[0].strip() not in report, key
    # Stop explanations and degraded notes are in Japanese too.
    assert result.stop_explanation and not re.search(r"[A-Za-z]{4,}", result.stop_explanation)
    assert any("ラウンド 1で失敗" in n for n in result.degraded_notes)


async def test_a_french_report_has_english_headings():
    result, report = await report_for("Devrions-nous migrer notre service de facturation ?")
    assert result.language == "fr"
    assert report.startswith(f"# {TRANSLATIONS['en']['title']}")
