"""The fuzzer's configuration (tests/fuzz_api.py) gives every path's ``{code}`` a real
object: a new kind of path would otherwise be fuzzed with random codes, all 404s."""

from __future__ import annotations

import re
import tomllib

from council_site.api import api
from tests.fuzz_api import config_text

MADE = {"team": "t", "library": "l", "persona": "p", "debate": "d", "comment": "c",
        "evaluation": "e", "source": "s", "webhook": "w"}


def test_every_path_with_a_code_gets_exactly_one_object():
    operations = tomllib.loads(config_text(MADE))["operations"]
    for path in api.get_openapi_schema()["paths"]:
        if "{code}" not in path:
            continue
        matching = [op for op in operations if re.search(op["include-path-regex"], path)]
        assert len(matching) == 1, path
        assert matching[0]["parameters"]["path.code"] in MADE.values()


def test_the_fuzzers_request_timeout_outlasts_the_longest_legal_wait():
    from debates.api.events import MAX_WAIT_SECONDS
    from tests.fuzz_api import LONGEST_WAIT_S, REQUEST_TIMEOUT_S

    assert LONGEST_WAIT_S >= MAX_WAIT_SECONDS
    assert REQUEST_TIMEOUT_S >= 2 * MAX_WAIT_SECONDS
