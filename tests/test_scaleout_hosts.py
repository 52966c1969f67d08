"""Scale-out for real: three worker hosts, each in its own network namespace with its
own address, share one PostgreSQL and one Redis; one host's link is cut mid-run.

The hosts are ``ip netns`` namespaces joined by veth pairs (``bench.netns``);
a forwarder relays each link to the loopback services. Cutting the link drops the
host's packets without resetting anything, as a pulled cable would: its leases run
out, the other hosts' sweepers take its debates over, and the steps it had taken from
the queue but not begun are queued again after the (shortened) grace. The link then
comes back, so the cut-off workers resume with stale leases and write what they were
writing, before the check: a stale worker must not make anything happen twice.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.fleet import Fleet, Settings, services, wait_for
from bench.netns import HostNetwork, netns_problem
from tests.conftest import POSTGRES_URL, REDIS_URL, ScaleOut, _skip_or_fail
from tests.waiting import PATIENCE_S

pytestmark = pytest.mark.scaleout

DEBATES = 30
# A quick simulated debate: compose 1, premortem 3, positions 3, up to 2 rounds of 3,
# synthesis 1, verify 1 (12 when it converges after one round).
TURNS_PER_DEBATE = 15
# Short lease and sweep so the cut host's debates move on within seconds; the grace
# stays above the longest normal wait in the queue (30 debates on 6 workers); the
# server ends a cut-off session's open transaction (and frees its locks) after 3 s.
FAST_RECOVERY = Settings(workers=2, lease_s=3, sweep_s=1, queue_grace_s=8,
                         idle_transaction_s=3)


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
        workers = [fleet.start_worker(host) for host in network.hosts]
        with fleet.seeder(DEBATES, latency_ms=100) as queue_debates:
            fleet.wait_ready(workers)
            queue_debates()
        doomed = workers[2]
        seen_working: set[int] = set()

        def doomed_owners() -> list[str]:
            owners = fleet.lease_owners()
            seen_working.update(w.host.index for w in workers for o in owners if w.holds(o))
            return [o for o in owners if doomed.holds(o)]

        def turns() -> int:
            return fleet.query("SELECT count(*) FROM debates_turn")[0][0]

        # Mid-run: a fifth of the turns stored, and the host holding a step.
        wait_for(lambda: turns() >= DEBATES * TURNS_PER_DEBATE // 5 and doomed_owners(),
                 timeout=PATIENCE_S, what="the third host to hold a step mid-run", fleet=fleet)
        network.cut(doomed.host)
        cut_at = time.monotonic()
        held_owners = doomed_owners()
        held_at_cut = {code for (code,) in fleet.query(
            "SELECT code FROM debates_debate WHERE lease_owner = ANY(%s)", (held_owners,))}
        assert held_at_cut, "the cut host held no step"

        def resumed() -> set[object]:
            return {code for (code,) in fleet.query(
                "SELECT DISTINCT d.code FROM debates_debate d JOIN debates_debateevent e"
                " ON e.debate_id = d.id WHERE e.kind = 'resumed'")}

        # Its steps are taken over while it is away; then its link comes back.
        wait_for(lambda: held_at_cut <= resumed(), timeout=PATIENCE_S,
                 what="the cut host's steps to be taken over", fleet=fleet)
        network.heal(doomed.host)

        def all_ended() -> bool:
            doomed_owners()
            return not (fleet.statuses().keys() & {"queued", "running"})

        wait_for(all_ended, timeout=PATIENCE_S, what="every debate to end", fleet=fleet)
        ended_s = time.monotonic() - cut_at
        # Whatever the stale workers still had to write is written (or they are
        # killed) before the ledger is read.
        doomed.stop()
        superseded = fleet.query(
            "SELECT count(*) FROM debates_llmcall WHERE purpose = 'superseded'")[0][0]
        print(f"\ncut -> all {DEBATES} ended in {ended_s:.1f} s; the cut host held "
              f"{len(held_at_cut)} step(s); {superseded} late answer(s) kept as superseded")
        failures = fleet.query("SELECT code, error FROM debates_debate WHERE status <> %s",
                               ("succeeded",))
        assert fleet.statuses() == {"succeeded": DEBATES}, failures
        assert fleet.ledger_problems() == []
        # The check bites: a second finish written for one debate is reported.
        fleet.query("INSERT INTO debates_debateevent (debate_id, seq, kind, payload, created_at)"
                    " SELECT debate_id, max(seq) + 1, 'debate_finished', '{}', now()"
                    " FROM debates_debateevent GROUP BY debate_id LIMIT 1 RETURNING id")
        assert [p for p in fleet.ledger_problems() if "2 debate_finished" in p]
    assert seen_working == {0, 1, 2}, "every host ran steps"
