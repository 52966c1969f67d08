"""``python -m bench.seed COUNT LATENCY_MS [FAULTS]``: queues COUNT quick simulated
debates in the database and broker the environment configures; FAULTS are the
simulator's fault rates (``timeout=0.1,rate_limit=0.1``, docs/simulator.md).

Prints "ready" once Django is set up, then waits for a line on stdin before creating
anything, so its start-up overlaps the workers' and the measured run starts when the
caller says so.
"""

from __future__ import annotations

import os
import sys

QUESTION = "Should we split our Django monolith into microservices?"


def main(count: int, latency_ms: int, faults: str = "") -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "council_site.settings")
    import django

    django.setup()
    from accounts.models import Team
    from debates.engine import DebateConfig, Mode, SimulatorOptions, parse_faults
    from debates.services import debate_create

    print("ready", flush=True)
    sys.stdin.readline()
    team = Team.objects.create(name="worker hosts")
    for i in range(count):
        config = DebateConfig(mode=Mode.QUICK, seed=i, retry_backoff_s=0.01,
                              simulator=SimulatorOptions(latency_ms=latency_ms, seed=i,
                                                         faults=parse_faults(faults)))
        debate_create(team=team, user=None, question=f"{QUESTION} (variant {i})",
                      config=config)
    print("queued", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:4])
