"""Scale-out for real: three worker hosts, each in its own network namespace with its
own address, share one PostgreSQL and one Redis; one host's link is cut mid-run.

The hosts are ``ip netns`` namespaces joined by veth pairs (``debates.bench.netns``);
a forwarder relays each link to the loopback services. Cutting the link drops the
host's packets without resetting anything, as a pulled cable would: its leases run
out, the other hosts' sweepers take its debates over, and the steps it had taken from
the queue but not begun are queued again after the (shortened) grace.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from debates.bench.fleet import Fleet, Settings, services, wait_for
from debates.bench.netns import HostNetwork, netns_problem
from tests.conftest import POSTGRES_URL, REDIS_URL, ScaleOut, _skip_or_fail

pytestmark = pytest.mark.scaleout

DEBATES = 30
# Short lease and sweep so the cut host's debates move on within seconds; the grace
# stays above the longest normal wait in the queue (30 debates on 6 workers).
FAST_RECOVERY = Settings(workers=2, lease_s=3, sweep_s=1, queue_grace_s=8)


@pytest.fixture
def network(tmp_path: Path) -> Iterator[HostNetwork]:
    problem = netns_problem()
    if problem:
        _skip_or_fail(problem)
    with HostNetwork(3, services=services(POSTGRES_URL, REDIS_URL), log_dir=tmp_path) as net:
        yield net


def test_thirty_debates_on_three_hosts_complete_once_when_one_host_is_cut_off(
        network: HostNetwork, scaleout: ScaleOut, tmp_path: Path) -> None:
    with Fleet(network, postgres_url=scaleout.postgres_url, redis_url=scaleout.redis_url,
               log_dir=tmp_path, settings=FAST_RECOVERY) as fleet:
        t0 = time.monotonic()
        workers = [fleet.start_worker(host) for host in network.hosts]
        with fleet.seeder(DEBATES, latency_ms=100) as queue_debates:
            fleet.wait_ready(workers)
            print(f"\nready in {time.monotonic() - t0:.1f} s")
            queue_debates()
            print(f"queued at {time.monotonic() - t0:.1f} s")
        doomed = workers[2]
        seen_working: set[int] = set()

        def doomed_holds_a_step_mid_run() -> list[str]:
            owners = fleet.lease_owners()
            seen_working.update(w.host.index for w in workers for o in owners if w.holds(o))
            held = [o for o in owners if doomed.holds(o)]
            return held if fleet.statuses()["succeeded"] >= 3 else []

        wait_for(doomed_holds_a_step_mid_run, timeout=60,
                 what="the third host to hold a step mid-run", fleet=fleet)
        network.cut(doomed.host)
        print(f"cut at {time.monotonic() - t0:.1f} s {fleet.statuses()}")
        cut_at = time.monotonic()
        held_at_cut = {code for (code,) in fleet.query(
            "SELECT code FROM debates_debate WHERE lease_owner = ANY(%s)",
            ([o for o in fleet.lease_owners() if doomed.holds(o)],))}

        def all_ended() -> bool:
            owners = fleet.lease_owners()
            seen_working.update(w.host.index for w in workers for o in owners if w.holds(o))
            return not (fleet.statuses().keys() & {"queued", "running"})

        wait_for(all_ended, timeout=90, what="every debate to end", fleet=fleet)
        print(f"\ncut -> all {DEBATES} ended in {time.monotonic() - cut_at:.1f} s; "
              f"the cut host held {len(held_at_cut)} step(s)")
        problems = fleet.ledger_problems()
        resumed = {code for (code,) in fleet.query(
            "SELECT DISTINCT d.code FROM debates_debate d JOIN debates_debateevent e"
            " ON e.debate_id = d.id WHERE e.kind = 'resumed'")}
        assert fleet.statuses() == {"succeeded": DEBATES}
    assert problems == []
    assert seen_working == {0, 1, 2}, "every host ran steps before the cut"
    # The steps the cut host held were taken over, not merely finished by it.
    assert held_at_cut and held_at_cut <= resumed
