"""The schema a server is sent, kept within what a grammar-constrained server accepts.

llama.cpp (``llama-server``, llama-cpp-python) turns a ``response_format`` schema or
tool parameters into a grammar, and each ``maxLength``/``maxItems`` into a repetition
``x{min,max}`` that its parser unrolls into ``max - min`` nested optional rules. The
parser refuses a grammar where the rules repeated times the repetition count reach
2000 (``MAX_REPETITION_THRESHOLD`` in llama.cpp's ``src/llama-grammar.cpp``): a
persona field of at most 2000 characters (``char{1,2000}``) alone is refused, and
llama-cpp-python's server died on it. So no count in a sent schema exceeds
``GRAMMAR_MAX_REPEAT``; the answer is still validated against the real limits (and
repaired if it breaks them), which only matters for the rare answer longer than the
bound, since ``max_tokens`` ends a reply long before that.
"""

from __future__ import annotations

from typing import Any

# Half llama.cpp's threshold: a repeated group counts every rule made inside it, so
# a converter that wraps a repetition in a group needs room to spare.
GRAMMAR_MAX_REPEAT = 1000
_COUNTS = ("maxLength", "minLength", "maxItems", "minItems")


def grammar_safe(schema: Any) -> Any:
    """``schema`` with every length and item count at most ``GRAMMAR_MAX_REPEAT``;
    everything else unchanged (a copy: the input is not modified)."""
    if isinstance(schema, list):
        return [grammar_safe(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: grammar_safe(value) for key, value in schema.items()}
    for key in _COUNTS:
        value = out.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = min(value, GRAMMAR_MAX_REPEAT)
    return out
