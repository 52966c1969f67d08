"""Point 7: the bench's figure (bench/sources.py) holds: a 5-agent, 4-round debate with a
~15k-token source costs at most twice the same debate without it, a repeated prefix of
1,024 tokens or more billed at a tenth."""

from __future__ import annotations

from bench.sources import TARGET, effective_tokens, measure_pair


def test_a_cached_prefix_is_billed_at_a_tenth_only_from_1024_tokens():
    short = {"messages": [{"role": "system", "content": "same words " * 10}]}
    assert effective_tokens([short, short])[1] == 2 * effective_tokens([short])[1]
    long = {"messages": [{"role": "system", "content": "same words " * 2000}]}
    total, effective, hits = effective_tokens([long, long])
    assert hits == 1 and effective < 0.6 * total


def test_the_source_costs_at_most_twice_the_debate_without_it():
    pair = measure_pair()
    assert 13_000 <= pair["source_tokens"] <= 17_000
    without, with_source = pair["without"][1], pair["with"][1]
    assert with_source <= TARGET * without, (with_source, without)
    assert pair["with"][2] >= 25  # nearly every call finds its prefix cached
