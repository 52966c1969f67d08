"""The evidence on the pages: the debate page and the synthesis page of every protocol
list the evidence used, contested, the claims resting on none and the citations that
do not check out (in words and a mark); each passage id links to its passage; the
agents' own citations in the rounds and the transcript link there too, through the
sanitised path; the exports carry a sources section; the usage counts cached tokens."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from debates.debate_sources import Upload
from debates.models import Debate, DebateStatus, Synthesis, Turn
from debates.runtime.execution import run_to_completion
from debates.services import DebateSpec, debate_start
from sources.services import extract_version, sources_upload

pytestmark = pytest.mark.django_db

TEXT = ("# Costs\n\nKafka costs 4,200 USD a month to run ourselves.\n\n"
        + "Filler sentence about the cluster. " * 40
        + "\n\nSQS costs 900 USD a month and needs no cluster.\n\n"
        + "Managed queues have no brokers to patch. " * 30)
HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>'


def sourced_debate(team, owner, protocol="council",
                   question="Kafka or SQS for the event bus?") -> Debate:
    [version] = sources_upload(team=team, user=owner, files=[Upload("costs.md", TEXT.encode())])
    extract_version(str(version.code))
    debate = debate_start(team=team, user=owner, spec=DebateSpec(
        question=question, mode="quick", model="sim/default",
        protocol=protocol, seed=7, sources=[str(version.code)]))
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    return debate


def with_bad_citations(debate: Debate) -> dict:
    """The stored result with a quote not in its passage, an id naming no passage and a
    claim on none added (hostile words in each), as a model could have written them."""
    synthesis = Synthesis.objects.get(debate=debate)
    result = synthesis.result
    evidence = result["evidence"]
    evidence["citations"] += [
        {"passage": "S1.2", "quote": f"Kafka is free {HOSTILE}", "where": "round 1 · Ann",
         "agent": 0, "known": True, "found": False, "offered": True},
        {"passage": "S9.1", "quote": "made up", "where": "round 2 · Bob", "agent": 1,
         "known": False, "found": False, "offered": False}]
    evidence["unsupported_claims"].append(f"SQS never loses messages {HOSTILE}")
    evidence["used"][0]["cited_by"].append("Ops & <b>Infra</b>")
    result["usage"]["cached_prompt_tokens"] = 12_300
    synthesis.result = result
    synthesis.save()
    return result


def cite_links(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<a class="cite" href="([^"]*)">\[(S[0-9.]+)\]</a>', html)


def _assert_evidence(page: str, debate: Debate, result: dict) -> None:
    start = page.index('id="evidence"')
    opening = page.rindex("<", 0, start)
    tag = page[opening + 1:page.index(" ", opening)]
    section = page[start:page.index(f"</{tag}>", start)]
    base = reverse("sources:debate_source", args=[debate.code, "S1"])
    links = cite_links(section)
    used = [u["passage"] for u in result["evidence"]["used"]]
    assert used, "the simulated panel cites passages found in them"
    # Each passage used is a link to its anchor on the debate's source page.
    for passage in used:
        assert (f"{base}#{passage}", passage) in links
    first = result["evidence"]["used"][0]
    assert "Evidence used" in section and "Evidence contested" in section
    assert "Claims that rest on no passage" in section and "SQS never loses messages" in section
    # Not found: said in words, marked with an icon and the quote struck, not colour alone.
    assert "Citations that do not check out" in section
    assert "quote not in the passage" in section and "no such passage" in section
    assert 'class="quote-bad"' in section and "#circle-x" in section
    assert (f"{base}#S1.2", "S1.2") in links
    assert '<span class="cite">[S9.1]</span>' in section  # no page to link to
    assert "<script>" not in page and "onerror=" not in page.replace("onerror=alert(2)&gt;", "")
    assert "&lt;script&gt;" in section
    assert first["cited_by"][0] in section
    assert "Ops &amp; &lt;b&gt;Infra&lt;/b&gt;" in section  # escaped once, no markup


@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_the_debate_and_synthesis_pages_show_the_evidence(owner_client, team, owner, protocol):
    debate = sourced_debate(team, owner, protocol)
    result = with_bad_citations(debate)
    detail = owner_client.get(reverse("debates:detail", args=[debate.code])).content.decode()
    # On the debate page, folded under its counts (open: some citations do not check out).
    assert '<details class="card evidence evidence-fold" id="evidence" hx-disable open>' in detail
    _assert_evidence(detail, debate, result)
    synthesis = owner_client.get(reverse("debates:synthesis", args=[debate.code])).content.decode()
    assert '<section class="card evidence" id="evidence" hx-disable>' in synthesis
    _assert_evidence(synthesis, debate, result)
    # The usage says what the provider's cache served.
    assert "12.3k of the prompt tokens from the provider&#x27;s cache" in detail
    assert "12.3k of the prompt tokens from the provider&#x27;s cache" in synthesis


def test_the_agents_citations_link_to_their_passages_in_rounds_and_transcript(
        owner_client, team, owner):
    debate = sourced_debate(team, owner)
    base = reverse("sources:debate_source", args=[debate.code, "S1"])
    detail = owner_client.get(reverse("debates:detail", args=[debate.code])).content.decode()
    rounds = detail[detail.index('id="debate-rounds"'):]
    assert any(href == f"{base}#{pid}" for href, pid in cite_links(rounds))
    transcript = owner_client.get(reverse("debates:transcript", args=[debate.code])
                                  ).content.decode()
    assert any(href == f"{base}#{pid}" for href, pid in cite_links(transcript))
    # The link lands on the passage, highlighted as cited.
    href, pid = cite_links(transcript)[0]
    source = owner_client.get(href.split("#")[0]).content.decode()
    assert f'class="passage cited" id="{pid}"' in source


def test_a_debate_without_sources_shows_no_evidence(owner_client, team, owner):
    debate = debate_start(team=team, user=owner, spec=DebateSpec(
        question="Kafka or SQS?", mode="quick", model="sim/default", seed=3))
    run_to_completion(debate.code)
    for name in ("debates:detail", "debates:synthesis"):
        page = owner_client.get(reverse(name, args=[debate.code])).content.decode()
        assert 'id="evidence"' not in page and 'class="cite"' not in page


def test_exports_carry_a_sources_section(owner_client, team, owner):
    debate = sourced_debate(team, owner)
    result = with_bad_citations(debate)
    used = result["evidence"]["used"]
    md = owner_client.get(reverse("debates:export_md", args=[debate.code])).content.decode()
    assert "## Sources" in md
    assert re.search(r"- \*\*S1\*\* costs — costs\.md, version 1, sha256 `[0-9a-f]{12}`", md)
    assert "passages used: " + ", ".join(u["passage"] for u in used) in md
    # The evidence lists, with passage ids and quotes (the protocol's own section).
    assert "## Evidence from the sources" in md
    assert f"**[{used[0]['passage']}]**" in md and used[0]["quotes"][0][:20] in md
    assert "[S1.2] \"Kafka is free" in md and "quote not in the passage" in md
    data = json.loads(owner_client.get(reverse("debates:export_json", args=[debate.code])
                                       ).content)
    [entry] = data["sources"]
    assert entry["id"] == "S1" and entry["title"] == "costs" and entry["version"] == 1
    assert entry["cited"] == [u["passage"] for u in used]
    assert data["evidence"]["used"] == used
    printed = owner_client.get(reverse("debates:print", args=[debate.code])).content.decode()
    assert "Sources</h3>" in printed or "Sources</h4>" in printed
    base = reverse("sources:debate_source", args=[debate.code, "S1"])
    assert (f"{base}#{used[0]['passage']}", used[0]["passage"]) in cite_links(printed)
    assert "<script>alert" not in printed


def test_the_source_page_highlights_the_passages_cited_not_those_only_shown(
        owner_client, team, owner):
    debate = sourced_debate(team, owner)
    synthesis = Synthesis.objects.get(debate=debate)
    result = synthesis.result
    evidence = result["evidence"]
    shown = {p for offer in evidence["offers"] for p in offer["passages"]}
    assert len(shown) > 1
    # One citation left: every other passage was only shown.
    first = evidence["citations"][0]
    evidence.update(citations=[first], used=[u for u in evidence["used"]
                                             if u["passage"] == first["passage"]],
                    contested=[])
    synthesis.result = result
    synthesis.save()
    page = owner_client.get(reverse("sources:debate_source", args=[debate.code, "S1"])
                            ).content.decode()
    highlighted = set(re.findall(r'class="passage cited" id="(S1\.[0-9]+)"', page))
    assert highlighted == {first["passage"]}


def test_the_evidence_speaks_the_debates_language(owner_client, team, owner):
    debate = sourced_debate(team, owner, question="事件总线应该用 Kafka 还是 SQS？")
    page = owner_client.get(reverse("debates:synthesis", args=[debate.code])).content.decode()
    section = page[page.index('id="evidence"'):]
    assert "来自资料的证据" in section and "个段落" in section
    md = owner_client.get(reverse("debates:export_md", args=[debate.code])).content.decode()
    assert "## 资料" in md and "版本 1" in md


def test_the_agents_text_marks_what_does_not_check_out_where_it_stands(
        owner_client, team, owner):
    # A small model's position: an invented quote in single marks and, in its passages
    # field, an id that names no passage (docs/web.md, "Sources").
    debate = sourced_debate(team, owner)
    turn = Turn.objects.filter(debate=debate, phase="position").order_by("agent_index").first()
    turn.payload = {**turn.payload, "passages": ["S1.1", "s9.4"], "reasoning": [
        *turn.payload["reasoning"], "[S1.1] 'Kafka is free to run' so it wins"]}
    turn.save()
    synthesis = Synthesis.objects.get(debate=debate)
    result = synthesis.result
    result["evidence"]["citations"] += [
        {"passage": "S1.1", "quote": "Kafka is free to run", "where": "position · Ann",
         "agent": 0, "known": True, "found": False, "offered": True},
        {"passage": "S9.4", "quote": "", "where": "position · Ann", "agent": 0,
         "known": False, "found": False, "offered": False, "way": "listed"}]
    synthesis.result = result
    synthesis.save()
    detail = owner_client.get(reverse("debates:detail", args=[debate.code])).content.decode()
    rounds = detail[detail.index('id="debate-rounds"'):]
    assert "Kafka is free to run&#x27; <em>(not found in S1)</em>" in rounds or (
        "Kafka is free to run' <em>(not found in S1)</em>" in rounds)
    # The ids the turn rests on, as citations: linked, and the unknown one marked.
    assert "Passages cited" in rounds
    assert "[S9.4] <em>(no passage S9.4)</em>" in rounds
    base = reverse("sources:debate_source", args=[debate.code, "S1"])
    assert (f"{base}#S1.1", "S1.1") in cite_links(rounds)
    # A quote found in its passage is left as written.
    found = next(c["quote"] for c in result["evidence"]["citations"]
                 if c["found"] and c["where"].startswith(("position", "round")))
    assert found[:25] in rounds
    assert not re.search(re.escape(found[-20:]) + r"(&#x27;|&quot;|[\"'”])? <em>", rounds)
