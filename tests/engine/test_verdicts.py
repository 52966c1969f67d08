"""Verdicts and agreement (docs/protocols.md 1.4-1.7): the stopping rule measured on the
decision, with scripted verdicts, and the options a debate decides between."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from debates.engine import get_protocol, run_protocol
from debates.engine.configure import resolve_config
from debates.engine.i18n import translator
from debates.engine.llm.usage import usage_from_calls
from debates.engine.options import YES_NO, clean_options, options_from_question, parse_options
from debates.engine.protocols.council.convergence import stop_decision
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.report import render_markdown
from debates.engine.protocols.council.schemas import RoundMetrics
from debates.engine.protocols.council.synthesis import build_result
from debates.engine.protocols.council.verdicts import (
    cross_exam_schema,
    describe_counts,
    position_schema,
    split,
)
from debates.engine.schemas import Persona, SimulatorOptions, StopReason
from debates.engine.state import DebateState
from tests.engine.test_trajectories import Recorder, agent, debate

# ---------------------------------------------------------------------- the rule, end to end


async def test_unanimous_but_unsure_converges_and_says_so():
    # Everyone is for it and equally unsure: agreement on the decision is complete.
    _, result, _ = await debate([
        agent("Ann", 0.35, [{"updated_confidence": 0.36, "concessions": ["fair"]}],
              position_verdict="for"),
        agent("Bo", 0.40, [{"updated_confidence": 0.37}], position_verdict="for"),
        agent("Cy", 0.36, [{"updated_confidence": None}], position_verdict="for"),
    ], max_rounds=4)
    assert result.stop_reason is StopReason.CONVERGED and result.rounds_completed == 1
    assert result.metrics[1].agreement == 1.0 and result.metrics[1].leading_verdict == "for"
    assert "verdicts: 3 of 3 for (agreement 1.00)" in result.stop_explanation
    assert result.diagnostic.mean_after < 0.4


async def test_sure_but_split_does_not_converge_and_stalls_into_genuine_disagreement():
    # Confidence alone says "converged" in round 1 (dispersion 0, mean unmoved); the
    # verdicts say one of three is against.
    stuck = {"remaining_disagreements": ["Usage pricing will scare our largest customers"]}
    _, result, _ = await debate([
        agent("Ann", 0.80, [stuck, stuck], position_verdict="for"),
        agent("Bo", 0.80, [stuck, stuck], position_verdict="against"),
        agent("Cy", 0.80, [stuck, stuck], position_verdict="for"),
    ], max_rounds=4)
    assert result.metrics[1].dispersion == 0 and result.metrics[1].decision == "continue"
    assert result.stop_reason is StopReason.GENUINE_DISAGREEMENT
    assert result.rounds_completed == 2
    assert abs(result.metrics[2].agreement - 2 / 3) < 1e-9
    assert "agreement 0.67 < 0.75" in result.stop_explanation
    assert "2 of 3 for, 1 against" in result.stop_explanation
    assert result.recommended_path is None and result.divergence_report is not None


async def test_a_changed_verdict_is_carried_forward_and_ends_the_split():
    _, result, _ = await debate([
        agent("Ann", 0.80, [{"concessions": ["x"]}, {}], position_verdict="for"),
        agent("Bo", 0.80, [{"remaining_disagreements": ["p"]},
                           {"updated_verdict": "for"}], position_verdict="against"),
        agent("Cy", 0.80, [{"remaining_disagreements": ["q"]}, {}],
              position_verdict="conditional"),
        agent("Di", 0.80, [{}, {}], position_verdict="for"),
    ], max_rounds=4)
    # Round 1: 2 of 4 for (0.50): not converged. Round 2: Bo comes round, 3 of 4.
    assert result.metrics[1].agreement == 0.5
    assert result.stop_reason is StopReason.CONVERGED and result.rounds_completed == 2
    assert result.metrics[2].verdict_counts == {"for": 3, "conditional": 1}
    bo = next(a for a in result.agents if a.persona.name == "Bo")
    assert bo.verdict_by_round == ["against", "against", "for"]
    assert (bo.initial_verdict, bo.final_verdict) == ("against", "for")
    assert result.verdicts_before.supporters == 2 and result.verdicts_after.supporters == 3
    assert "3 of 4 for, 1 conditional" in result.stop_explanation


async def test_a_dissenter_who_fails_is_carried_forward_and_blocks_convergence():
    # Without Ann carried forward, round 1 would be Bo and Cy alone, both for at 0.7:
    # agreement 1.0 and "converged" manufactured by her failure.
    _, result, _ = await debate([
        agent("Ann", 0.70, position_verdict="against", fail_in=["cross_exam:1"]),
        agent("Bo", 0.70, [{"updated_confidence": 0.70}], position_verdict="for"),
        agent("Cy", 0.70, [{"updated_confidence": 0.70}], position_verdict="for"),
    ], max_rounds=1)
    last = result.metrics[1]
    assert (last.active_agents, last.counted_agents) == (2, 3)
    assert last.verdict_counts == {"for": 2, "against": 1}
    assert result.stop_reason is StopReason.MAX_ROUNDS
    assert "2 of 3 for, 1 against" in result.stop_explanation
    ann = next(a for a in result.agents if a.persona.name == "Ann")
    assert ann.verdict_by_round == ["against", None] and ann.in_final_majority is None


async def test_an_even_split_that_stalls_has_no_leading_verdict():
    point = {"remaining_disagreements": ["Migration cost is unknown"]}
    _, result, _ = await debate([
        agent("Ann", 0.6, [point, point], position_verdict="for"),
        agent("Bo", 0.6, [point, point], position_verdict="for"),
        agent("Cy", 0.6, [point, point], position_verdict="against"),
        agent("Di", 0.6, [point, point], position_verdict="against"),
    ], max_rounds=4)
    assert result.stop_reason is StopReason.GENUINE_DISAGREEMENT
    assert result.metrics[2].leading_verdict is None and result.metrics[2].agreement == 0.5
    assert result.verdicts_after.leading is None
    assert all(a.in_final_majority is False for a in result.agents)


async def test_scripts_without_verdicts_share_the_first_option():
    state, result, _ = await debate([agent("Ann", 0.5), agent("Bo", 0.52)], max_rounds=1)
    assert [a.initial_verdict for a in result.agents] == ["for", "for"]
    assert state.options == list(YES_NO)


async def test_stopped_by_user_states_the_split():
    state = DebateState(question="Should we hire a second designer?", config=resolve_config(
        mode="quick", agents=2, retry_backoff_s=0.0, simulator=SimulatorOptions(script={
            "agents": [agent("Ann", 0.5, position_verdict="against"), agent("Bo", 0.5)]})))
    hooks = Recorder()
    while (
        step := state.view.next_step()
    ) is not None and step.phase is not CouncilPhase.CROSS_EXAM:
        await get_protocol("council").run_step(state, step, hooks)
    state.stop_requested = True
    reason, explanation = state.view.stop()
    assert reason is StopReason.STOPPED_BY_USER
    # A tie lists the options in their order.
    assert explanation.endswith("verdicts: 1 of 2 for, 1 against (agreement 0.50)")


# ---------------------------------------------------------------------- the rule alone


def metrics(**values):
    base = {"round": 1, "active_agents": 5, "counted_agents": 5, "mean_confidence": 0.7,
            "dispersion": 0.01, "confidence_delta": 0.0, "concessions": 0,
            "new_arguments": 0}
    return RoundMetrics(**{**base, **values})


@pytest.mark.parametrize(("agreement", "expected"), [
    (0.8, StopReason.CONVERGED), (0.75, StopReason.CONVERGED), (0.6, None),
    (None, StopReason.CONVERGED)])
def test_converged_needs_agreement_of_three_quarters(agreement, expected):
    counts = None if agreement is None else {"for": round(agreement * 5), "against": 1}
    reason, _ = stop_decision(metrics(agreement=agreement, verdict_counts=counts),
                              threshold=0.1, max_rounds=4)
    assert reason is expected


def test_a_stall_with_low_dispersion_but_split_verdicts_is_genuine_disagreement():
    m = metrics(round=2, dispersion=0.05, confidence_delta=0.1, agreement=0.6,
                verdict_counts={"for": 3, "against": 1, "conditional": 1})
    reason, explanation = stop_decision(m, threshold=0.1, max_rounds=4)
    assert reason is StopReason.GENUINE_DISAGREEMENT
    assert explanation.endswith("verdicts: 3 of 5 for, 1 against, 1 conditional "
                                "(agreement 0.60)")
    m.agreement = 0.8
    m.verdict_counts = {"for": 4, "conditional": 1}
    assert stop_decision(m, threshold=0.1, max_rounds=4)[0] is StopReason.DIMINISHING_RETURNS


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "4 of 5 for, 1 conditional"),
    ("zh", "5 位中 4 位赞成，1 位有条件赞成"),
    ("ja", "5 名中 4 名が賛成、1 名が条件付き"),
])
def test_the_split_reads_in_the_debate_language(language, expected):
    assert describe_counts({"conditional": 1, "for": 4}, 5, translator(language)) == expected


def test_named_options_are_not_translated():
    split_words = describe_counts({"Kafka": 2, "SQS": 1}, 3, translator("zh"))
    assert split_words == "3 位中 2 位Kafka，1 位SQS"


# ---------------------------------------------------------------------- split and options


def test_split_counts_agents_without_a_usable_verdict_against_agreement():
    s = split(["for", "For ", None, "maybe"], YES_NO)
    assert s.counts == {"for": 2} and s.of == 4 and s.agreement == 0.5 and s.leading == "for"
    assert split([None, None], YES_NO) is None


@pytest.mark.parametrize(("question", "options"), [
    ("Should we move to usage-based pricing?", ["for", "against", "conditional"]),
    ("Should we use Kafka or SQS for the event bus?", ["Kafka", "SQS", "conditional"]),
    ("Rust vs Go for the new CLI?", ["Rust", "Go", "conditional"]),
    ("Postgres, MySQL or SQLite for the prototype?",
     ["Postgres", "MySQL", "SQLite", "conditional"]),
    ("Should we do it or not?", ["for", "against", "conditional"]),
    ("我们应该用Kafka还是SQS？", ["Kafka", "SQS", "conditional"]),
    ("Background. We have two teams. Should we buy or build?",
     ["buy", "build", "conditional"]),
])
def test_options_from_the_question(question, options):
    assert options_from_question(question) == options


@pytest.mark.parametrize(("question", "options"), [
    # Actions on both sides: each alternative is its whole clause, never "this quarter".
    ("Should we build enterprise SSO and audit logs this quarter, or keep focusing on "
     "self-serve onboarding?",
     ["build enterprise SSO and audit logs this quarter",
      "keep focusing on self-serve onboarding", "conditional"]),
    ("Should we migrate to Kubernetes this year or stay on VMs?",
     ["migrate to Kubernetes this year", "stay on VMs", "conditional"]),
    ("Should we rewrite the billing service in Rust or keep it in Python?",
     ["rewrite the billing service in Rust", "keep it in Python", "conditional"]),
    ("Should we hire two seniors or keep the team small?",
     ["hire two seniors", "keep the team small", "conditional"]),
    # Things: the verb and the shared tail are not part of them.
    ("Should we go with Kafka or Pulsar for the event bus?", ["Kafka", "Pulsar", "conditional"]),
    ("Is it better to use Kafka or SQS?", ["Kafka", "SQS", "conditional"]),
    ("Should we hire a senior engineer or two juniors?",
     ["senior engineer", "two juniors", "conditional"]),
    ("Given our budget, should we use Kafka or SQS?", ["Kafka", "SQS", "conditional"]),
    # Where the first alternative starts is unclear: the yes/no options, not a fragment.
    ("Should we launch the new pricing page in Europe or the US?",
     ["for", "against", "conditional"]),
])
def test_named_alternatives_are_whole_phrases_or_the_yes_no_options(question, options):
    assert options_from_question(question) == options


def test_given_options_are_cleaned_and_checked():
    assert parse_options(" Kafka , SQS,, kafka ") == ["Kafka", "SQS"]
    assert parse_options("  ") is None and parse_options(None) is None
    with pytest.raises(ValueError, match="at least 2"):
        clean_options(["only"])
    with pytest.raises(ValueError, match="at most 8"):
        clean_options([str(i) for i in range(9)])


def test_the_schemas_take_only_the_debates_options():
    schema = position_schema(["Kafka", "SQS", "conditional"])
    base = {"stance": "Use SQS", "reasoning": ["managed"], "confidence": 0.6}
    assert schema.model_validate({**base, "verdict": " sqs"}).verdict == "SQS"
    with pytest.raises(ValidationError):
        schema.model_validate({**base, "verdict": "RabbitMQ"})
    with pytest.raises(ValidationError):
        schema.model_validate(base)
    assert schema.model_json_schema()["properties"]["verdict"]["enum"] == [
        "Kafka", "SQS", "conditional"]
    exam = cross_exam_schema(["Kafka", "SQS", "conditional"])
    assert exam.model_validate({"reflection": "ok"}).updated_verdict is None
    with pytest.raises(ValidationError):
        exam.model_validate({"reflection": "ok", "updated_verdict": "for"})


# ---------------------------------------------------------------------- options in a debate


async def run(question, **config):
    state = DebateState(question=question, config=resolve_config(
        mode="quick", retry_backoff_s=0.0, **config))
    hooks = Recorder()
    await run_protocol(state, hooks)
    return state, build_result(state, usage_from_calls(hooks.calls))


async def test_the_compose_call_returns_the_options_and_verdicts_use_them():
    state, result = await run("Should we use Kafka or SQS for the event bus?")
    compose = state.ok_payload(CouncilPhase.COMPOSE, 0, -1)
    assert compose["options"] == ["Kafka", "SQS", "conditional"]
    assert result.options == ["Kafka", "SQS", "conditional"]
    verdicts = [a.initial_verdict for a in result.agents]
    assert all(v in result.options for v in verdicts)
    assert result.verdicts_before.of == 3
    assert sum(result.verdicts_before.counts.values()) == 3


async def test_user_options_override_and_no_compose_derives_them_in_code():
    state, result = await run("Should we move to usage-based pricing?",
                              options=["Now", "Next year", "Never"])
    assert result.options == ["Now", "Next year", "Never"]
    assert {a.initial_verdict for a in result.agents} <= {"Now", "Next year", "Never"}
    personas = [Persona(name=n, background="b", expertise="e", approach="a", bias="x")
                for n in ("Ann", "Bo")]
    given = DebateState(question="Rust vs Go for the new CLI?",
                        config=resolve_config(mode="quick", agents=2), given_personas=personas)
    assert not given.view.needs_compose and given.options == ["Rust", "Go", "conditional"]


async def test_unscripted_simulated_debates_carry_verdicts_through_every_round():
    state, result = await run("Should we move to usage-based pricing?", seed=3,
                              simulator=SimulatorOptions(seed=3))
    for m in result.metrics:
        assert m.agreement is not None and sum(m.verdict_counts.values()) == m.counted_agents
    for a in result.agents:
        assert len(a.verdict_by_round) == result.rounds_completed + 1
        assert all(v in YES_NO for v in a.verdict_by_round if v is not None)


async def test_the_report_opens_with_the_split_and_tables_agreement():
    _, result, _ = await debate([
        agent("Ann", 0.80, [{"updated_verdict": "for"}], position_verdict="against"),
        agent("Bo", 0.80, [{}], position_verdict="for"),
        agent("Cy", 0.80, [{}], position_verdict="for"),
    ], max_rounds=1)
    text = render_markdown(result)
    verdict_line = next(line for line in text.splitlines() if line.startswith("**Verdicts:**"))
    assert "before the debate 2 of 3 for, 1 against" in verdict_line
    assert "after the debate 3 of 3 for" in verdict_line
    assert text.index("**Verdicts:**") < text.index("**Stopped:**")
    assert "**Options:** for · against · conditional" in text
    assert "| 1 | 0.80 | 0.000 | 1.00 |" in text
    assert "| agreement |" in text
    assert "Largest group" not in text and "majority" not in text.lower()
