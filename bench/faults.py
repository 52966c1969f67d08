"""How long debates on the scale-out configuration take to recover from a fault.

Two local worker hosts (``manage.py qcluster`` each, shipped settings) share a private
PostgreSQL cluster and a Redis (``bench.private_services``: the machine's shared servers
are never restarted). Simulated debates are queued, and once they are mid-flight the
fault strikes; a few more debates are queued right after it. Measured from the moment
the fault is over (the database answers again, Redis is back, the host is dead):

- *resumed*: until every debate that was active then has made progress again (a turn
  stored, a step completed, the debate ended), the slowest of them;
- *first turn*: the debates queued right after the fault, created → first turn, the
  slowest of them;
- *finished*: until the last debate ended.

``python -m bench --only faults`` (root or the postgres user, PostgreSQL's server
binaries and redis-server needed; about five minutes). A run where a debate does not
succeed or anything happens twice (``fleet.ledger_problems``) is a failed figure.
Imports no Django at module level, so the fault test runs it from its own process.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench.figures import Figure
from bench.fleet import Fleet, LocalHost, Settings, WorkerHost, wait_for
from bench.private_services import (
    PrivatePostgres,
    PrivateRedis,
    postgres_problem,
    redis_problem,
)

AREA = "faults"
HOSTS = 2
# Long enough per call that a quick debate (about seven calls in a row) is mid-flight
# for seconds when the fault strikes.
LATENCY_MS = 1500
PROGRESS_KINDS = ("turn", "step_completed", "debate_finished", "debate_failed")
Fault = Callable[[Fleet, list[WorkerHost]], None]
SHIPPED = Settings()


@dataclass
class Recovery:
    fault: str
    debates: int = 0
    succeeded: int = 0
    resumed_s: float | None = None
    first_turn_s: float | None = None
    finished_s: float | None = None
    problems: list[str] = field(default_factory=list)


def _active(fleet: Fleet) -> list[str]:
    return [str(code) for (code,) in fleet.query(
        "SELECT code FROM debates_debate WHERE status IN ('queued', 'running')")]


def _turns(fleet: Fleet) -> int:
    return int(fleet.query("SELECT count(*) FROM debates_turn")[0][0])


def _progress_after(fleet: Fleet, codes: list[str], since: datetime) -> dict[str, datetime]:
    """Each debate's first progress (a turn, a completed step, its end) after ``since``."""
    rows = fleet.query(
        "SELECT d.code::text, min(e.created_at) FROM debates_debate d"
        " JOIN debates_debateevent e ON e.debate_id = d.id"
        " WHERE d.code::text = ANY(%s) AND e.created_at > %s AND e.kind = ANY(%s)"
        " GROUP BY 1", (codes, since, list(PROGRESS_KINDS)))
    return dict(rows)


def _all_ended(fleet: Fleet) -> bool:
    return not _active(fleet)


def run_fault(name: str, fault: Fault, *, postgres_url: str, redis_url: str,
              log_dir: Path, settings: Settings = SHIPPED, debates: int = 6,
              after: int = 4, warm: int = 16, latency_ms: int = LATENCY_MS,
              model_faults: str = "", timeout: float = 180) -> Recovery:
    """Runs ``warm`` instant debates to their end (so the workers' database threads
    hold idle connections, as on a site that has been up a while), queues ``debates``,
    strikes ``fault`` mid-flight, queues ``after`` more and waits (up to ``timeout``
    from the fault's end) for every debate to end. The fault is given the fleet and
    its workers and returns once it is over."""
    recovery = Recovery(fault=name)
    with Fleet(None, postgres_url=postgres_url, redis_url=redis_url, log_dir=log_dir,
               settings=settings) as fleet:
        workers = [fleet.start_worker(LocalHost(i, f"local-{i}")) for i in range(HOSTS)]
        with fleet.seeder(warm, 0) as queue_warm, \
                fleet.seeder(debates, latency_ms, model_faults) as queue_first, \
                fleet.seeder(after, latency_ms, model_faults) as queue_after:
            fleet.wait_ready(workers)
            if warm:
                queue_warm()
                wait_for(lambda: _all_ended(fleet), timeout=120,
                         what="the warm-up debates to end", fleet=fleet)
            before = _turns(fleet)
            queue_first()
            # Mid-flight: every debate has begun (panel composed), none has ended.
            wait_for(lambda: _turns(fleet) >= before + debates
                     and len(fleet.lease_owners()) >= 2,
                     timeout=120, what="the debates to be mid-flight", fleet=fleet)
            fault(fleet, workers)
            over = datetime.now(UTC)
            over_clock = time.monotonic()
            active = _active(fleet)
            if after:
                queue_after()
        late = [code for code in _active(fleet) if code not in active]
        try:
            wait_for(lambda: _all_ended(fleet), timeout=timeout,
                     what="every debate to end after the fault", fleet=fleet)
            recovery.finished_s = time.monotonic() - over_clock
        except AssertionError as exc:
            recovery.problems.append(str(exc).splitlines()[0])
        progress = _progress_after(fleet, active, over)
        if active and len(progress) == len(active):
            recovery.resumed_s = max((t - over).total_seconds() for t in progress.values())
        recovery.first_turn_s = _slowest_first_turn(fleet, late)
        statuses = fleet.statuses()
        recovery.debates = sum(statuses.values())
        recovery.succeeded = statuses.get("succeeded", 0)
        recovery.problems += fleet.ledger_problems()
    return recovery


def _slowest_first_turn(fleet: Fleet, codes: list[str]) -> float | None:
    if not codes:
        return None
    rows = fleet.query(
        "SELECT d.code, extract(epoch FROM min(t.created_at) - d.created_at)"
        " FROM debates_debate d LEFT JOIN debates_turn t ON t.debate_id = d.id"
        " WHERE d.code::text = ANY(%s) GROUP BY d.code, d.created_at", (codes,))
    if any(seconds is None for _, seconds in rows):
        return None
    return max(float(seconds) for _, seconds in rows)


def restart_postgres(pg: PrivatePostgres) -> Fault:
    def fault(fleet: Fleet, workers: list[WorkerHost]) -> None:
        pg.restart()
    return fault


def restart_redis(rd: PrivateRedis) -> Fault:
    def fault(fleet: Fleet, workers: list[WorkerHost]) -> None:
        rd.restart()
    return fault


def kill_busiest_host(fleet: Fleet, workers: list[WorkerHost]) -> None:
    """SIGKILL to the process group of the host holding the most leases."""
    owners = fleet.lease_owners()
    busiest = max(workers, key=lambda w: sum(w.holds(o) for o in owners))
    busiest.kill()


def no_fault(fleet: Fleet, workers: list[WorkerHost]) -> None:
    """The baseline, and the failing model server (the faults are in its calls)."""


# A third of the calls fail: timeouts, 429s, 500s, malformed JSON (docs/simulator.md).
MODEL_SERVER_FAULTS = "timeout=0.09,rate_limit=0.08,server_error=0.08,malformed_json=0.08"


def measure() -> list[Figure]:
    problem = postgres_problem() or redis_problem()
    if problem:
        return [Figure(area=AREA, name="recovery after a fault", value=float("nan"),
                       unit="s", ok=False, target="measured",
                       detail=f"not measured: {problem}")]
    figures = []
    for recovery in measure_all():
        detail = (f"{recovery.succeeded}/{recovery.debates} succeeded; resumed "
                  f"{_s(recovery.resumed_s)}, first turn of a debate queued after "
                  f"{_s(recovery.first_turn_s)}; {'; '.join(recovery.problems[:3])}")
        figures.append(Figure(
            area=AREA, name=f"{recovery.fault}: fault over → every debate ended",
            value=recovery.finished_s if recovery.finished_s is not None else float("nan"),
            unit="s", ok=_ok(recovery), target="every debate ends", detail=detail))
    return figures


def _ok(recovery: Recovery) -> bool:
    """Nothing twice and nothing left running; with a failing model a debate may fail,
    saying why (``ended failed: …``)."""
    allowed = ("ended failed:", "0 syntheses, 0 debate_finished")
    failing_model = recovery.fault.startswith("model")
    return recovery.finished_s is not None and all(
        failing_model and any(a in problem for a in allowed) for problem in recovery.problems)


def _s(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f} s"


def measure_all() -> list[Recovery]:
    with tempfile.TemporaryDirectory(prefix="council-faults-") as tmp, \
            PrivatePostgres() as pg, PrivateRedis() as rd:
        log_dir = Path(tmp)
        base = pg.url()
        runs = [
            ("no fault (baseline)", no_fault, rd.url, ""),
            ("PostgreSQL restart", restart_postgres(pg), rd.url, ""),
            ("Redis restart", restart_redis(rd), rd.url, ""),
            ("worker host SIGKILL", kill_busiest_host, rd.url, ""),
            ("model server failing a third of its calls", no_fault, rd.url,
             MODEL_SERVER_FAULTS),
        ]
        results = []
        for name, fault, redis_url, model_faults in runs:
            results.append(run_fault(name, fault, postgres_url=base, redis_url=redis_url,
                                     log_dir=log_dir, model_faults=model_faults,
                                     debates=int(os.environ.get("COUNCIL_FAULT_DEBATES", 6))))
        return results


if __name__ == "__main__":
    for result in measure_all():
        print(result)
