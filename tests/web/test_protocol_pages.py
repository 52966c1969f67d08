"""Adversarial and workflow debates on the web: the debate page and the synthesis
page show the partials their protocol declares, exports and the API use the
protocol's report and result, and compare does not pretend they are councils."""

from __future__ import annotations

import json
import re

import pytest

from debates.engine.protocols import get_protocol
from debates.live.consumers import render_live_fragments
from debates.models import Debate, DebateStatus
from debates.runtime.execution import run_next_step, run_to_completion
from debates.templatetags.protocol_views import version_diff_text
from tests.web.htmltools import apply_oob, elements, outer_html, top_level

ADV_QUESTION = "Design the API and database schema for a multi-tenant rate limiter"
WF_QUESTION = "Should we adopt a four-day week for support?"


@pytest.fixture
def adversarial(make_debate):
    debate = make_debate(question=ADV_QUESTION, protocol="adversarial", mode="medium", seed=3)
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    return debate


@pytest.fixture
def workflow(make_debate):
    debate = make_debate(question=WF_QUESTION, protocol="workflow", mode="deep", seed=1)
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    return debate


def _result(debate):
    return get_protocol(debate.protocol).parse_result(debate.synthesis.result)


def _steps(html: str) -> list[tuple[str, str]]:
    """(label, state) of every stepper step."""
    stepper = outer_html(html, "debate-stepper")
    return [(label.strip(), state) for state, label in re.findall(
        r'<li class="step step-(\w+)"[^>]*><span class="dot" aria-hidden="true"></span>([^<]*)',
        stepper)]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_adversarial_page_top_shows_rounds_proposer_critic_and_the_issue_tally(
        member_client, adversarial):
    result = _result(adversarial)
    page = member_client.get(f"/debates/{adversarial.code}/").content.decode()
    assert _steps(page) == [(f"round {r}", "done")
                            for r in range(1, result.rounds_completed + 1)] + [
        ("synthesis", "done")]
    agents = outer_html(page, "debate-agents")
    assert "<h2>Proposer and critic</h2>" in agents
    assert "Proposer (" in agents and "Critic (" in agents
    assert f"version {result.rounds_completed}" in agents
    last = result.rounds[-1].tally.counts
    critic = _text(agents[agents.index("Critic ("):])
    assert f"open red×{last.red} yellow×{last.yellow} green×{last.green}" in critic
    assert f"issues raised {len(result.issues)}" in critic
    # The issues the rule read per round, not a confidence chart.
    tally = outer_html(page, "debate-chart")
    assert "Open issues by round" in tally and "polyline" not in tally
    rows = _text(tally)
    for r in result.rounds:
        c = r.tally.counts
        assert f"{r.round}/{result.max_rounds} red×{c.red} yellow×{c.yellow} green×{c.green}" \
            in rows
    head = page.split('class="question"')[1].split("· started")[0]
    assert f"domain {result.domain.domain.name}" in head
    card = outer_html(page, "debate-synthesis")
    assert "<h3>Final solution</h3>" in card and "Read the full synthesis" in card
    assert f"up to {result.max_rounds} rounds" in head and "threshold" not in head


def test_workflow_page_top_shows_its_phases_and_roles_without_a_chart(member_client, workflow):
    result = _result(workflow)
    page = member_client.get(f"/debates/{workflow.code}/").content.decode()
    expected = ["phase 1", "phase 2", "convergence check"]
    if result.convergence.rounds == 2:
        expected.append("phase 2b")
    assert _steps(page) == [(label, "done") for label in [*expected, "synthesis"]]
    agents = outer_html(page, "debate-agents")
    assert "<h2>Roles</h2>" in agents
    for check in result.contract_checks:
        label = check.role.capitalize()
        card = _text(agents[agents.index(f"<strong>{label}</strong>"):])
        assert (f"phase 2 contract {'met' if check.passed else 'not met'} "
                f"citations {check.citations} acknowledged {check.acknowledged}") in card
    assert "key recommendation" in agents
    assert 'id="debate-chart"' not in page and "confidence" not in agents
    head = page.split('class="question"')[1].split("· started")[0]
    assert "researcher, critic, synthesizer" in head and "threshold" not in head
    card = outer_html(page, "debate-synthesis")
    assert "<h3>Synthesis" in card and result.synthesis.summary.split()[0] in card


@pytest.mark.parametrize("protocol, question, steps_first", [
    ("adversarial", ADV_QUESTION, 3),  # round 1 and the proposal of round 2
    ("workflow", WF_QUESTION, 1),  # phase 1
])
def test_a_running_protocol_page_shows_who_is_answering_and_catches_up_over_the_socket(
        member_client, make_debate, protocol, question, steps_first):
    debate = make_debate(question=question, protocol=protocol, mode="deep", seed=3, run=False)
    for _ in range(steps_first):
        run_next_step(debate.code)
    url = f"/debates/{debate.code}/"
    stale = member_client.get(url).content.decode()
    running = [label for label, state in _steps(stale) if state == "running"]
    assert running == ["round 2" if protocol == "adversarial" else "phase 2"]
    assert "thinking…" in outer_html(stale, "debate-agents")
    stale_seq = int(re.search(r'data-last-seq="(\d+)"', stale).group(1))

    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    batch = render_live_fragments(debate, role="editor", after=stale_seq).html
    targets = {el.attrs.get("id") for el in top_level(batch)}
    page_ids = {el.attrs.get("id") for el in elements(stale)}
    assert {"debate-stepper", "debate-agents", "debate-rounds"} <= targets <= page_ids
    assert ("debate-chart" in targets) == (protocol == "adversarial")
    updated = apply_oob(stale, batch)
    fresh = member_client.get(url).content.decode()
    for target in targets & {"debate-stepper", "debate-agents", "debate-chart",
                             "debate-rounds"}:
        assert outer_html(updated, target) == outer_html(fresh, target), target


def test_adversarial_pages_show_status_lines_the_latest_version_and_its_diff(
        member_client, adversarial):
    result = _result(adversarial)
    page = member_client.get(f"/debates/{adversarial.code}/").content.decode()
    assert 'id="adversarial-status"' in page and 'id="adversarial-proposal"' in page
    for r in result.rounds:
        assert r.status_line.replace("→", "&rarr;") in page or r.status_line in page
    assert f"Proposal, version {result.rounds_completed}" in page
    # Council-only panels (premortem, positions) are not what this page shows.
    assert "Positions (round 0)" not in page
    if result.rounds_completed > 1:
        assert "Changes since version" in page and "<pre><code>@@ " in page
    synthesis = member_client.get(f"/debates/{adversarial.code}/synthesis").content.decode()
    for anchor in ('id="final-solution"', 'id="key-decisions"', 'id="remaining-risks"',
                   'id="issues"', 'id="rounds"'):
        assert anchor in synthesis
    for decision in result.key_decisions:
        assert decision.decision.split()[0] in synthesis
    assert result.rounds[-1].status_line in synthesis.replace("&rarr;", "→")


def test_workflow_pages_show_perspectives_validation_convergence_and_next_steps(
        member_client, workflow):
    result = _result(workflow)
    page = member_client.get(f"/debates/{workflow.code}/").content.decode()
    for anchor in ('id="workflow-perspectives"', 'id="workflow-discussion"',
                   'id="workflow-convergence"', 'id="workflow-synthesis"'):
        assert anchor in page
    for label in ("Researcher", "Critic", "Synthesizer"):
        assert label in page
    assert page.count('class="badge ok">passed') + page.count(
        'class="badge error">not met') == len(result.contract_checks)
    synthesis = member_client.get(f"/debates/{workflow.code}/synthesis").content.decode()
    for anchor in ('id="perspectives"', 'id="validation"', 'id="convergence"',
                   'id="final-synthesis"', 'id="next-steps"'):
        assert anchor in synthesis
    assert result.convergence.status.replace("_", " ") in synthesis.lower()


@pytest.mark.parametrize("which", ["adversarial", "workflow"])
def test_exports_print_and_api_use_the_protocols_report_and_result(
        member_client, request, which):
    debate = request.getfixturevalue(which)
    protocol = get_protocol(debate.protocol)
    result = _result(debate)
    expected = protocol.render_markdown(result)
    md = member_client.get(f"/debates/{debate.code}/export.md")
    assert md.status_code == 200 and md.content.decode() == expected
    data = json.loads(member_client.get(f"/debates/{debate.code}/export.json").content)
    assert protocol.parse_result(data) == result
    printed = member_client.get(f"/debates/{debate.code}/print")
    assert printed.status_code == 200
    # No empty confidence chart under a protocol that has none.
    assert 'class="print-chart"' not in printed.content.decode()
    assert member_client.get(f"/debates/{debate.code}/transcript").status_code == 200
    api = member_client.get(f"/api/debates/{debate.code}/synthesis")
    assert api.status_code == 200 and protocol.parse_result(api.json()) == result
    assert member_client.get(f"/api/debates/{debate.code}/export.md").content.decode() == expected
    schema = member_client.get(f"/api/debates/schemas/result?protocol={which}").json()
    assert schema == protocol.result_model.model_json_schema()


def test_compare_of_non_council_runs_says_so_instead_of_crashing(
        member_client, adversarial, workflow, finished):
    for a, b in ((adversarial, workflow), (adversarial, finished)):
        page = member_client.get(f"/debates/compare?a={a.code}&b={b.code}")
        assert page.status_code == 200
        assert 'id="compare-not-council"' in page.content.decode()
    council = member_client.get(f"/debates/compare?a={finished.code}&b={finished.code}")
    assert 'id="compare-not-council"' not in council.content.decode()


def test_the_api_and_the_form_start_a_registered_protocol(member_client):
    response = member_client.post("/api/debates/", json.dumps(
        {"question": WF_QUESTION, "protocol": "workflow"}), content_type="application/json")
    assert response.status_code == 201, response.content
    debate = Debate.objects.get(code=response.json()["code"])
    assert debate.protocol == debate.settings["protocol"] == "workflow"
    assert list(debate.agents.order_by("index").values_list("name", flat=True)) == [
        "Researcher", "Critic", "Synthesizer"]
    refused = member_client.post("/api/debates/", json.dumps(
        {"question": WF_QUESTION, "protocol": "delphi"}), content_type="application/json")
    assert refused.status_code == 400
    form = member_client.post("/debates/new", {
        "question": ADV_QUESTION, "context": "", "protocol": "adversarial", "mode": "quick",
        "model": "sim/default", "agents": "", "max_rounds": "", "threshold": ""})
    assert form.status_code == 302
    assert Debate.objects.get(question=ADV_QUESTION).protocol == "adversarial"


def test_the_version_diff_cannot_be_closed_by_the_text_it_shows():
    text = version_diff_text("a\nb", "a\n```\n<script>x</script>\nb")
    assert text.startswith("````diff\n") and text.endswith("````\n")
    assert "+```" in text and "+<script>x</script>" in text
    assert version_diff_text("same", "same") == ""
