"""The council's calls in the worst case (docs/teams.md, "Cost"): compose 1 (unless
every persona is given) + premortem N + position N + N x max_rounds cross-examinations
(every round runs: the stopping rule never ends one early) + in deep mode the challenge
(the devil's advocate 1 + an answer per agent N: a leading view is assumed) + synthesis,
verifier and, when a judge model is set, the judge. One more round is N cross-examinations by the
agents still taking part and the closing calls again. Retries and repairs are not
counted; they only happen on failures.

A cross-examination prompt carries every peer's position, and the synthesis every
agent's rounds, so both grow with the panel."""

from __future__ import annotations

from ...schemas import DebateConfig, Mode
from ..base import PANEL, PlannedCall
from ..estimate import closing_calls
from .phases import CouncilPhase

# Approximate tokens per call (prompt, completion), before the question is added.
COMPOSE = (600, 200)  # completion per persona
PREMORTEM = (500, 300)
POSITION = (650, 300)
CROSS_EXAM = (800, 350)
CROSS_EXAM_PER_PEER = 250
CROSS_EXAM_OWN_PREVIOUS = 200
CHALLENGE = (700, 500)
CHALLENGE_PER_AGENT = 120  # each final stance the advocate reads
CHALLENGE_ANSWER = (600, 350)
SYNTHESIS = (1200, 1200)
SYNTHESIS_PER_AGENT_ROUND = 100


def planned_calls(config: DebateConfig, *, agents_given: int,
                  question_tokens: int) -> list[PlannedCall]:
    # Given personas beyond the mode's count are all kept (CouncilState.target_agents).
    agents = max(config.n_agents, agents_given)
    q = question_tokens
    calls: list[PlannedCall] = []
    if agents_given < agents:
        # The compose call is the one call without the fallback model.
        calls.append(PlannedCall(CouncilPhase.COMPOSE, COMPOSE[0] + q, COMPOSE[1] * agents,
                                 may_fall_back=False))
    calls += [PlannedCall(CouncilPhase.PREMORTEM, PREMORTEM[0] + q, PREMORTEM[1], a)
              for a in range(agents)]
    calls += [PlannedCall(CouncilPhase.POSITION, POSITION[0] + q, POSITION[1], a)
              for a in range(agents)]
    for r in range(1, config.round_cap + 1):
        calls += _cross_exam_round(agents=agents, round_number=r, question_tokens=q)
    calls += challenge_calls(config, agents=agents, question_tokens=q)
    return calls + _closing(config, agents=agents, rounds=config.round_cap, question_tokens=q)


def more_round_calls(config: DebateConfig, *, rounds_run: int,
                     question_tokens: int) -> list[PlannedCall]:
    """Round ``rounds_run + 1`` by ``config.n_agents`` agents (the estimate passes the
    number still taking part), then a new synthesis, verifier and judge."""
    agents, round_number = config.n_agents, rounds_run + 1
    return (_cross_exam_round(agents=agents, round_number=round_number,
                              question_tokens=question_tokens)
            + challenge_calls(config, agents=agents, question_tokens=question_tokens)
            + _closing(config, agents=agents, rounds=round_number,
                       question_tokens=question_tokens))


def _cross_exam_round(*, agents: int, round_number: int,
                      question_tokens: int) -> list[PlannedCall]:
    prompt = (CROSS_EXAM[0] + question_tokens + CROSS_EXAM_PER_PEER * (agents - 1)
              + (CROSS_EXAM_OWN_PREVIOUS if round_number > 1 else 0))
    return [PlannedCall(CouncilPhase.CROSS_EXAM, prompt, CROSS_EXAM[1], a)
            for a in range(agents)]


def challenge_calls(config: DebateConfig, *, agents: int,
                    question_tokens: int) -> list[PlannedCall]:
    """Deep mode's challenge (docs/protocols.md 1.7a): the devil's advocate, then every
    agent's answer; nothing in other modes."""
    if config.mode is not Mode.DEEP:
        return []
    q = question_tokens
    return [PlannedCall(CouncilPhase.CHALLENGE, CHALLENGE[0] + q + CHALLENGE_PER_AGENT * agents,
                        CHALLENGE[1], PANEL, may_fall_back=False),
            *(PlannedCall(CouncilPhase.CHALLENGE_ANSWER, CHALLENGE_ANSWER[0] + q + CHALLENGE[1],
                          CHALLENGE_ANSWER[1], a) for a in range(agents))]


def _closing(config: DebateConfig, *, agents: int, rounds: int,
             question_tokens: int) -> list[PlannedCall]:
    return closing_calls(
        config,
        synthesis_prompt=(SYNTHESIS[0] + question_tokens
                          + SYNTHESIS_PER_AGENT_ROUND * agents * (rounds + 2)),
        synthesis_completion=SYNTHESIS[1], decision_repair=True)
