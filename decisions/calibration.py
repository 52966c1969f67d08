"""Reads for calibration: a team's reviewed decisions turned into the plain data
``decisions.scoring`` scores.

Which agent is which persona: an agent made from a library persona carries the
persona's code (``Agent.source_persona_id``), the same code across all its versions,
so its record spans every debate of the team that used it. A persona the panel
composed for one debate is scored under that debate's agent alone.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError

from accounts.models import Team
from debates.engine import DebateForecasts, Quality, get_protocol
from debates.models import Agent, Debate, Synthesis
from decisions.models import Outcome
from decisions.scoring import Calibration, Forecast, PersonaRecord, ReviewedDebate, calibrate
from personas.models import LibraryPersona
from personas.records import CalibrationRecord

logger = logging.getLogger(__name__)


class UnreadableResult(ValueError):
    """A stored result its protocol's model no longer reads: calibration would score
    it as nothing, so it stops and says which debate instead."""


def _forecasts(debate: Debate, result: Any) -> DebateForecasts:
    """The forecasts the debate's protocol reads in its stored result (none without
    a result), with what its debate changed when the protocol says; a result its
    model refuses is an error, logged and raised."""
    if result is None:
        return DebateForecasts()
    protocol = get_protocol(debate.protocol)
    try:
        return protocol.forecasts(protocol.parse_result(result))
    except ValidationError as exc:
        logger.error("calibration cannot read the %s result of debate %s: %s",
                     debate.protocol, debate.code, exc)
        raise UnreadableResult(
            f"the {debate.protocol} result of debate {debate.code} does not parse") from exc


def _scored_outcomes(team: Team) -> list[Outcome]:
    """The latest review of each of the team's decisions, when it names a right
    option, oldest first (so the newest name of a persona wins)."""
    latest: dict[int, Outcome] = {}
    for outcome in (Outcome.objects.filter(decision__debate__team=team)
                    .select_related("decision__debate").order_by("recorded_at", "id")):
        latest[outcome.decision_id] = outcome
    return [o for o in latest.values() if o.can_tell]


def _unusable(result: Any) -> bool:
    """A result whose words the content checks found empty (docs/teams.md, "Scoring"):
    its verdicts and confidences are noise, so scoring them would teach nothing."""
    return isinstance(result, dict) and result.get("quality") == Quality.UNUSABLE


def left_out_unusable(*, team: Team) -> int:
    """How many reviewed decisions calibration leaves out for an unusable result."""
    debate_ids = [o.decision.debate_id for o in _scored_outcomes(team)]
    return Synthesis.objects.filter(debate_id__in=debate_ids,
                                    result__quality=Quality.UNUSABLE.value).count()


def reviewed_debates(*, team: Team) -> list[ReviewedDebate]:
    """The team's reviewed decisions as ``scoring`` takes them (four queries), but
    those on an unusable result (``left_out_unusable`` counts them)."""
    scored = _scored_outcomes(team)
    results = dict(Synthesis.objects.filter(
        debate_id__in=[o.decision.debate_id for o in scored]).values_list("debate_id", "result"))
    outcomes = [o for o in scored if not _unusable(results.get(o.decision.debate_id))]
    debate_ids = [o.decision.debate_id for o in outcomes]
    sources: dict[tuple[int, int], str] = {
        (debate_id, index): str(code)
        for debate_id, index, code in Agent.objects.filter(
            debate_id__in=debate_ids, source_persona_id__isnull=False)
        .values_list("debate_id", "index", "source_persona_id")
    }
    names = {str(code): name for code, name in LibraryPersona.objects.filter(
        library__team=team, code__in=set(sources.values())).values_list("code", "name")}
    reviewed = []
    for outcome in outcomes:
        debate = outcome.decision.debate
        result = _forecasts(debate, results.get(debate.pk))
        forecasts = []
        for agent in result.agents:
            code = sources.get((debate.pk, agent.agent))
            if code is not None:
                forecasts.append(Forecast(
                    scorer=code, name=names.get(code, agent.name),
                    verdict=agent.final_verdict, confidence=agent.final_confidence))
            else:
                forecasts.append(Forecast(
                    scorer=f"{debate.code}/{agent.agent}", name=agent.name,
                    verdict=agent.final_verdict, confidence=agent.final_confidence,
                    debate=str(debate.code)))
        reviewed.append(ReviewedDebate(
            options=result.options, right_option=outcome.right_option,
            initial_majority=result.initial_majority, final_majority=result.final_majority,
            forecasts=forecasts, debate=str(debate.code), question=debate.question,
            change=result.change))
    return reviewed


def reviewed_calibration(*, team: Team) -> tuple[Calibration, list[ReviewedDebate]]:
    """The calibration and the reviewed decisions it scores, newest review first (the
    page lists each with what its debate changed), from one read."""
    reviewed = reviewed_debates(team=team)
    return calibrate(reviewed), reviewed[::-1]


def team_calibration(*, team: Team) -> Calibration:
    return calibrate(reviewed_debates(team=team))


def library_records(*, team: Team) -> dict[str, PersonaRecord]:
    """The record of each library persona of the team that has one, by its code."""
    return {p.scorer: p for p in team_calibration(team=team).personas if p.library_persona}


def persona_api_records(team: Team) -> dict[str, CalibrationRecord]:
    """``library_records`` as the persona API carries them (registered in apps.py)."""
    return {code: CalibrationRecord(scored_decisions=r.scored, brier=r.brier, hits=r.hits,
                                    too_few=r.too_few)
            for code, r in library_records(team=team).items()}


def composed_questions(*, team: Team, calibration: Calibration) -> dict[str, str]:
    """The question of each debate a scored composed persona belongs to, by its code."""
    codes = {p.debate for p in calibration.personas if p.debate}
    return {str(code): question for code, question in Debate.objects.filter(
        team=team, code__in=codes).values_list("code", "question")}
