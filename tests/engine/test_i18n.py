"""Every fixed string is translated; a report in Japanese has no English headings."""

from __future__ import annotations

import re

from debates.engine import run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.i18n import step_words, translator, where_words
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols.council.report import render_markdown
from debates.engine.protocols.council.synthesis import build_result
from debates.engine.schemas import SimulatorOptions
from debates.engine.state import DebateState
from tests.wording import engine_wording


def test_languages_without_a_catalogue_get_english_headings():
    assert translator("de")("title") == translator("en")("title")
    assert not translator("de").has_translation
    assert step_words(translator("ja"), "round 2") == "ラウンド 2"
    assert step_words(translator("fr"), "round 2") == "tour 2"


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
    assert state.view.failure() is None
    result = build_result(state, usage_from_calls(hooks.calls))
    return result, render_markdown(result)


HEADING_KEYS = ["title", "question", "protocol", "stopped", "diagnostic", "degraded",
                "recommended_path", "convergence", "agents", "risks",
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
    english = engine_wording("en")
    for key in HEADING_KEYS + ["metrics_header", "failed_in"]:
        assert english[key].split("{")[0].strip() not in report, key
    # Stop explanations and degraded notes are in Japanese too.
    assert result.stop_explanation and not re.search(r"[A-Za-z]{4,}", result.stop_explanation)
    assert any("ラウンド 1で失敗" in n for n in result.degraded_notes)


async def test_a_french_report_has_french_headings():
    result, report = await report_for("Devrions-nous migrer notre service de facturation ?")
    assert result.language == "fr"
    french, english = engine_wording("fr"), engine_wording("en")
    assert report.startswith(f"# {french['title']}\n") and french["title"] != english["title"]
    for key in HEADING_KEYS:  # "Convergence", "Question": the same word in both
        if french[key] != english[key]:
            assert f"# {english[key]}\n" not in report, key


async def test_a_german_report_has_english_headings():
    result, report = await report_for(
        "Sollten wir unseren Abrechnungsdienst nächstes Jahr migrieren?")
    assert result.language == "de"
    assert report.startswith(f"# {engine_wording('en')['title']}\n")


def test_where_a_citation_stands_and_who_cited_it_read_in_the_reports_language():
    from debates.engine.protocols.report_parts import evidence_section
    from debates.engine.schemas import CheckedCitation, EvidenceReport, EvidenceUse

    fr = translator("fr")
    assert where_words(fr, "round 2 · Alice") == "tour 2 · Alice"
    assert where_words(fr, "synthesis · synthesis") == "synthèse · synthèse"
    assert where_words(translator("en"), "premortem · Bob") == "premortem · Bob"

    class Result:  # what evidence_section reads of a protocol's result
        language = "fr"
        evidence = EvidenceReport(
            sources=["S1: notes"], passages=3,
            citations=[CheckedCitation(passage="S1.9", quote="absent", where="round 1 · Alice",
                                       agent=0, known=False, found=False, offered=False)],
            used=[EvidenceUse(passage="S1.2", source="notes", quotes=["SQS"],
                              cited_by=["Alice", "synthesis"])])

    text = "\n".join(evidence_section(Result()))  # type: ignore[arg-type]
    assert "tour 1 · Alice" in text and "round 1" not in text
    assert "Alice, synthèse" in text and "synthesis" not in text
