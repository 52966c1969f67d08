"""``manage.py debate "QUESTION"``: run a debate in this process.

Progress goes to stderr; stdout carries only the Markdown or JSON result.
Exit codes: 0 finished (possibly degraded; the report says so), 1 the debate
failed (below quorum, synthesis failed after fallback), 2 bad input, 130
interrupted.
"""

from __future__ import annotations

import asyncio
from argparse import ArgumentParser, RawDescriptionHelpFormatter
from typing import Any, TextIO, cast

from django.conf import settings
from django.core.management.base import (
    BaseCommand,
    CommandError,
    CommandParser,
    DjangoHelpFormatter,
)
from pydantic import BaseModel, ValidationError

from debates.engine.inputs import InputError, check_model, clean_question
from debates.engine.persona_files import PersonaFileError, load_persona_file
from debates.engine.progress import ConsoleProgress
from debates.engine.protocols import get_protocol, known_protocols, run_protocol
from debates.engine.schemas import (
    MAX_AGENTS,
    MAX_ROUNDS,
    MIN_AGENTS,
    MIN_ROUNDS,
    MODE_DEFAULTS,
    DebateConfig,
    Mode,
    usage_from_calls,
)
from debates.engine.sim_config import load_sim_script, simulator_options_from_env
from debates.engine.state import DebateState
from debates.engine.verdicts import parse_options

EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 1, 2, 130

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
  COUNCIL_SIM_LATENCY_MS, COUNCIL_SIM_FAULTS, COUNCIL_SIM_SEED, COUNCIL_SIM_SCRIPT
                          simulator settings (docs/simulator.md)

exit codes:
  0    the debate finished (possibly degraded: the report says who/what is missing)
  {EXIT_FAILED}    the debate failed (below quorum, synthesis failed after the fallback)
  {EXIT_BAD_INPUT}    bad input (question, option value, persona or script file, model name),
       or with --save a team limit (rate, budget, cost cap, unpriced model)
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)
"""


class _HelpFormatter(DjangoHelpFormatter, RawDescriptionHelpFormatter):
    """Django's option order, with the epilog's layout kept."""


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


class Command(BaseCommand):
    # The system checks import every URL, view and API module (about half a second)
    # to vet a site this command does not serve; migrate and serve still run them.
    requires_system_checks: list[str] = []
    help = ("Run a council debate on QUESTION and print the synthesis (Markdown or JSON) "
            "on stdout; progress goes to stderr.")

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        kwargs.setdefault("epilog", EPILOG)
        kwargs.setdefault("formatter_class", _HelpFormatter)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("question", help="the decision question (quote it)")
        parser.add_argument("--context", default="", help="optional background for the panel")
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
        parser.add_argument("--options",
                            help='the answers verdicts choose from, comma-separated (e.g. '
                                 '"Kafka, SQS, conditional"); default: automatic (for, '
                                 'against, conditional, or the alternatives the question '
                                 'names)')
        parser.add_argument("--anonymize", action="store_true",
                            help="show peers as Agent B, C… (the same label all debate)")
        parser.add_argument("--sim-script", help="simulator script pinning a trajectory "
                                                 "(YAML or JSON, docs/simulator.md)")
        parser.add_argument("--seed", type=int, default=7,
                            help="seed for the models and the simulator (default: 7)")
        parser.add_argument("--format", default="md", choices=["md", "json"],
                            help="md: the Markdown report; json: the typed result "
                                 "(default: md)")
        parser.add_argument("--verbose", action="store_true",
                            help="append the full transcript to the Markdown report")
        parser.add_argument("--save", action="store_true",
                            help="store the debate as a record of the team named by --team")
        parser.add_argument("--team", default="CLI", help="team to save under (created if new)")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            state = self.build_state(opts)
        except (InputError, PersonaFileError, ValueError) as exc:
            raise CommandError(str(exc), returncode=EXIT_BAD_INPUT) from None
        protocol = get_protocol(state.config.protocol)
        protocol.prepare(state)
        # The raw stream: OutputWrapper would add a newline to the live status line.
        # It keeps that stream as ``_out``, which django-stubs does not declare.
        progress = ConsoleProgress(state, cast(TextIO, self.stderr._out))
        progress.header()
        try:
            if opts["save"]:
                result = self.run_saved(state, progress, opts["team"])
            else:
                asyncio.run(run_protocol(state, progress))
                failure = protocol.failure(state)
                if failure is not None:
                    raise CommandError(f"debate failed: {failure}", returncode=EXIT_FAILED)
                result = protocol.build_result(
                    state, usage_from_calls(progress.calls, progress.wall_time()))
        except KeyboardInterrupt:
            raise CommandError("interrupted", returncode=EXIT_INTERRUPTED) from None
        if opts["format"] == "json":
            self.stdout.write(result.model_dump_json(indent=2))
        else:
            self.stdout.write(protocol.render_markdown(result))
            if opts["verbose"]:
                self.stdout.write(protocol.render_transcript(state))

    def run_saved(self, state: DebateState, progress: ConsoleProgress, team_name: str
                  ) -> BaseModel:
        from council_site.accounts.models import Team
        from debates.execution import run_to_completion
        from debates.models import DebateStatus
        from debates.services import DebateSpec, debate_start

        # Team names are not unique: take the oldest of that name, or make it.
        team = (Team.objects.filter(name=team_name).order_by("id").first()
                or Team.objects.create(name=team_name))
        # The options were resolved into state.config (--seed, --sim-script and the
        # fallback model included); debate_start keeps them and checks the team's limits.
        spec = DebateSpec(question=state.question, context=state.context,
                          personas=state.given_personas,
                          base=state.config.model_dump(mode="json"), seed=state.config.seed)
        try:
            debate = debate_start(team=team, user=None, spec=spec, start=False)
        except InputError as exc:  # bad input or a team limit: nothing was saved
            raise CommandError(str(exc), returncode=EXIT_BAD_INPUT) from None
        run_to_completion(debate.code, also=progress)
        debate.refresh_from_db()
        if debate.status != DebateStatus.SUCCEEDED:
            raise CommandError(f"debate failed: {debate.error}", returncode=EXIT_FAILED)
        progress.stream.write(f"saved as debate {debate.code} (team {team.name})\n")
        return get_protocol(debate.protocol).parse_result(debate.synthesis.result)

    def build_state(self, opts: dict[str, Any]) -> DebateState:
        for flag in ("question", "context", "team"):
            _utf8_arg("the question" if flag == "question" else f"--{flag}", opts[flag] or "")
        question = clean_question(opts["question"])
        model = check_model(opts["model"] or settings.COUNCIL_MODEL)
        phase_models = {}
        if opts["synthesis_model"]:
            synthesis_model = check_model(opts["synthesis_model"])
            phase_models = {"synthesis": synthesis_model, "verify": synthesis_model}
        fallback = opts["fallback_model"] or getattr(settings, "COUNCIL_FALLBACK_MODEL", None)
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
            config = DebateConfig(
                protocol=opts["protocol"], mode=Mode.DEEP if opts["deep"] else opts["mode"],
                agents=opts["agents"], max_rounds=opts["rounds"],
                threshold=opts["threshold"], options=options, model=model,
                phase_models=phase_models,
                fallback_model=check_model(fallback) if fallback else None,
                anonymize_peers=opts["anonymize"], seed=opts["seed"], simulator=simulator,
            )
        except ValidationError as exc:
            raise InputError(_first_error(exc)) from None
        return DebateState(question=question, context=opts["context"].strip(), config=config,
                           given_personas=personas)
