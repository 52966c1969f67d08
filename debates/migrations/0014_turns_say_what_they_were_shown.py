"""Turns stored before ``Turn.offered`` existed (migration 0011) hold no passages: the
evidence measure rebuilt each one's request whenever a result was built (a branch in
the engine). This writes them into the rows once, the same way (the request rebuilt
from the turns before it, at the turn's level of shortening), and the branch is gone.

Rebuilding a request is the engine's own work, so this runs the engine of today
through its public face on the debate's state as ``load_state_with_sources`` reads it
(the current models: the sources' hook queries them); a debate without sources was
shown none, and is left alone."""

from django.db import migrations

# The hint that carries a request's passages (the engine's ``PASSAGES_HINT``), and the
# phases that are shown none.
PASSAGES_HINT = "passages"
UNSOURCED = ("verify", "judge")


def offered_again(state):
    """{(phase, round, agent): passage ids} for each answered turn of ``state`` that
    says none, from its rebuilt request (what the engine's step runner showed it)."""
    from debates.engine import Step, TurnStatus, get_protocol

    protocol = get_protocol(state.config.protocol)
    found = {}
    for turn in list(state.turns.values()):
        if turn.offered or turn.status is not TurnStatus.OK or turn.phase.value in UNSOURCED:
            continue
        step = Step(turn.phase, turn.round)
        try:
            ask = next((a for a in protocol.asks(state, step) if a.agent == turn.agent), None)
            if ask is None:
                continue
            request = (protocol.shorter_request(state, step, ask, turn.compaction)
                       if turn.compaction else protocol.request(state, step, ask))
        except (AssertionError, LookupError, ValueError):
            continue  # a step the stored turns no longer describe: nothing to rebuild
        if request is not None:
            turn.offered = [str(p["id"]) for p in request.hints.get(PASSAGES_HINT) or []]
            if turn.offered:
                found[(turn.phase.value, turn.round, turn.agent)] = turn.offered
    return found


def turns_say_what_they_were_shown(apps, schema_editor):
    from debates.models import Debate, Turn
    from debates.runtime.state_rows import load_state_with_sources

    waiting = set(Turn.objects.filter(offered=[], status="ok").exclude(
        phase__in=UNSOURCED).values_list("debate_id", flat=True))
    for debate in Debate.objects.filter(pk__in=waiting).iterator():
        state = load_state_with_sources(debate)
        if not state.sources:
            continue
        for (phase, round_number, agent), offered in offered_again(state).items():
            Turn.objects.filter(debate=debate, phase=phase, round=round_number,
                                agent_index=agent).update(offered=offered)


class Migration(migrations.Migration):

    dependencies = [
        ("debates", "0013_results_say_their_quality"),
        # The sources' rows and their hook (debate_sources) must exist to be read.
        ("sources", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(turns_say_what_they_were_shown, migrations.RunPython.noop),
    ]
