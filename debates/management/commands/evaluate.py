"""``manage.py evaluate``: does the debate beat a vote? A labelled question set × arms,
run in this process on one model and panel (docs/engine.md, "Evaluation harness").

Every question runs through the engine (``evaluate_question``): one council debate
answers ``single``, ``vote``, ``council`` and the synthesis; ``adversarial`` runs its
own debate on free-number questions; ``mixed_vote`` and ``mixed_council`` read a second
debate seated on ``--panel-models``. Progress goes to stderr, one line per question;
the report goes to stdout (a Markdown table, or JSON). Bad input (an unknown set or
arm, a refused upload, a size out of range) exits 2 before anything runs.
"""

from __future__ import annotations

import asyncio
import json
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any, TextIO, cast

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from debates.engine import (
    EVALUATION_ARMS,
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    GENERATED_SETS,
    MAX_AGENTS,
    MIN_AGENTS,
    POPULATION_UPDATES,
    EvaluationSpec,
    InputError,
    LabelledSet,
    QuestionOutcome,
    UploadError,
    check_model,
    evaluate_question,
    litellm_module,
    load_model_settings,
    parse_panel_models,
    parse_upload,
    questions_for,
    report_from_outcomes,
    report_json,
    report_markdown,
)

__all__ = ["Command"]



def _bad(message: str) -> CommandError:
    return CommandError(message, returncode=EXIT_BAD_INPUT)


def _simulated(text: str | None, agents: int, panel_models: tuple[str, ...]) -> dict[str, Any]:
    """The spec's simulated population from ``--sim-accuracy``: one accuracy for all,
    or one a seat, or with ``--panel-models`` one a listed model (their mean is the
    population's accuracy)."""
    if text is None:
        return {}
    try:
        accuracies = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise _bad(f"--sim-accuracy: not a probability or a list of them: {text!r}") from None
    if len(accuracies) == 1:
        return {"sim_accuracy": accuracies[0]}
    if panel_models and len(accuracies) != len(panel_models):
        raise _bad(f"--sim-accuracy: {len(accuracies)} accuracies for {len(panel_models)} "
                   "panel models (one a model)")
    if not panel_models and len(accuracies) != agents:
        raise _bad(f"--sim-accuracy: {len(accuracies)} accuracies for {agents} agents")
    return {"sim_accuracy": sum(accuracies) / len(accuracies), "sim_accuracies": accuracies}


class Command(BaseCommand):
    # The system checks vet a site this command does not serve (as manage.py debate).
    requires_system_checks: list[str] = []
    help = ("Evaluate the debate against a vote of the same panel on a labelled question "
            "set: accuracy with 95 % intervals, Brier, tokens and cost per arm, and the "
            "paired council-against-vote table. Report on stdout, progress on stderr.")

    def add_arguments(self, parser: ArgumentParser) -> None:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--set", dest="set_name",
                            help=f"a generated set: {', '.join(sorted(GENERATED_SETS))}")
        source.add_argument("--file", help="a labelled upload (.jsonl or .csv: question, "
                                           "options, answer)")
        parser.add_argument("--n", type=int,
                            help="how many questions (default: 50 of a generated set, every "
                                 "question of a file)")
        parser.add_argument("--arms", default="single,vote,council",
                            help=f"comma-separated, of {', '.join(EVALUATION_ARMS)} (default: "
                                 "single,vote,council; the synthesis is reported with council)")
        parser.add_argument("--agents", type=int, default=3,
                            help=f"agents per debate, {MIN_AGENTS}-{MAX_AGENTS} (default: 3)")
        parser.add_argument("--model", help="litellm model string (default COUNCIL_MODEL)")
        parser.add_argument("--seed", type=int, default=7,
                            help="seed of the set, the models and the simulator (default: 7)")
        parser.add_argument("--rounds", type=int, default=1,
                            help="cross-examination rounds at most (default: 1)")
        parser.add_argument("--panel-models", metavar="M1,M2[,...]",
                            help="the mixed arms' panel: models given to the seats "
                                 "round-robin (with --arms mixed_vote and/or mixed_council; "
                                 "on --sim-accuracy, simulated ones: sim/a,sim/b)")
        parser.add_argument("--sim-accuracy", metavar="P[,P...]",
                            help="run on the simulated model, each agent right with this "
                                 "probability (0-1), independently; one a seat, "
                                 "comma-separated, for a mixed panel; with --panel-models "
                                 "one a listed model")
        parser.add_argument("--cross-herding", type=float, default=0.5,
                            help="with --sim-accuracy and --panel-models: how much a herding "
                                 "agent weighs a peer on another model (0-1, default 0.5)")
        parser.add_argument("--update", default="martingale", choices=POPULATION_UPDATES,
                            help="with --sim-accuracy: how the simulated agents update in "
                                 "cross-examination (default: martingale)")
        parser.add_argument("--strength", type=float, default=0.0,
                            help="with --update corrective: the chance an agent adopts the "
                                 "right answer; herding: the chance it adopts the plurality "
                                 "of the answers given before its own (0-1)")
        parser.add_argument("--correctors", type=int, default=0,
                            help="with --sim-accuracy: the last agents never look at a peer "
                                 "and adopt the right answer with --correction's chance")
        parser.add_argument("--correction", type=float, default=0.0,
                            help="a corrector's chance of adopting the right answer (0-1)")
        parser.add_argument("--format", default="md", choices=["md", "json"],
                            help="md: a Markdown table; json: the report's JSON (default: md)")

    def handle(self, *args: Any, **opts: Any) -> None:
        stdout, stderr = cast(TextIO, self.stdout._out), cast(TextIO, self.stderr._out)
        labelled, spec = self.prepared(opts)
        started = time.monotonic()
        # The import (seconds) before the first question, not inside its calls' time.
        litellm_module()
        try:
            outcomes = asyncio.run(_run_all(labelled, spec, stderr))
        except KeyboardInterrupt:
            raise CommandError("interrupted", returncode=EXIT_INTERRUPTED) from None
        report = report_from_outcomes(labelled, spec, outcomes)
        stderr.write(f"{len(outcomes)} questions in {time.monotonic() - started:.1f} s\n")
        if opts["format"] == "json":
            stdout.write(json.dumps(report_json(report), indent=2) + "\n")
        else:
            stdout.write(report_markdown(report))
        stdout.flush()

    def prepared(self, opts: dict[str, Any]) -> tuple[LabelledSet, EvaluationSpec]:
        """The questions and the spec, or CommandError (exit 2) before any call."""
        arms = tuple(a.strip() for a in opts["arms"].split(",") if a.strip())
        unknown = [a for a in arms if a not in EVALUATION_ARMS]
        if unknown or not arms:
            raise _bad(f"--arms: unknown arm {', '.join(unknown) or '(none given)'}; "
                       f"known: {', '.join(EVALUATION_ARMS)}")
        if opts["rounds"] < 0:
            raise _bad("--rounds must not be negative")
        try:
            load_model_settings()  # a typo in COUNCIL_MODELS(_FILE) stops us here
            model = check_model(opts["model"] or settings.COUNCIL_MODEL)
        except (InputError, ValueError) as exc:
            raise _bad(str(exc)) from None
        labelled = self.questions(opts)
        try:
            panel_models = tuple(parse_panel_models(opts["panel_models"], field=None))
        except InputError as exc:
            raise _bad(f"--panel-models: {exc}") from None
        try:
            spec = EvaluationSpec(
                set_name=opts["set_name"] or labelled.name, n=len(labelled),
                seed=opts["seed"], arms=arms, agents=opts["agents"], model=model,
                update=opts["update"], strength=opts["strength"], rounds=opts["rounds"],
                correctors=opts["correctors"], correction=opts["correction"],
                panel_models=panel_models, cross_herding=opts["cross_herding"],
                **_simulated(opts["sim_accuracy"], opts["agents"], panel_models))
        except ValueError as exc:
            raise _bad(str(exc)) from None
        return labelled, spec

    def questions(self, opts: dict[str, Any]) -> LabelledSet:
        n = opts["n"]
        if opts["set_name"]:
            if opts["set_name"] not in GENERATED_SETS:
                raise _bad(f"--set: unknown set {opts['set_name']!r}; known: "
                           f"{', '.join(sorted(GENERATED_SETS))}")
            try:
                probe = EvaluationSpec(opts["set_name"], n=50 if n is None else n,
                                       seed=opts["seed"])
                return questions_for(probe)
            except ValueError as exc:
                raise _bad(f"--n: {exc}") from None
        path = Path(opts["file"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise _bad(f"--file {path}: cannot read it ({exc.strerror or exc})") from None
        try:
            labelled = parse_upload(data, path.name)
        except UploadError as exc:
            lines = "\n".join(f"  {problem}" for problem in exc.problems[:20])
            more = len(exc.problems) - 20
            tail = f"\n  … and {more} more" if more > 0 else ""
            raise _bad(f"--file {path} is refused:\n{lines}{tail}") from None
        if n is None:
            return labelled
        if not 1 <= n <= len(labelled):
            held = f"{len(labelled)} question{'s' if len(labelled) != 1 else ''}"
            raise _bad(f"--n: the file holds {held}; --n must be 1 to {len(labelled)}, "
                       f"not {n}")
        return LabelledSet(labelled.name, labelled.questions[:n])


async def _run_all(labelled: LabelledSet, spec: EvaluationSpec,
                   stderr: TextIO) -> list[QuestionOutcome]:
    outcomes = []
    total = len(labelled)
    for index, question in enumerate(labelled.questions, start=1):
        started = time.monotonic()
        outcome = await evaluate_question(question, spec)
        outcomes.append(outcome)
        stderr.write(_progress_line(index, total, question.answer, outcome,
                                    time.monotonic() - started) + "\n")
        stderr.flush()
    return outcomes


def _progress_line(index: int, total: int, right: str, outcome: QuestionOutcome,
                   seconds: float) -> str:
    cells = []
    for name, arm in outcome.arms.items():
        shown = "–" if arm.answer is None else arm.answer[:20]
        cells.append(f"{name} {shown}{' ✓' if arm.answer == right else ''}")
    note = f"  ({outcome.note[:120]})" if outcome.note else ""
    return (f"[{index}/{total}] {outcome.question_id}  answer {right}  " + "  ".join(cells)
            + f"  {seconds:.2f} s{note}")
