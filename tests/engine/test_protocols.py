"""The protocol registry, the adversarial protocol's domain detection and issue
ledger, the workflow's phase 2 contract, and both protocols end to end on the
simulator."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols import (
    UnknownProtocol,
    check_protocol,
    get_protocol,
    known_protocols,
    run_protocol,
)
from debates.engine.protocols.adversarial.domains import detect_domain
from debates.engine.protocols.adversarial.issues import (
    Issue,
    IssueLedger,
    Resolution,
    SeverityCounts,
)
from debates.engine.protocols.adversarial.phases import AdversarialPhase
from debates.engine.protocols.adversarial.schemas import AdversarialResult, Critique
from debates.engine.protocols.adversarial.stopping import converged, status_line
from debates.engine.protocols.workflow.contracts import check_discussion
from debates.engine.protocols.workflow.phases import WorkflowPhase
from debates.engine.protocols.workflow.schemas import Citation, Discussion, WorkflowResult
from debates.engine.schemas import Phase, Turn
from debates.engine.state import DebateState

# --------------------------------------------------------------------------- registry


def test_registry_lists_the_three_protocols_council_first():
    assert known_protocols()[:3] == ["council", "adversarial", "workflow"]


def test_unknown_protocol_is_refused_with_the_known_ones():
    with pytest.raises(UnknownProtocol, match="known protocols: council, adversarial, workflow"):
        check_protocol("delphi")
    with pytest.raises(ValidationError, match="unknown protocol 'delphi'"):
        resolve_config(protocol="delphi")


def test_adversarial_round_cap_defaults_to_five_whatever_the_mode():
    assert resolve_config(protocol="adversarial", mode="quick").round_cap == 5
    assert resolve_config(protocol="adversarial", max_rounds=3).round_cap == 3
    assert resolve_config(protocol="council", mode="quick").round_cap == 2


def test_protocol_options_are_validated_by_their_protocol():
    with pytest.raises(ValidationError, match="takes no protocol_options"):
        resolve_config(protocol="council", protocol_options={"domain": "tech"})
    with pytest.raises(ValidationError, match="unknown domain 'legal'"):
        resolve_config(protocol="adversarial", protocol_options={"domain": "legal"})


# --------------------------------------------------------------------------- domains


@pytest.mark.parametrize(("text", "domain"), [
    ("Design the database schema and API for a multi-tenant job queue", "tech"),
    ("Review this:\n```python\ndef add(a, b):\n    return a - b\n```", "code_review"),
    ("diff --git a/app.py b/app.py\n@@ -1,3 +1,3 @@\n-x = 1\n+x = 2", "code_review"),
    ("Write the user story and acceptance criteria for the onboarding feature", "product"),
    ("Should I take a sabbatical year to write a novel?", "general"),
])
def test_domain_detection(text, domain):
    assert detect_domain(text).domain.name == domain


def test_team_domain_by_keyword_and_by_name():
    legal = {"name": "legal", "proposer_role": "Contract drafter",
             "critic_role": "Opposing counsel", "focus_areas": ["liability", "termination"],
             "keywords": ["contract", "clause"]}
    found = detect_domain("Tighten this indemnity clause for the API contract",
                          {"domains": [legal]})
    assert found.domain.name == "legal" and found.domain.critic_role == "Opposing counsel"
    assert detect_domain("anything", {"domains": [legal], "domain": "legal"}).domain.name == \
        "legal"
    with pytest.raises(ValueError, match=r"domains\[0\]"):
        detect_domain("x", {"domains": [{"name": "bad"}]})


# --------------------------------------------------------------------------- adversarial rule


def issue(severity, title, detail="the detail", id=None):
    return Issue(id=id, severity=severity, title=title, detail=detail, suggested_fix="fix it")


def test_ids_are_assigned_and_resolutions_close_issues():
    ledger = IssueLedger()
    t1 = ledger.apply(1, [issue("red", "No rollback plan"), issue("yellow", "Missing metrics"),
                          issue("green", "Naming")], [])
    assert t1.issue_ids == ["I1", "I2", "I3"]
    assert (t1.counts.red, t1.counts.yellow, t1.counts.green) == (1, 1, 1)
    assert not converged(t1.counts)
    t2 = ledger.apply(2, [], [Resolution(id="I1", resolved=True), Resolution(id="I3",
                                                                                resolved=True)])
    assert (t2.counts.red, t2.counts.yellow, t2.counts.green) == (0, 1, 0)
    assert converged(t2.counts)
    assert t2.resolved_ids == ["I1", "I3"]


def test_a_critic_that_under_counts_does_not_decide():
    """The critic claims zero reds, marks I1 unresolved and does not list it again:
    the ledger still counts it."""
    ledger = IssueLedger()
    ledger.apply(1, [issue("red", "Unbounded retries"), issue("yellow", "No alerting"),
                     issue("yellow", "No load test")], [])
    claimed = SeverityCounts(red=0, yellow=1, green=0)
    t2 = ledger.apply(2, [issue("yellow", "No alerting", id="I2")],
                      [Resolution(id="I1", resolved=False), Resolution(id="I3", resolved=True)],
                      claimed)
    assert t2.claimed == claimed
    assert (t2.counts.red, t2.counts.yellow) == (1, 1)
    assert not converged(t2.counts)
    # Forgetting an issue altogether also leaves it open.
    t3 = ledger.apply(3, [], [Resolution(id="I2", resolved=True)])
    assert t3.counts.red == 1 and not converged(t3.counts)


def test_a_red_that_reappears_counts_again_and_keeps_its_severity():
    ledger = IssueLedger()
    ledger.apply(1, [issue("red", "Rollback plan is untested",
                           "nobody has tested the rollback of the migration")], [])
    t2 = ledger.apply(2, [], [Resolution(id="I1", resolved=True)])
    assert t2.counts.red == 0
    # Round 3: the critic raises it "anew" (no id), worded a little differently, as yellow.
    t3 = ledger.apply(3, [issue("yellow", "Rollback plan still untested",
                                "the rollback of the migration has not been tested")], [])
    assert t3.reopened_ids == ["I1"] and t3.new_ids == []
    assert t3.counts.red == 1 and not converged(t3.counts)
    # Listed again by its id it is reopened too, whatever the resolutions said.
    ledger.apply(4, [], [Resolution(id="I1", resolved=True)])
    t5 = ledger.apply(5, [issue("red", "x", id="I1")], [Resolution(id="I1", resolved=True)])
    assert t5.counts.red == 1 and t5.reopened_ids == ["I1"]


def test_the_issues_live_on_the_shared_point_ledger_with_severity_and_resolution_per_round():
    ledger = IssueLedger()
    ledger.apply(1, [issue("red", "No rollback plan"), issue("yellow", "Missing metrics")], [])
    ledger.apply(2, [issue("yellow", "No rollback plan", id="I1")],
                 [Resolution(id="I2", resolved=True)])
    rollback, metrics = ledger.points.get("I1"), ledger.points.get("I2")
    assert rollback.kind == "I" and rollback.severity == {1: "red", 2: "yellow"}
    assert rollback.resolved == {1: False, 2: False} and rollback.cited_in == [2]
    assert metrics.resolved == {1: False, 2: True} and not metrics.open_after(2)
    assert ledger.issues["I1"].history == {1: "raised", 2: "open"}
    assert ledger.issues["I2"].history == {1: "raised", 2: "resolved"}


def test_a_citing_critic_cannot_hide_a_resolved_red_by_rewording_it():
    """Unlike a council agent, a critic that cites ids still has its uncited issues
    matched against earlier ones: a blocking issue must not vanish by rewording."""
    ledger = IssueLedger()
    ledger.apply(1, [issue("red", "Rollback plan is untested",
                           "nobody has tested the rollback of the migration"),
                     issue("green", "Naming of the tables")], [])
    ledger.apply(2, [issue("green", "Naming of the tables", id="I2")],
                 [Resolution(id="I1", resolved=True)])
    t3 = ledger.apply(3, [issue("green", "Naming", id="I2"),
                          issue("yellow", "Rollback plan still untested",
                                "the rollback of the migration has not been tested")], [])
    assert t3.issue_ids == ["I2", "I1"] and t3.reopened_ids == ["I1"]
    assert t3.counts.red == 1 and ledger.issues["I1"].severity == "red"


def test_one_critiques_issues_are_never_merged_even_when_they_read_alike():
    ledger = IssueLedger()
    t1 = ledger.apply(1, [issue("yellow", "Migration cost is underestimated"),
                          issue("yellow", "Migration timeline is underestimated")], [])
    assert t1.new_ids == ["I1", "I2"] and t1.counts.yellow == 2


def test_status_line_format():
    counts = SeverityCounts(red=1, yellow=3, green=2)
    assert status_line(2, 5, counts, "continue") == \
        "Round 2/5  red×1 yellow×3 green×2 → continue"


class _Quiet(EngineHooks):
    pass


def _scripted_state(critiques: list[dict], max_rounds: int = 5) -> DebateState:
    state = DebateState(question="Design the API rate limiter",
                        config=resolve_config(protocol="adversarial", max_rounds=max_rounds))
    protocol = get_protocol("adversarial")
    protocol.prepare(state)
    for n, critique in enumerate(critiques, 1):
        state.add(Turn(phase=AdversarialPhase.PROPOSE, round=n, agent=0,
                       payload={"summary": "s", "replies": [], "proposal": f"v{n}"}))
        state.add(Turn(phase=AdversarialPhase.CRITIQUE, round=n, agent=1,
                       payload=Critique.model_validate(critique).model_dump(mode="json")))
    return state


def _critique(issues, resolutions=(), claimed=None):
    return {"assessment": "ok", "issues": issues, "resolutions": list(resolutions),
            "claimed_counts": claimed}


RED = {"severity": "red", "title": "Single point of failure in the limiter store",
       "detail": "one redis node", "suggested_fix": "replicate"}


def test_the_protocol_stops_on_the_ledger_not_on_the_claimed_counts():
    protocol = get_protocol("adversarial")
    state = _scripted_state([
        _critique([RED]),
        # Round 2: claims all clear but marks I1 unresolved.
        _critique([], [{"id": "I1", "resolved": False}], {"red": 0, "yellow": 0, "green": 0}),
    ])
    assert protocol.stop(state) is None
    assert protocol.next_step(state).phase is AdversarialPhase.PROPOSE
    assert protocol.next_step(state).round == 3
    state = _scripted_state([_critique([RED]), _critique([], [{"id": "I1", "resolved": True}])])
    reason, explanation = protocol.stop(state)
    assert reason.value == "converged" and "red×0" in explanation
    assert protocol.next_step(state).phase is Phase.SYNTHESIS


def test_max_rounds_stops_with_reds_open():
    protocol = get_protocol("adversarial")
    state = _scripted_state([_critique([RED]), _critique([{**RED, "id": "I1"}])], max_rounds=2)
    reason, _ = protocol.stop(state)
    assert reason.value == "max_rounds"


def test_isolation_neither_prompt_names_the_other_role():
    protocol = get_protocol("adversarial")
    state = _scripted_state([_critique([RED])])
    steps = [(AdversarialPhase.PROPOSE, 2), (AdversarialPhase.CRITIQUE, 1)]
    for phase, round_number in steps:
        from debates.engine.state import Step

        step = Step(phase, round_number)
        ask = protocol.asks(state, step)[0]
        text = " ".join(m["content"] for m in protocol.request(state, step, ask).messages)
        lower = text.lower()
        assert "critic" not in lower or phase is AdversarialPhase.CRITIQUE
        assert "proposer" not in lower
        if phase is AdversarialPhase.PROPOSE:
            assert "[I1]" in text and "v1" in text
        else:
            assert "v1" in text


# --------------------------------------------------------------------------- workflow contract


def _discussion(citations, acknowledged=("I had missed the cost",), recommendation="Pilot"):
    return Discussion(response="r", citations=[Citation(**c) for c in citations],
                      acknowledged_missed=list(acknowledged), key_recommendation=recommendation)


def test_phase_2_with_one_citation_fails_the_contract():
    check = check_discussion("critic", _discussion([
        {"source_role": "researcher", "claim": "usage doubled"}]))
    assert not check.passed and check.citations == 1
    assert "1 valid citation, at least 2 needed" in check.problems[0]


def test_citations_must_name_another_role():
    check = check_discussion("critic", _discussion([
        {"source_role": "critic", "claim": "my own point"},
        {"source_role": "someone", "claim": "unattributed"},
        {"source_role": "Synthesizer", "claim": "two options remain"}]))
    assert check.citations == 1 and not check.passed
    good = check_discussion("critic", _discussion([
        {"source_role": "Researcher", "claim": "a"}, {"source_role": "synthesizer", "claim": "b"}]))
    assert good.passed and good.problems == []


def test_missing_acknowledgement_and_recommendation_are_reported():
    check = check_discussion("researcher", _discussion(
        [{"source_role": "critic", "claim": "a"}, {"source_role": "critic", "claim": "b"}],
        acknowledged=(), recommendation=" "))
    assert check.problems == ["no acknowledged missed point", "no key recommendation"]


# --------------------------------------------------------------------------- end to end


class _Calls(EngineHooks):
    def __init__(self) -> None:
        self.calls = []
        self.events = []

    async def on_call(self, record):
        self.calls.append(record)

    async def on_event(self, event):
        self.events.append(event)


def _run(protocol_name: str, question: str, **config) -> tuple[DebateState, object, _Calls]:
    state = DebateState(question=question,
                        config=resolve_config(protocol=protocol_name, **config))
    hooks = _Calls()
    asyncio.run(run_protocol(state, hooks))
    protocol = get_protocol(protocol_name)
    assert protocol.failure(state) is None
    result = protocol.build_result(state, usage_from_calls(hooks.calls))
    return state, result, hooks


def test_adversarial_end_to_end_on_the_simulator():
    state, result, hooks = _run("adversarial", "Design the API and database schema for a "
                                               "multi-tenant rate limiter", seed=3)
    assert isinstance(result, AdversarialResult)
    assert result.domain.domain.name == "tech"
    assert result.rounds_completed >= 1 and result.final_solution
    last = result.rounds[-1]
    if result.stop_reason.value == "converged":
        assert converged(last.tally.counts)
    assert all(r.decision == "continue" for r in result.rounds[:-1])
    lines = [e.data["status_line"] for e in hooks.events
             if e.kind == "step_completed" and "status_line" in e.data]
    assert lines == [r.status_line for r in result.rounds]
    markdown = get_protocol("adversarial").render_markdown(result)
    assert "## Key decisions" in markdown and "| issue | decision | rationale |" in markdown
    assert "Round 1/5" in markdown
    AdversarialResult.model_validate_json(result.model_dump_json())


def test_workflow_end_to_end_deep_runs_at_most_one_phase_2b():
    for seed in range(4):
        state, result, _ = _run("workflow", "Should we adopt a four-day week for support?",
                                mode="deep", seed=seed)
        assert isinstance(result, WorkflowResult)
        rounds = {k[1] for k in state.turns if k[0] == "discussion"}
        assert rounds <= {1, 2}
        assert result.convergence.rounds == max(rounds)
        first = result.convergence.checks[0]
        assert (2 in rounds) == (first.basis.value not in (
            "same_direction", "two_agree_third_accepts", "shared_framework"))
        assert len(result.contract_checks) == 3
        assert result.contract_failures == sum(not c.passed for c in result.contract_checks)
        assert result.convergence.status in ("converged", "partially_converged", "divergent")
        markdown = get_protocol("workflow").render_markdown(result)
        for heading in ("## Individual perspectives", "## Discussion", "## Convergence status",
                        "## Final synthesis", "## Next steps"):
            assert heading in markdown


def test_workflow_standard_mode_has_no_phase_2b_and_uses_the_synthesis_model():
    state, result, hooks = _run("workflow", "Should we adopt a four-day week for support?",
                                phase_models={"synthesis": "sim/strong"})
    assert not any(k[0] == "discussion" and k[1] == 2 for k in state.turns)
    assert result.synthesis_model == "sim/strong"
    assert {c.model for c in hooks.calls if c.phase is WorkflowPhase.ANALYSIS} == {"sim/default"}
