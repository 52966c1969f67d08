"""Writes on evaluations: start (everything checked before anything is saved), cancel,
and what the worker stores as it goes (``evaluations.runner``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.models import Team
from audit.services import record
from debates.engine import (
    EVALUATION_ARMS,
    MAX_AGENTS,
    MIN_AGENTS,
    EvaluationSpec,
    InputError,
    LabelledSet,
    UploadError,
    check_model,
    is_simulated,
    parse_panel_models,
    parse_upload,
    questions_for,
    resolve_config,
)
from debates.estimates import estimate
from evaluations import sets, signals
from evaluations.limits import check_evaluation_can_spend
from evaluations.models import ACTIVE_STATUSES, Evaluation, EvaluationStatus, SetKind
from evaluations.queue import enqueue_run
from evaluations.reports import build_report
from view_kit.file_names import shown_file_name
from view_kit.site_words import Words

# A run a team reads through on one page; the generated sets allow more, for the CLI.
MAX_QUESTIONS = 1_000
MAX_SEED = 2**31 - 1
DEFAULT_ARMS = ("single", "vote", "council")


class EvaluationError(InputError):
    """A refused start; ``str(exc)`` is for the user, ``problems`` one line each (an
    upload's problems with their lines), ``field`` the request's input at fault when
    one is. An InputError: the API answers 400."""

    def __init__(self, message: str, problems: Sequence[str] = (), *,
                 field: str | None = None, words: Words | None = None) -> None:
        super().__init__(message, field=field)
        self.message = message
        self.problems = list(problems)
        self.words = words  # the pages' words for it (view_kit.site_words.said)


@dataclass(frozen=True, kw_only=True)
class EvaluationRequest:
    """What a caller asks for (form, API)."""

    set_name: str  # a generated set's name, "upload" or "decisions"
    n: int = 50
    seed: int = 7
    arms: Sequence[str] = DEFAULT_ARMS
    agents: int = 3
    model: str = "sim/default"
    sim_accuracy: float | None = None
    # The mixed arms' panel (docs/engine.md, "The mixed arms"): a list or "a, b".
    panel_models: Sequence[str] | str = ()
    upload: bytes | None = None  # the file, for set_name "upload"
    filename: str = ""


def _spec(request: EvaluationRequest) -> EvaluationSpec:
    if request.set_name not in (*sets.GENERATED, sets.UPLOAD, sets.DECISIONS):
        known = ", ".join((*sets.GENERATED, sets.UPLOAD, sets.DECISIONS))
        raise EvaluationError(f"Unknown set {request.set_name!r}; choose one of {known}.",
                              field="set")
    if not 1 <= request.n <= MAX_QUESTIONS:
        raise EvaluationError(f"An evaluation has 1 to {MAX_QUESTIONS:,} questions, not "
                              f"{request.n}.", field="n")
    if not 0 <= request.seed <= MAX_SEED:
        raise EvaluationError(f"The seed is a whole number from 0 to {MAX_SEED}.", field="seed")
    if not MIN_AGENTS <= request.agents <= MAX_AGENTS:
        raise EvaluationError(f"A panel has {MIN_AGENTS} to {MAX_AGENTS} agents, not "
                              f"{request.agents}.", field="agents")
    arms = tuple(dict.fromkeys(request.arms))  # the order given, each once
    unknown = [a for a in arms if a not in EVALUATION_ARMS]
    if unknown or not arms:
        raise EvaluationError(f"Choose arms among {', '.join(EVALUATION_ARMS)}"
                              + (f" ({', '.join(unknown)} is not one)." if unknown else "."),
                              field="arms")
    if request.sim_accuracy is not None and not 0 <= request.sim_accuracy <= 1:
        raise EvaluationError("The simulated accuracy is a probability, from 0 to 1.",
                              field="sim_accuracy")
    model = check_model(request.model, field="model")  # InputError: an unroutable model
    panel_models = tuple(parse_panel_models(request.panel_models))  # InputError too
    try:
        return EvaluationSpec(set_name=request.set_name, n=request.n, seed=request.seed,
                              arms=arms, agents=request.agents, model=model,
                              sim_accuracy=request.sim_accuracy, panel_models=panel_models)
    except ValueError as exc:
        field = "panel_models" if "panel models" in str(exc) or "mixed" in str(exc) else None
        raise EvaluationError(str(exc), field=field) from None


def _labelled(team: Team, request: EvaluationRequest, spec: EvaluationSpec
              ) -> tuple[LabelledSet, str, str]:
    """The questions, the set's kind and its label."""
    if spec.set_name == sets.UPLOAD:
        if not request.upload:
            raise EvaluationError("Choose a JSONL or CSV file of questions to upload.",
                                  field="upload", words=("site.eval.refused.no_file", {}))
        try:
            labelled = parse_upload(request.upload, request.filename or "upload.jsonl")
        except UploadError as exc:
            lines = [str(p) for p in exc.problems]
            name = shown_file_name(request.filename or "The file")  # as a page shows it
            raise EvaluationError(f"{name} is refused ({len(lines)} problem"
                                  f"{'' if len(lines) == 1 else 's'}); nothing was saved.",
                                  lines, field="upload", words=("site.eval.refused.file", {
                                      "name": name,
                                      "problems": ("site.eval.problems.count",
                                                   {"n": len(lines)})})) from None
        if len(labelled) > MAX_QUESTIONS:
            raise EvaluationError(f"The file holds {len(labelled)} questions; at most "
                                  f"{MAX_QUESTIONS:,}.", field="upload", words=(
                                      "site.eval.refused.too_many",
                                      {"n": f"{len(labelled):,}", "max": f"{MAX_QUESTIONS:,}"}))
        labelled = LabelledSet(labelled.name, labelled.questions[:spec.n])
        return labelled, SetKind.UPLOAD, (request.filename or "upload")[:200]
    if spec.set_name == sets.DECISIONS:
        try:
            return sets.decisions_set(team=team, n=spec.n), SetKind.DECISIONS, "decisions"
        except sets.NotEnoughDecisions as exc:
            raise EvaluationError(str(exc), words=exc.words) from None
    try:
        return questions_for(spec), SetKind.GENERATED, spec.set_name
    except ValueError as exc:
        raise EvaluationError(str(exc)) from None


def per_question_estimate(spec: EvaluationSpec) -> tuple[float | None, tuple[str, ...]]:
    """One question's debate at its worst case (USD; None: unpriced), and the models
    without a price. A simulated population or model costs nothing."""
    if spec.sim_accuracy is not None or (
            is_simulated(spec.model) and all(is_simulated(m) for m in spec.panel_models)):
        return 0.0, ()
    settings = {"mode": "quick", "model": spec.model, "agents": spec.agents}
    debates = [resolve_config(settings)]
    if spec.panel_models:  # the mixed arms' second debate
        debates.append(resolve_config({**settings, "panel_models": list(spec.panel_models)}))
    found = [estimate(config) for config in debates]
    costs = [f.cost_usd for f in found]
    unpriced = tuple(dict.fromkeys(m for f in found for m in f.unpriced_models))
    return (None if None in costs else sum(c for c in costs if c is not None)), unpriced


def evaluation_start(*, team: Team, user: User, request: EvaluationRequest) -> Evaluation:
    """Checks the request whole (spec, model, set, limits), saves the evaluation and
    queues its run once the transaction commits; a refusal saves nothing."""
    spec = _spec(request)
    labelled, kind, label = _labelled(team, request, spec)
    if kind == SetKind.UPLOAD:
        # What is run is what was uploaded (up to n): the spec says how many.
        spec = EvaluationSpec.from_json({**spec.to_json(), "n": len(labelled)})
    per_question, unpriced = per_question_estimate(spec)
    with transaction.atomic():
        check_evaluation_can_spend(team=team, user=user, questions=len(labelled),
                                   per_question_usd=per_question, unpriced_models=unpriced)
        evaluation = Evaluation.objects.create(
            team=team, created_by=user, spec=spec.to_json(), set_kind=kind,
            set_label=label, total=len(labelled),
            questions=([] if kind == SetKind.GENERATED
                       else [sets.question_json(q) for q in labelled.questions]),
            estimated_cost_usd=None if per_question is None else per_question * len(labelled))
        record("evaluation.create", evaluation, user=user, data={"set": label, "n": len(labelled)})
        enqueue_run(evaluation)
    return evaluation


def evaluation_cancel(*, evaluation: Evaluation) -> Evaluation:
    """Stops a queued or running evaluation: it keeps the questions stored so far and
    their report; a finished one is left as it is (IllegalTransition)."""
    with transaction.atomic():
        row = Evaluation.objects.select_for_update().get(pk=evaluation.pk)
        if row.status not in ACTIVE_STATUSES:
            raise IllegalTransition(f"This evaluation is {row.get_status_display().lower()}; "
                                    "only a queued or running one can be cancelled.",
                                    words=("site.eval.refused.not_active", {
                                        "status": (f"site.eval.status.{row.status}", {})}))
        row.status = EvaluationStatus.CANCELLED
        row.cancel_requested = True
        row.finished_at = timezone.now()
        row.report = build_report(row)  # what was measured before the cancel
        row.save(update_fields=["status", "cancel_requested", "finished_at", "report",
                                "updated_at"])
        record("evaluation.cancel", row)
        signals.evaluation_finished.send(Evaluation, evaluation=row)
    return row


class IllegalTransition(Exception):
    def __init__(self, message: str, *, words: Words | None = None) -> None:
        super().__init__(message)
        self.words = words  # the pages' words for it (view_kit.site_words.said)
