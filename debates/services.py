"""Writes on debates. Keyword-only and typed; they refuse illegal transitions."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from council_site.accounts.limits import check_can_start
from council_site.accounts.models import Team
from debates import events
from debates.engine.inputs import InputError, check_model, clean_question
from debates.engine.prompts import PROMPT_VERSION
from debates.engine.schemas import DebateConfig, Persona, Phase
from debates.estimates import estimate
from debates.models import ACTIVE_STATUSES, Debate, DebateStatus, RoundMetric, Synthesis
from debates.models import Turn as TurnRow
from debates.stored_state import load_state, snapshot_agents


class IllegalTransition(Exception):
    pass


def enqueue_step(debate: Debate) -> None:
    """Hands the debate's next step to a worker once the current transaction commits,
    so a worker never reads a debate that is not saved yet."""
    from django_q.tasks import async_task

    code = str(debate.code)
    transaction.on_commit(
        lambda: async_task("debates.tasks.run_step", code, task_name=f"debate-{code}")
    )


def _check_models(config: DebateConfig, personas: list[Persona]) -> None:
    for model in [config.model, *config.phase_models.values(),
                  *([config.fallback_model] if config.fallback_model else []),
                  *(p.model for p in personas if p.model)]:
        check_model(model)


@transaction.atomic
def debate_create(
    *,
    team: Team,
    user: AbstractBaseUser | None,
    question: str,
    config: DebateConfig,
    context: str = "",
    personas: list[Persona] | None = None,
    parent: Debate | None = None,
    start: bool = True,
) -> Debate:
    """Validates everything first, so bad input saves nothing."""
    question = clean_question(question)
    personas = personas or []
    _check_models(config, personas)
    if len({p.name.casefold() for p in personas}) != len(personas):
        raise InputError("two given personas share a name")
    # Every way in (form, API, re-run, CLI --save, admin) passes here, so the team's
    # budget, cost cap and rate limit hold before anything is saved or queued.
    check_can_start(team=team, user=user, estimated_cost_usd=estimate(
        config, text_chars=len(question) + len(context), given_personas=len(personas)
    ).cost_usd)
    debate = Debate.objects.create(
        team=team,
        created_by=user,
        parent=parent,
        question=question,
        context=context.strip(),
        protocol=config.protocol,
        mode=config.mode.value,
        settings=config.model_dump(mode="json"),
        given_personas=[p.model_dump(mode="json", exclude_none=True) for p in personas],
        prompt_version=PROMPT_VERSION,
        simulated=config.simulated,
    )
    snapshot_agents(debate, load_state(debate))
    events.append(debate, "debate_created", {"status": debate.status})
    if start:
        enqueue_step(debate)
    return debate


@transaction.atomic
def debate_cancel(*, debate: Debate, user: AbstractBaseUser | None = None) -> Debate:
    """Cancels a queued or running debate; the event names who did (the page says so)."""
    updated = Debate.objects.filter(pk=debate.pk, status__in=ACTIVE_STATUSES).update(
        status=DebateStatus.CANCELLED, finished_at=timezone.now(), current_step=""
    )
    if not updated:
        raise IllegalTransition(f"a {debate.status} debate cannot be cancelled")
    events.append(debate, "debate_cancelled", {"by": user.get_username()} if user else {})
    debate.refresh_from_db()
    return debate


@transaction.atomic
def debate_stop(*, debate: Debate) -> Debate:
    """Stop debating and synthesise what there is ("stopped_by_user")."""
    updated = Debate.objects.filter(pk=debate.pk, status__in=ACTIVE_STATUSES).update(
        stop_requested=True
    )
    if not updated:
        raise IllegalTransition(f"a {debate.status} debate cannot be stopped")
    events.append(debate, "stop_requested", {})
    debate.refresh_from_db()
    return debate


@transaction.atomic
def debate_more_round(*, debate: Debate) -> Debate:
    """One more cross-examination round after a finished debate; the old synthesis
    no longer describes it, so it goes."""
    debate = Debate.objects.select_for_update().get(pk=debate.pk)
    if debate.status != DebateStatus.SUCCEEDED:
        raise IllegalTransition("only a finished debate can have one more round")
    state = load_state(debate)
    state.request_more_round()
    # The round that stopped the debate now reads "continue", with the rule's verdict
    # kept in its explanation.
    last = state.metrics(state.completed_rounds)
    RoundMetric.objects.filter(debate=debate, round=last.round).update(
        decision=last.decision, explanation=last.explanation)
    TurnRow.objects.filter(
        debate=debate, phase__in=[Phase.SYNTHESIS.value, Phase.VERIFY.value]
    ).delete()
    Synthesis.objects.filter(debate=debate).delete()
    debate.forced_rounds = state.forced_rounds
    debate.stop_requested = False
    debate.status = DebateStatus.QUEUED
    debate.stop_reason = ""
    debate.stop_explanation = ""
    debate.finished_at = None
    debate.save()
    events.append(debate, "more_round_requested", {"round": state.forced_rounds})
    enqueue_step(debate)
    return debate


def debate_rerun(
    *, debate: Debate, user: AbstractBaseUser | None, overrides: dict[str, Any] | None = None,
    question: str | None = None, context: str | None = None,
) -> Debate:
    """A new debate with the same (or edited) settings, linked to its parent. It gets
    a fresh seed unless ``overrides`` pins one: a re-run is a new draw."""
    settings_ = {**debate.settings, **(overrides or {})}
    config = DebateConfig.model_validate(settings_)
    if "seed" not in (overrides or {}):
        config = config.with_fresh_seed()
    with transaction.atomic():
        rerun = debate_create(
            team=debate.team,
            user=user,
            question=question if question is not None else debate.question,
            context=context if context is not None else debate.context,
            config=config,
            personas=[Persona.model_validate(p) for p in debate.given_personas],
            parent=debate,
        )
        # Library usage figures follow the personas into the re-run.
        for agent in debate.agents.filter(source_persona_id__isnull=False,
                                          index__lt=len(debate.given_personas)):
            rerun.agents.filter(index=agent.index).update(
                source_persona_id=agent.source_persona_id)
    return rerun
