"""The debate command line: ``council "QUESTION"`` (or ``python -m debates.engine``).

One implementation of the options, the run and the output, shared with ``manage.py
debate``, which adds only ``--save`` (storing the debate needs the site's database).
Without ``--save`` nothing here needs Django, so this entry point's start-up is the
interpreter, the engine's modules and litellm's import (by the model gateway at the
first call, or by the model name's check for a real model): nothing more.

Progress goes to stderr; stdout carries only the Markdown or JSON result.
Exit codes: 0 finished (possibly degraded; the report says so), 1 the debate
failed (below quorum, synthesis failed after fallback), 2 bad input, 3 the result's
quality is at or below ``--fail-on-quality`` (the report is still written), 130
interrupted.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import sys
from argparse import ArgumentParser, RawDescriptionHelpFormatter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from pydantic import BaseModel, ValidationError

from .configure import check_agents, check_decision_rule, resolve_config
from .i18n import CatalogueNotCompiled
from .inputs import InputError, check_model, clean_question, parse_panel_models
from .llm.capabilities import load_model_settings
from .llm.usage import usage_from_calls
from .options import parse_options
from .persona_files import PersonaFileError, load_persona_file
from .progress import ConsoleProgress
from .protocols import get_protocol, known_protocols, run_protocol
from .receipt_command import COMMAND as VERIFY_RECEIPT
from .receipt_command import main as verify_receipt_main
from .schemas import (
    MAX_AGENTS,
    MAX_ROUNDS,
    MIN_AGENTS,
    MIN_ROUNDS,
    MODE_DEFAULTS,
    DecisionRule,
    Mode,
    ProtocolResult,
    Quality,
)
from .sim.config import load_sim_script, simulator_options_from_env
from .sources.documents import SourceDocument
from .sources.extract import SourceRefused, extract_text
from .state import DebateState

EXIT_FAILED, EXIT_BAD_INPUT, EXIT_POOR_QUALITY, EXIT_INTERRUPTED = 1, 2, 3, 130
# What --fail-on-quality takes, and the verdicts each one fails on.
FAILING_QUALITY = {"doubtful": {Quality.DOUBTFUL, Quality.UNUSABLE},
                   "unusable": {Quality.UNUSABLE}}
DEFAULT_MODEL = "sim/default"

DESCRIPTION = ("Run a council debate on QUESTION and print the synthesis (Markdown or JSON) "
               "on stdout; progress goes to stderr.")

EPILOG = f"""\
modes (agents, convergence threshold, max rounds; --agents, --threshold and
--rounds override one value):
  {" · ".join(f"{m.value} {d.agents}, {d.threshold:.2f}, {d.max_rounds}"
             for m, d in MODE_DEFAULTS.items())}

The report is written in the question's language (English, Chinese and Japanese
headings; other languages get English headings around native content).

environment:
  COUNCIL_MODEL           default --model (sim/default, the offline simulator)
  COUNCIL_FALLBACK_MODEL  default --fallback-model
  COUNCIL_MODELS, COUNCIL_MODELS_FILE
                          per-model settings: api_base, output mode, timeout (docs/models.md)
  COUNCIL_SIM_LATENCY_MS, COUNCIL_SIM_FAULTS, COUNCIL_SIM_SEED, COUNCIL_SIM_SCRIPT
                          simulator settings (docs/simulator.md)

exit codes:
  0    the debate finished (possibly degraded: the report says who/what is missing)
  {EXIT_FAILED}    the debate failed (below quorum, synthesis failed after the fallback)
  {EXIT_BAD_INPUT}    bad input (question, option value, persona, script or source file,
       model name),
       or with --save a team limit (rate, budget, cost cap, unpriced model)
  {EXIT_POOR_QUALITY}    the debate finished, but its quality is at or below --fail-on-quality
       (the report is written all the same; docs/engine.md, "Content checks")
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)

Every run ends with a quality line on stderr: sound, doubtful or unusable, and the
content rules that fired.

council verify-receipt FILE [--key PUBKEY] checks a decision receipt offline instead
(its own --help; docs/teams.md, "Decision receipts").
"""

SAVE_ELSEWHERE = ("--save stores the debate in the site's database: run it as "
                  "`python manage.py debate --save` instead")


class CliError(Exception):
    """A one-line reason and the exit code it ends the process with."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def add_arguments(parser: ArgumentParser) -> None:
    """Every option of the debate command (``--save``/``--team`` act in manage.py only)."""
    parser.add_argument("question", help="the decision question (quote it)")
    parser.add_argument("--context", default="", help="optional background for the panel")
    parser.add_argument("--source", action="append", default=[], metavar="PATH",
                        help="a document the panel argues from and cites (repeatable: "
                             "S1, S2... in the order given; docs/engine.md, \"Sources\")")
    parser.add_argument("--protocol", default="council", choices=known_protocols(),
                        help="debate protocol (default: council)")
    parser.add_argument("--deep", action="store_true",
                        help="deep mode (the same as --mode deep; workflow: a convergence "
                             "check and at most one phase 2b)")
    parser.add_argument("--mode", default="medium", choices=["quick", "medium", "deep"],
                        help="panel size, threshold and round cap (default: medium; "
                             "see modes below)")
    parser.add_argument("--agents", type=int,
                        help=f"number of agents, {MIN_AGENTS}-{MAX_AGENTS} (default: the "
                             "mode's)")
    parser.add_argument("--rounds", type=int, help="max cross-examination rounds, "
                                                   f"{MIN_ROUNDS}-{MAX_ROUNDS} (default: the "
                                                   "mode's)")
    parser.add_argument("--threshold", type=float,
                        help="convergence threshold on the dispersion of confidences "
                             "(default: the mode's)")
    parser.add_argument("--personas", help="persona file (YAML or JSON); the panel is "
                                           "composed for the question when omitted")
    parser.add_argument("--model", help="litellm model string (default COUNCIL_MODEL)")
    parser.add_argument("--synthesis-model", help="model for the synthesis and verifier")
    parser.add_argument("--fallback-model",
                        help="model tried when the synthesis or the verifier fails "
                             "(default COUNCIL_FALLBACK_MODEL)")
    parser.add_argument("--judge-model",
                        help="a model that grades the synthesis after the verifier (one "
                             "more call; a poor grade makes the result doubtful); default: "
                             "no judge")
    parser.add_argument("--options",
                        help='the answers verdicts choose from, comma-separated (e.g. '
                             '"Kafka, SQS, conditional"); default: automatic (for, '
                             'against, conditional, or the alternatives the question '
                             'names)')
    parser.add_argument("--panel-models", metavar="A,B,...",
                        help="a mixed panel: models given to the agents in turn (a "
                             "persona's own model wins); peers are then anonymised and "
                             "see arguments, not verdicts (docs/engine.md, \"Mixed "
                             "panels\"); default: --model for every agent")

    parser.add_argument("--decision-rule", choices=[r.value for r in DecisionRule],
                        help="which vote the council's recommendation follows: vote (the "
                             "independent positions), debate (the final positions) or "
                             "confidence (the independent positions weighted by confidence "
                             "rank); default: vote, or debate when the panel's models "
                             "differ (docs/protocols.md 1.9)")
    parser.add_argument("--anonymize", action="store_true",
                        help="show the panel as Agent A, B… (one label an agent, all debate)")
    parser.add_argument("--sim-script", help="simulator script pinning a trajectory "
                                             "(YAML or JSON, docs/simulator.md)")
    parser.add_argument("--seed", type=int, default=7,
                        help="seed for the models and the simulator (default: 7)")
    parser.add_argument("--format", default="md", choices=["md", "json"],
                        help="md: the Markdown report; json: the typed result "
                             "(default: md)")
    parser.add_argument("--fail-on-quality", choices=sorted(FAILING_QUALITY),
                        help=f"exit {EXIT_POOR_QUALITY} (after writing the report) when the "
                             "content checks find the result doubtful (or worse) or "
                             "unusable; default: exit 0 whatever the quality")
    parser.add_argument("--verbose", action="store_true",
                        help="append the full transcript to the Markdown report")
    parser.add_argument("--save", action="store_true",
                        help="store the debate as a record of the team named by --team "
                             "(manage.py debate only: it needs the site's database)")
    parser.add_argument("--team", default="CLI", help="team to save under (created if new)")


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"])
    return f"--{field.replace('_', '-')}: {err['msg']}"


def _utf8_arg(flag: str, value: str) -> str:
    """Python decodes argv bytes that are not UTF-8 to lone surrogates; they would only
    fail later (writing the report, or saving with --save). Refuse them here."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{flag} is not valid UTF-8 text (check the terminal's encoding)"
                         ) from None
    return value


def build_state(opts: Mapping[str, Any], *, default_model: str,
                default_fallback: str | None) -> DebateState:
    """The debate the options describe; bad input raises CliError (exit 2)."""
    try:
        return _build_state(opts, default_model, default_fallback)
    except (InputError, PersonaFileError, ValueError) as exc:
        raise CliError(str(exc), EXIT_BAD_INPUT) from None


def _build_state(opts: Mapping[str, Any], default_model: str,
                 default_fallback: str | None) -> DebateState:
    for flag in ("question", "context", "team"):
        _utf8_arg("the question" if flag == "question" else f"--{flag}", opts[flag] or "")
    question = clean_question(opts["question"])
    model = check_model(opts["model"] or default_model)
    phase_models = {}
    if opts["synthesis_model"]:
        synthesis_model = check_model(opts["synthesis_model"])
        phase_models = {"synthesis": synthesis_model, "verify": synthesis_model}
    fallback = opts["fallback_model"] or default_fallback
    judge = check_model(opts["judge_model"]) if opts.get("judge_model") else None
    try:
        panel_models = parse_panel_models(opts.get("panel_models"), field=None)
    except InputError as exc:
        raise InputError(f"--panel-models: {exc}") from None
    personas = load_persona_file(opts["personas"]) if opts["personas"] else []
    for persona in personas:
        if persona.model:
            check_model(persona.model)
    # Environment defaults (COUNCIL_SIM_LATENCY_MS, _FAULTS) are recorded with the debate.
    simulator = simulator_options_from_env(
        script=load_sim_script(opts["sim_script"]) if opts["sim_script"] else None,
        seed=opts["seed"],
    )
    try:
        options = parse_options(opts.get("options"))
    except ValueError as exc:
        raise InputError(f"--options: {exc}") from None
    try:
        check_agents(opts["protocol"], opts["agents"])
    except ValueError as exc:
        raise InputError(f"--agents: {exc}") from None
    try:
        check_decision_rule(opts["protocol"], opts.get("decision_rule"))
    except ValueError as exc:
        raise InputError(f"--decision-rule: {exc}") from None
    try:
        config = resolve_config(
            protocol=opts["protocol"], mode=Mode.DEEP if opts["deep"] else opts["mode"],
            agents=opts["agents"], max_rounds=opts["rounds"],
            threshold=opts["threshold"], options=options, model=model,
            panel_models=panel_models, phase_models=phase_models,
            fallback_model=check_model(fallback) if fallback else None, judge_model=judge,
            anonymize_peers=opts["anonymize"], seed=opts["seed"], simulator=simulator,
            decision_rule=opts.get("decision_rule"),
        )
    except ValidationError as exc:
        raise InputError(_first_error(exc)) from None
    return DebateState(question=question, context=opts["context"].strip(), config=config,
                       given_personas=personas, sources=read_sources(opts.get("source") or []))


def read_sources(paths: Sequence[str]) -> list[SourceDocument]:
    """The ``--source`` files as the debate's sources, S1..Sn in the order given; a file
    that cannot be read, or gives no text, is bad input (nothing is called)."""
    documents = []
    for n, path in enumerate(paths, start=1):
        name = Path(path).name
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise InputError(f"--source {path}: {exc.strerror or exc}") from None
        try:
            text = extract_text(data, name).text
        except SourceRefused as exc:
            raise InputError(f"--source {path}: {exc}") from None
        if not text.strip():
            raise InputError(f"--source {path}: the file holds no text")
        documents.append(SourceDocument(id=f"S{n}", title=name[:300] or f"S{n}", text=text))
    return documents


def start_progress(state: DebateState, stderr: TextIO) -> ConsoleProgress:
    """Prepares the protocol's state and prints the header line."""
    get_protocol(state.config.protocol).prepare(state)
    progress = ConsoleProgress(state, stderr)
    progress.header()
    return progress


def run_here(state: DebateState, progress: ConsoleProgress) -> BaseModel:
    """Runs the debate in this process, unsaved; a failed debate raises CliError (exit 1)."""
    protocol = get_protocol(state.config.protocol)
    try:
        asyncio.run(run_protocol(state, progress))
    except KeyboardInterrupt:
        raise CliError("interrupted", EXIT_INTERRUPTED) from None
    except CatalogueNotCompiled as exc:  # raised before the first model call
        raise CliError(str(exc), EXIT_FAILED) from None
    failure = protocol.failure(state)
    if failure is not None:
        raise CliError(f"debate failed: {failure}", EXIT_FAILED)
    return protocol.build_result(state, usage_from_calls(progress.calls, progress.wall_time()))


def write_result(result: BaseModel, state: DebateState, opts: Mapping[str, Any],
                 stdout: TextIO) -> None:
    """The report on stdout: Markdown (with the transcript if --verbose) or JSON."""
    protocol = get_protocol(state.config.protocol)
    if opts["format"] == "json":
        texts = [result.model_dump_json(indent=2)]
    else:
        texts = [protocol.render_markdown(result)]
        if opts["verbose"]:
            texts.append(protocol.render_transcript(state))
    for text in texts:
        stdout.write(text if text.endswith("\n") else text + "\n")
    stdout.flush()


def report_quality(result: BaseModel, opts: Mapping[str, Any], stderr: TextIO) -> int:
    """The quality line on stderr, and the exit code ``--fail-on-quality`` asks for."""
    assert isinstance(result, ProtocolResult)
    line = f"quality: {result.quality.value}"
    if result.quality_reasons:
        line += " — " + "; ".join(f"{r.rule} ({r.where})" for r in result.quality_reasons[:3])
        if len(result.quality_reasons) > 3:
            line += f"; {len(result.quality_reasons) - 3} more"
    stderr.write(line + "\n")
    stderr.flush()
    failing = FAILING_QUALITY.get(opts.get("fail_on_quality") or "", set())
    return EXIT_POOR_QUALITY if result.quality in failing else 0


def _env(name: str) -> str | None:
    """A variable's value; empty counts as unset (as in the site's settings)."""
    return (os.environ.get(name) or "").strip() or None


def build_parser(prog: str) -> ArgumentParser:
    parser = ArgumentParser(prog=prog, description=DESCRIPTION, epilog=EPILOG,
                            formatter_class=RawDescriptionHelpFormatter)
    add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None, *, prog: str = "council",
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """The ``council`` console script; returns the exit code. ``council verify-receipt
    FILE`` checks a decision receipt instead (receipt_command.py)."""
    out, err = stdout or sys.stdout, stderr or sys.stderr
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == [VERIFY_RECEIPT]:
        return verify_receipt_main(args[1:], prog=prog, stdout=out, stderr=err)
    opts = vars(build_parser(prog).parse_args(args))
    try:
        if opts["save"]:
            raise CliError(SAVE_ELSEWHERE, EXIT_BAD_INPUT)
        try:
            load_model_settings()  # a typo in COUNCIL_MODELS(_FILE) stops us before any call
        except ValueError as exc:
            raise CliError(str(exc), EXIT_BAD_INPUT) from None
        state = build_state(opts, default_model=_env("COUNCIL_MODEL") or DEFAULT_MODEL,
                            default_fallback=_env("COUNCIL_FALLBACK_MODEL"))
        result = run_here(state, start_progress(state, err))
    except CliError as exc:
        err.write(f"{prog}: error: {exc}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        err.write(f"{prog}: error: interrupted\n")
        return EXIT_INTERRUPTED
    write_result(result, state, opts, out)
    return report_quality(result, opts, err)


def entry(argv: Sequence[str] | None = None, *, prog: str = "council") -> NoReturn:
    """The process entry point: ``main``, then exit without tearing the interpreter down.

    Freeing litellm's few hundred thousand objects one by one at exit took longer than
    a debate's last step (seconds on a busy machine); the OS reclaims the memory at
    once. The exit handlers (logging, litellm's callback queue) still run."""
    code = main(argv, prog=prog)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # the reader went away (``| head``): nothing left to tell it
            pass
    os._exit(code)
