"""``manage.py debate "QUESTION"``: run a debate in this process.

The options, the run and the output are the engine's command line (debates/engine/cli.py,
also the ``council`` console script, which starts without Django); this command adds
``--save``, which stores the debate as a team's record.
Exit codes: 0 finished (possibly degraded; the report says so), 1 the debate
failed (below quorum, synthesis failed after fallback), 2 bad input, 130
interrupted.
"""

from __future__ import annotations

from argparse import ArgumentParser, RawDescriptionHelpFormatter
from typing import Any, TextIO, cast

from django.conf import settings
from django.core.management.base import (
    BaseCommand,
    CommandError,
    CommandParser,
    DjangoHelpFormatter,
)
from pydantic import BaseModel

from debates.engine import (
    CLI_DESCRIPTION,
    CLI_EPILOG,
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    CliError,
    ConsoleProgress,
    DebateState,
    InputError,
    add_cli_arguments,
    build_cli_state,
    get_protocol,
    report_quality,
    run_here,
    start_progress,
    write_result,
)

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_INTERRUPTED", "Command"]


class _HelpFormatter(DjangoHelpFormatter, RawDescriptionHelpFormatter):
    """Django's option order, with the epilog's layout kept."""


class Command(BaseCommand):
    # The system checks import every URL, view and API module (about half a second)
    # to vet a site this command does not serve; migrate and serve still run them.
    requires_system_checks: list[str] = []
    help = CLI_DESCRIPTION

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        kwargs.setdefault("epilog", CLI_EPILOG)
        kwargs.setdefault("formatter_class", _HelpFormatter)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser: ArgumentParser) -> None:
        add_cli_arguments(parser)

    def handle(self, *args: Any, **opts: Any) -> None:
        # The raw streams: OutputWrapper would add a newline to the live status line.
        # It keeps that stream as ``_out``, which django-stubs does not declare.
        stdout, stderr = cast(TextIO, self.stdout._out), cast(TextIO, self.stderr._out)
        try:
            state = build_cli_state(opts, default_model=settings.COUNCIL_MODEL,
                                    default_fallback=settings.COUNCIL_FALLBACK_MODEL)
            progress = start_progress(state, stderr)
            if opts["save"]:
                try:
                    result = self.run_saved(state, progress, opts["team"])
                except KeyboardInterrupt:
                    raise CommandError("interrupted", returncode=EXIT_INTERRUPTED) from None
            else:
                result = run_here(state, progress)
        except CliError as exc:
            raise CommandError(str(exc), returncode=exc.exit_code) from None
        write_result(result, state, opts, stdout)
        code = report_quality(result, opts, stderr)
        if code:
            raise CommandError("the result's quality is at or below --fail-on-quality "
                               f"{opts['fail_on_quality']}", returncode=code)

    def run_saved(self, state: DebateState, progress: ConsoleProgress, team_name: str
                  ) -> BaseModel:
        from accounts.models import Team
        from debates.models import DebateStatus
        from debates.runtime.execution import run_to_completion
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
