"""Each protocol's estimate against the calls its debates make on the simulated model
(issue 38, item 3): for every protocol and mode the estimate is at least the calls an
ordinary run makes, and at most 1.5 times the protocol's true worst case.

The worst case is a run that never converges, so every round the protocol allows runs.
The simulator has no option for that, so each run is made to by the protocol's own
means, never by changing what it counts:

- council: ``forced_rounds`` at the round cap (the engine's "one more round": the
  stopping rule is overruled up to that round), so every cross-examination round runs;
  in deep mode the panel ends with a leading view, so the challenge runs
  (docs/protocols.md 1.7a);
- adversarial: the rule ``converged`` (no red, at most one yellow) never holds, so
  proposer and critic run to the round cap;
- workflow: the convergence check never converges, so deep mode runs phase 2b and its
  second check (quick and medium have no phase 2b: their worst case is the only case).

The calls made are the ledger's rows (``CallRecord``, one per attempt); the simulator
without faults answers each call at the first attempt.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.protocols import get_protocol, run_protocol
from debates.engine.protocols.adversarial import protocol as adversarial_protocol
from debates.engine.protocols.council.state import CouncilState
from debates.engine.protocols.workflow.protocol import WorkflowProtocol
from debates.engine.schemas import CallRecord, DebateConfig, Persona
from debates.engine.state import DebateState
from debates.estimates import estimate

QUESTION = ("Should our 40-person company replace its self-hosted GitLab with GitHub "
            "Enterprise Cloud next quarter?")
PROTOCOLS = ("council", "adversarial", "workflow")
MODES = ("quick", "medium", "deep")


class _Ledger(EngineHooks):
    def __init__(self) -> None:
        self.calls: list[CallRecord] = []

    async def on_call(self, record: CallRecord) -> None:
        self.calls.append(record)


def _run(config: DebateConfig, *, personas: list[Persona] | None = None,
         forced_rounds: int = 0) -> list[CallRecord]:
    state = DebateState(question=QUESTION, config=config, given_personas=personas or [])
    state.forced_rounds = forced_rounds
    ledger = _Ledger()
    asyncio.run(run_protocol(state, ledger))
    assert get_protocol(config.protocol).failure(state) is None
    assert all(c.ok and c.attempt == 1 for c in ledger.calls)
    return ledger.calls


@pytest.fixture
def never_converging(monkeypatch: pytest.MonkeyPatch):
    """Runs a debate of ``config`` in which no round converges (module docstring)."""
    monkeypatch.setattr(adversarial_protocol, "converged", lambda counts: False)
    monkeypatch.setattr(WorkflowProtocol, "converged", lambda self, state, r: False)
    monkeypatch.setattr(CouncilState, "leading_view", lambda self: self.options[0])

    def run(config: DebateConfig, **kwargs: object) -> list[CallRecord]:
        return _run(config, forced_rounds=config.round_cap, **kwargs)  # type: ignore[arg-type]

    return run


def _config(protocol: str, mode: str) -> DebateConfig:
    # Deep mode with a judge: the one call every protocol adds when a judge is set.
    judge = {"judge_model": "sim/default"} if mode == "deep" else {}
    return resolve_config(protocol=protocol, mode=mode, model="sim/default", seed=3, **judge)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_estimate_covers_every_run_and_stays_within_half_again_the_worst_case(
        protocol, mode, never_converging):
    config = _config(protocol, mode)
    planned = estimate(config, text_chars=len(QUESTION)).calls
    ordinary = _run(config)
    worst = never_converging(config)
    assert len(ordinary) <= len(worst) <= planned <= 1.5 * len(worst)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_plan_is_the_worst_case_phase_by_phase(protocol, mode, never_converging):
    """Not only the number: the protocol plans the phases its worst case runs."""
    config = _config(protocol, mode)
    plan = get_protocol(protocol).planned_calls(config, agents_given=0, question_tokens=30)
    made = never_converging(config)
    assert Counter(c.phase for c in plan) == Counter(c.phase for c in made)
    assert Counter(c.agent for c in plan) == Counter(c.agent for c in made)


def test_a_council_given_its_whole_panel_plans_no_compose_call(never_converging):
    config = resolve_config(protocol="council", mode="quick", model="sim/default")
    personas = [Persona(name=f"P{i}", background="b", expertise="e", approach="a",
                        bias="none") for i in range(4)]  # one more than the mode's three
    made = never_converging(config, personas=personas)
    assert estimate(config, personas=personas).calls == len(made) == 4 + 4 + 4 * 2 + 2


def test_one_more_round_is_planned_by_the_council_alone():
    council = resolve_config(protocol="council", mode="quick", model="sim/default")
    panel = [Persona(name=f"P{i}", background="b", expertise="e", approach="a", bias="none")
             for i in range(3)]
    from debates.estimates import estimate_more_round

    assert estimate_more_round(council, round_number=3, personas=panel[:2]).calls == 2 + 2
    for name in ("adversarial", "workflow"):
        assert not get_protocol(name).more_rounds
        other = resolve_config(protocol=name, model="sim/default")
        assert estimate_more_round(other, round_number=3, personas=panel).calls == 0


def test_the_form_and_the_reservation_price_an_adversarial_debate_alike(member_client, team):
    """The form's live estimate and what a started debate reserves go through one
    ``estimate``: both count the adversarial protocol's 12 calls, not a council's 38."""
    from debates.services import DebateSpec, plan_debate

    html = member_client.get("/debates/estimate", {
        "protocol": "adversarial", "mode": "medium", "model": "sim/default"}).content
    assert b"12 calls" in html  # 2 x 5 rounds + synthesis + verifier
    spec = DebateSpec(question=QUESTION, protocol="adversarial", mode="medium",
                      model="openai/gpt-4o-mini")
    plan = plan_debate(team=team, spec=spec)
    assert plan.estimate == estimate(plan.config, text_chars=len(QUESTION))
    assert plan.estimate.calls == 12 and plan.estimate.cost_usd


def test_the_estimate_names_no_protocol():
    """debates/estimates.py prices whatever the protocol plans: it imports no protocol's
    own name (issue 38: the site is protocol-blind)."""
    import ast
    from pathlib import Path

    import debates.estimates

    tree = ast.parse(Path(debates.estimates.__file__).read_text())
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             for alias in node.names}
    own = {n for n in names for p in PROTOCOLS if p in n.lower()}
    assert own == set()


def test_a_protocol_that_plans_no_calls_has_an_unknown_price(monkeypatch):
    from debates.engine import DebateProtocol

    class Unplanned(DebateProtocol):
        name = "unplanned"

    monkeypatch.setattr("debates.estimates.get_protocol", lambda name: Unplanned())
    simulated = estimate(resolve_config(model="sim/default"))
    paid = estimate(resolve_config(model="openai/gpt-4o-mini"))
    assert (simulated.price, simulated.cost_usd) == ("simulated", 0.0)
    assert (paid.price, paid.cost_usd, paid.cost_label) == ("unknown", None, "unknown price")
