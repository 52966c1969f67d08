"""Hostile LLM output renders inert on every page, in live fragments and in exports.

A simulator script makes the agents' names and every round's text carry script
tags, event handlers, javascript: links, htmx attributes and ids that collide with
the live page's swap targets. Pages are parsed as a browser would parse them.
"""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from debates.live.consumers import render_live_fragments
from debates.models import Debate
from tests.web.htmltools import id_counts, live_markup_problems, text_of, top_level

MARKER = "pwned"
HOSTILE = (
    f'<script>alert("{MARKER}")</script> <img src=x onerror="alert(\'{MARKER}\')"> '
    f'[click me](javascript:alert("{MARKER}")) <a href="javascript:{MARKER}()">link</a> '
    f'<div hx-get="/{MARKER}" hx-trigger="load" hx-post="/{MARKER}" ws-connect="/{MARKER}">x</div> '
    f'<span id="debate-stepper" class="{MARKER}">a</span> '
    f'<p id="debate-seq" data-last-seq="999" hx-swap-oob="true">{MARKER}</p> '
    f'<svg onload="{MARKER}()"></svg> <iframe src="https://{MARKER}.example"></iframe>'
)
NAMES = [
    f'<b id="debate-agents" onmouseover="{MARKER}()">Eve</b>',
    f'Mallory <script>{MARKER}()</script>',
    f'Trudy" hx-get="/{MARKER}" id="debate-rounds',
]
SWAP_TARGETS = ("debate-answer", "debate-decision", "debate-status", "debate-stepper",
                "debate-agents", "debate-chart", "debate-synthesis", "debate-rounds",
                "debate-activity", "debate-seq")


def _round() -> dict:
    return {"updated_position": HOSTILE, "reflection": HOSTILE, "updated_confidence": 0.6,
            "concessions": [HOSTILE], "remaining_disagreements": [HOSTILE + " one"],
            "new_evidence_needed": [HOSTILE + " two"]}


@pytest.fixture
def hostile(make_debate) -> Debate:
    script = {"agents": [{"name": name, "position_confidence": 0.3 + 0.2 * i,
                          "rounds": [_round(), _round()]} for i, name in enumerate(NAMES)]}
    debate = make_debate(question=f"Should we ship it? {HOSTILE}", script=script,
                         max_rounds=2)
    Debate.objects.filter(pk=debate.pk).update(context=HOSTILE)
    debate.refresh_from_db()
    assert debate.status == "succeeded", debate.error
    assert {a.name for a in debate.agents.all()} == set(NAMES)
    return debate


def _assert_inert(html: str, where: str) -> None:
    assert live_markup_problems(html, MARKER) == [], where
    assert "&lt;script&gt;" in html, f"{where}: the hostile text should be shown, escaped"


@pytest.mark.parametrize("suffix", ["", "synthesis", "transcript", "print"])
def test_every_debate_page_renders_hostile_output_inert(member_client, hostile, suffix):
    response = member_client.get(f"/debates/{hostile.code}/{suffix}")
    assert response.status_code == 200
    html = response.content.decode()
    _assert_inert(html, suffix or "debate page")
    counts = id_counts(html)
    for target in SWAP_TARGETS:
        assert counts[target] == (1 if suffix == "" else 0), (suffix, target)


def test_compare_page_renders_hostile_output_inert(member_client, hostile, finished):
    html = member_client.get(
        f"/debates/compare?a={hostile.code}&b={finished.code}").content.decode()
    _assert_inert(html, "compare")
    assert "Only in run A" in html


def test_live_fragments_are_inert_and_each_swap_target_comes_once(hostile):
    html, seq, _ = render_live_fragments(hostile, role="editor", after=0)
    assert seq == hostile.last_event_seq
    _assert_inert(html, "live fragments")
    targets = [el.attrs.get("id") for el in top_level(html)]
    assert sorted(targets) == sorted(SWAP_TARGETS)
    counts = id_counts(html)
    assert all(counts[t] == 1 for t in SWAP_TARGETS), counts


def test_exports_are_not_served_as_html(member_client, hostile):
    md = member_client.get(f"/debates/{hostile.code}/export.md")
    js = member_client.get(f"/debates/{hostile.code}/export.json")
    assert md["Content-Type"].startswith("text/markdown")
    assert js["Content-Type"].startswith("application/json")
    for response in (md, js):
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Content-Disposition"].startswith("attachment")
    shown = text_of(MarkdownIt("commonmark", {"html": True}).render(md.content.decode()))
    assert NAMES[0] in shown  # a Markdown viewer shows the text as it was typed
    assert "<b " not in md.content.decode().replace("\\<", "")  # escaped, not raw HTML
    assert "&lt;" not in md.content.decode()  # with a Markdown escape, not an entity


def test_api_returns_hostile_text_as_json_strings(member_client, hostile):
    response = member_client.get(f"/api/debates/{hostile.code}")
    assert response["Content-Type"].startswith("application/json")
    assert {a["name"] for a in response.json()["agents"]} == set(NAMES)


def _poisoned(value):
    """Every prose string (not ids, severities or other short codes) with hostile text
    appended, as a model that writes markup would return it."""
    if isinstance(value, dict):
        return {k: _poisoned(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_poisoned(v) for v in value]
    if isinstance(value, str) and len(value) > 20:
        return f"{value} {HOSTILE}"
    return value


@pytest.mark.parametrize("protocol", ["adversarial", "workflow"])
def test_other_protocols_pages_render_hostile_output_inert(member_client, make_debate,
                                                           protocol):
    from debates.models import Synthesis, Turn

    debate = make_debate(question=f"Should we ship it? {HOSTILE}", protocol=protocol)
    assert debate.status == "succeeded", debate.error
    for turn in Turn.objects.filter(debate=debate).exclude(payload=None):
        turn.payload = _poisoned(turn.payload)
        turn.save(update_fields=["payload"])
    synthesis = Synthesis.objects.get(debate=debate)
    synthesis.result = _poisoned(synthesis.result)
    synthesis.save(update_fields=["result"])
    for suffix in ("", "synthesis", "transcript", "print", "export.md"):
        response = member_client.get(f"/debates/{debate.code}/{suffix}")
        assert response.status_code == 200, suffix
        html = response.content.decode()
        if suffix == "export.md":  # escaped text (test_report_forgery), a download
            assert response["Content-Type"].startswith("text/markdown")
            assert response["Content-Disposition"].startswith("attachment")
            continue
        _assert_inert(html, f"{protocol} {suffix or 'debate page'}")
    html, _, _ = render_live_fragments(debate, role="editor", after=0)
    _assert_inert(html, f"{protocol} live fragments")
