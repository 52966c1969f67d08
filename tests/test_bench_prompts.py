"""The prompts bench's two cache figures on recorded request bodies: the share a
provider's cache serves (a prefix of at least 1,024 tokens shared with any earlier
request) and the share a local slot cache reuses (the prefix shared with the previous
request, any length; docs/performance.md, "Prompt layout for a prefix cache")."""

from __future__ import annotations

from bench.prompts import CACHED_FROM, message_tokens, prompt_text, sizes_of
from debates.engine import imported_litellm


def body(system: str, user: str) -> dict:
    return {"model": "stub-model", "messages": [{"role": "system", "content": system},
                                                {"role": "user", "content": user}]}


def tokens(text: str) -> int:
    return int(imported_litellm().token_counter(model="", text=text))


def test_a_short_shared_prefix_counts_for_the_slot_cache_and_not_for_a_provider_s():
    shared = "The round's positions. " * 20  # far under 1,024 tokens
    bodies = [body("Rules.", shared + f"You are agent {n}.") for n in range(3)]
    sizes = sizes_of(bodies)
    assert sizes.cacheable == 0 and sizes.cached_calls == 0
    common = prompt_text(bodies[0])[:prompt_text(bodies[0]).index("You are agent")]
    # The 2nd and 3rd requests reuse the previous one's prefix, the 1st nothing.
    assert sizes.slot_reusable >= 2 * tokens(common)
    assert sizes.message_tokens == sum(message_tokens(b) for b in bodies)
    assert 0 < sizes.slot_share < 1


def test_the_slot_share_compares_with_the_previous_request_only():
    first, other = body("Rules.", "alpha " * 200), body("Other rules.", "beta " * 200)
    again = body("Rules.", "alpha " * 200 + "and more")
    alternated = sizes_of([first, other, again])
    in_a_row = sizes_of([first, again, other])
    assert in_a_row.slot_reusable > alternated.slot_reusable


def test_a_prefix_of_1024_tokens_is_what_a_provider_caches():
    long_shared = "word " * (CACHED_FROM + 50)
    bodies = [body("Rules.", long_shared + "one"), body("Rules.", long_shared + "two")]
    sizes = sizes_of(bodies)
    assert sizes.cached_calls == 1 and sizes.cacheable >= CACHED_FROM
