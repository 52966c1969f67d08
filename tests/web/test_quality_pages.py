"""A doubtful or unusable result says so on every page that shows it: a banner with
its reasons (through the sanitised path), a "not to act on" label over what an unusable
result recommends, markers on the flagged turns of the transcript, a badge in the list,
and the quality section of the Markdown export (docs/web.md, "Quality")."""

from __future__ import annotations

import re

import pytest

from debates.engine.protocols.council.phases import CouncilPhase
from debates.models import DebateStatus
from debates.runtime.state_rows import load_state
from tests.web.htmltools import outer_html

PROTOCOLS = [("council", "quick", "Should we move billing to a new provider this year?"),
             ("adversarial", "quick", "Design the schema for a multi-tenant rate limiter"),
             ("workflow", "quick", "Should we adopt a four-day week for support?")]
EVIDENCE = "1.2.1.1.1.1 <script>alert(1)</script>"


def flag(debate, quality="unusable", *, turn=None):
    """The stored result as the content checks would leave it: a debate-wide reason
    and, with ``turn`` ((phase, round, agent)), one on that turn."""
    reasons = [{"rule": "degenerate_text.digit_run", "severity": quality,
                "where": "the synthesis", "evidence": EVIDENCE}]
    if turn is not None:
        phase, round_, agent = turn
        reasons.append({"rule": "placeholder_name", "severity": "doubtful",
                        "where": f"{phase} turn of agent {agent}", "evidence": "Namen",
                        "phase": phase, "round": round_, "agent": agent})
    synthesis = debate.synthesis
    synthesis.result = {**synthesis.result, "quality": quality, "quality_reasons": reasons}
    synthesis.save()
    return debate


def first_agent_turn(debate):
    """(phase, round, agent) of the first agent turn that is not the panel's compose."""
    return next(key for key in load_state(debate).turns
                if key[0] != CouncilPhase.COMPOSE.value and key[2] >= 0)


@pytest.fixture(params=PROTOCOLS, ids=[p for p, *_ in PROTOCOLS])
def debate(request, make_debate):
    protocol, mode, question = request.param
    made = make_debate(question=question, protocol=protocol, mode=mode, seed=2)
    assert made.status == DebateStatus.SUCCEEDED, made.error
    return made


def banner(html):
    return outer_html(html, "quality-banner")


def test_an_unusable_result_has_a_banner_and_a_hold_on_every_page(member_client, debate):
    flag(debate)
    for url in (f"/debates/{debate.code}/", f"/debates/{debate.code}/synthesis",
                f"/debates/{debate.code}/transcript"):
        html = member_client.get(url).content.decode()
        shown = banner(html)
        assert "Unusable result" in shown and "degenerate_text.digit_run" in shown, url
        # The evidence came from the model: escaped by the sanitised path, never markup.
        assert "<script>" not in shown and "1.2.1.1.1.1" in shown, url
    for url in (f"/debates/{debate.code}/", f"/debates/{debate.code}/synthesis"):
        html = member_client.get(url).content.decode()
        assert 'class="quality-hold quality-hold-unusable"' in html, url
        assert "Not to act on:" in html, url


def conclusion(html):
    """The council synthesis page's recommended path, or its divergence report."""
    try:
        return outer_html(html, "recommended-path")
    except KeyError:
        return outer_html(html, "divergence-report")


def test_the_hold_sits_over_the_recommendation_itself(member_client, make_debate):
    debate = flag(make_debate(seed=2))
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    section = conclusion(html)
    assert section.index("Not to act on:") < section.index('class="prose lead"')


def test_a_doubtful_result_is_shown_with_the_warning(member_client, make_debate):
    debate = flag(make_debate(seed=2), "doubtful")
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert "Doubtful result" in banner(html)
    assert "Read with care:" in conclusion(html)
    assert "Not to act on" not in html


def test_a_sound_result_shows_no_banner_hold_or_badge(member_client, make_debate):
    debate = make_debate(seed=2)
    for url in (f"/debates/{debate.code}/", f"/debates/{debate.code}/synthesis",
                f"/debates/{debate.code}/transcript", "/debates/"):
        html = member_client.get(url).content.decode()
        assert 'id="quality-banner"' not in html and "quality-hold" not in html, url
        assert "quality-marker" not in html and "quality-badge" not in html, url


def test_the_transcript_marks_the_turn_a_reason_names(member_client, debate):
    turn = first_agent_turn(debate)
    flag(debate, turn=turn)
    html = member_client.get(f"/debates/{debate.code}/transcript").content.decode()
    markers = re.findall(r'<span class="quality-marker"[^>]*>.*?</span>', html, re.DOTALL)
    # One marked turn: the debate-wide reason stays in the banner.
    assert len(markers) == 1 and "placeholder_name" in markers[0]
    assert "degenerate_text.digit_run" not in markers[0]


def test_the_list_shows_a_badge_for_doubtful_and_unusable(member_client, make_debate):
    noise = flag(make_debate(seed=2))
    doubtful = flag(make_debate(seed=3), "doubtful")
    sound = make_debate(seed=4)
    html = member_client.get("/debates/").content.decode()
    assert "quality-unusable" in outer_html(html, f"debate-row-{noise.code}")
    assert "quality-doubtful" in outer_html(html, f"debate-row-{doubtful.code}")
    assert "quality-badge" not in outer_html(html, f"debate-row-{sound.code}")


def test_the_markdown_export_and_print_say_it_under_the_title(member_client, debate):
    flag(debate)
    text = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    lines = text.splitlines()
    assert lines[0].startswith("# ")
    quality = next(i for i, line in enumerate(lines) if "**unusable**" in line)
    # Right under the title, before any section the report recommends anything in.
    assert quality == 1 and not any(line.startswith("## ") for line in lines[:quality])
    # Through markdown.inline, like every model word in the reports: no raw HTML.
    assert "- `degenerate_text.digit_run` · the synthesis: 1\\.2.1.1.1.1 \\<script>" in text
    printed = member_client.get(f"/debates/{debate.code}/print").content.decode()
    assert "unusable" in printed and "<script>alert" not in printed


def test_the_json_export_carries_the_summary_quality(member_client, debate):
    flag(debate)
    data = member_client.get(f"/debates/{debate.code}/export.json").json()
    assert data["summary"]["quality"] == "unusable"
    assert data["summary"]["quality_reasons"][0]["rule"] == "degenerate_text.digit_run"


def test_a_zh_debate_reads_its_banner_in_chinese(member_client, make_debate):
    debate = flag(make_debate(question="我们今年应该把计费系统迁移到新的支付服务商吗？", seed=2))
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert "结果不可用" in banner(html) and "不可据此行动" in html


def test_compare_holds_an_unusable_runs_recommendation(member_client, make_debate):
    a, b = flag(make_debate(seed=2)), make_debate(seed=3)
    html = member_client.get(f"/debates/compare?a={a.code}&b={b.code}").content.decode()
    assert html.count("Not to act on:") == 1
