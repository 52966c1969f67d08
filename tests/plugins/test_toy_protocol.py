"""A fourth protocol installed from outside the tree (tests/plugins/toy_protocol/: a
package and its ``*.dist-info`` naming it under the ``council.engine`` entry point),
importing nothing but the engine's face. On PYTHONPATH it registers a protocol with a
phase of its own (``oracle_says``, worded in its own catalogue), a prompt file of its
own, the simulator's answers to its schema, a content rule of its own, the parts of its
result, its estimate, a page part in its own template folder and a page filter
(``toy_shout``); the command line runs it, and so does a served site, whose debate page
shows the part. Every run is a subprocess: the plugin never loads into this test
process. Its catalogues are compiled here, as ``make install`` compiles the
engine's."""

from __future__ import annotations

import http.cookiejar
import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from debates.engine.i18n.compile import compile_all
from tests.served_site import ROOT, Site, served_site
from tests.waiting import wait_until

PLUGIN = Path(__file__).resolve().parent / "toy_protocol"
PACKAGE = PLUGIN / "council_toy"
QUESTION = "Should we ship the toy?"
ANSWER = f"the oracle says yes to {QUESTION}"
SHOUTED = ANSWER.upper()


@pytest.fixture(autouse=True, scope="module")
def compiled_catalogues() -> None:
    compile_all([PLUGIN])


def plugin_env() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(PLUGIN), os.environ.get("PYTHONPATH", "")]))
    return {**os.environ, "PYTHONPATH": path, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def engines(*runs: list[str]) -> list[subprocess.CompletedProcess[str]]:
    """``python -m debates.engine`` once per argument list, all at once: each spends
    seconds importing before it runs, and those imports need not queue behind each
    other."""
    procs = [subprocess.Popen([sys.executable, "-m", "debates.engine", *args], cwd=ROOT,
                              env=plugin_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for args in runs]
    done = []
    for args, proc in zip(runs, procs, strict=True):
        out, err = proc.communicate(timeout=300)
        done.append(subprocess.CompletedProcess(args, proc.returncode, out, err))
    return done


@pytest.fixture(scope="module")
def toy_facts() -> dict[str, Any]:
    """tests/plugins/toy_facts.py's findings, from one process for the module's tests
    (each interpreter start costs seconds on a loaded machine)."""
    run = subprocess.run([sys.executable, "-m", "tests.plugins.toy_facts", QUESTION],
                         cwd=ROOT, env=plugin_env(), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_plugin_is_found_by_its_entry_point(toy_facts):
    assert (toy_facts["known"], toy_facts["installed"]) == \
        (["council", "adversarial", "workflow", "toy"], ["council_toy"])


def test_the_plugin_imports_nothing_but_the_engines_face():
    imported = set()
    for module in PACKAGE.glob("*.py"):
        for line in module.read_text().splitlines():
            if line.startswith(("from debates", "import debates")):
                imported.add(line.split()[1])
    assert imported == {"debates.engine"}


def test_the_plugin_does_what_a_built_in_does(toy_facts):
    facts = toy_facts
    assert facts["phase"] == "oracle_says"  # read before any registry was asked
    # (a) its phase, worded by its own catalogue in each language
    assert facts["labels"] == {"en": "the oracle speaks", "fr": "l’oracle parle"}
    # (b) its own prompt file, in its request
    assert facts["prompt_file"] == str(PACKAGE / "prompts" / "oracle.md")
    assert facts["request"][1] == {
        "role": "user", "content": f"The oracle is asked: {QUESTION}\n"
                                   "Answer in one line, as an oracle would."}
    # (c) its own content rule fires on its result
    assert facts["quality"] == "doubtful"
    assert facts["reasons"] == [["toy.unhedged", "doubtful", "the oracle's answer"]]
    # (d) the parts of its result that comments can point at
    assert facts["parts"] == [["answer", "oracle", ANSWER]]
    # (e) its estimate plans exactly the calls its simulated run makes
    assert facts["planned"] == facts["made"] == [["oracle_says", 0]]


def test_the_command_line_runs_the_toy_protocol():
    run, markdown = engines(["--protocol", "toy", "--format", "json", QUESTION],
                            ["--protocol", "toy", QUESTION])
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["protocol"] == "toy"
    assert result["answer"] == ANSWER
    assert result["summary"]["stop_reason"] == "converged"
    assert "oracle_says" in run.stderr  # its own phase, on the progress line
    assert markdown.stdout.startswith("# Toy oracle")


def test_without_the_plugin_the_toy_protocol_is_unknown():
    run = subprocess.run([sys.executable, "-m", "debates.engine", "--protocol", "toy",
                          QUESTION], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"})
    assert run.returncode != 0 and "toy" in run.stderr


def _api(site: Site, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        f"{site.url}{path}", data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def _signed_in(site: Site, username: str, password: str) -> urllib.request.OpenerDirector:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{site.url}/accounts/login/", timeout=60).read()
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    form = urllib.parse.urlencode({"username": username, "password": password,
                                   "csrfmiddlewaretoken": csrf}).encode()
    opener.open(f"{site.url}/accounts/login/", data=form, timeout=60).read()
    assert any(c.name == "sessionid" for c in jar), "the sign-in did not take"
    return opener


# The user, their team and an API token (its key on stdout's last line); the token
# command itself is tested in tests/api/test_tokens.py.
SETUP = """
from django.contrib.auth import get_user_model
from accounts.services import api_token_create, team_create
user = get_user_model().objects.create_user("toy", "toy@example.com", "toy-password-42")
team_create(name="Toys", owner=user)
print(api_token_create(user=user, name="toy test")[1])
"""


def test_a_served_site_runs_a_toy_debate_and_shows_its_page_part(tmp_path):
    with served_site(tmp_path, setup=SETUP, PYTHONPATH=plugin_env()["PYTHONPATH"],
                     COUNCIL_MODEL="sim/default") as site:
        token = site.setup_output.strip().splitlines()[-1]
        started = _api(site, token, "/api/debates/", {"question": QUESTION, "protocol": "toy"})
        code = started["code"]
        wait_until(lambda: _api(site, token, f"/api/debates/{code}")["status"]
                   in ("succeeded", "failed"), what="the worker to run the toy debate",
                   interval=0.5)
        debate = _api(site, token, f"/api/debates/{code}")
        assert (debate["status"], debate["protocol"]) == ("succeeded", "toy"), debate
        browser = _signed_in(site, "toy", "toy-password-42")
        page = browser.open(f"{site.url}/debates/{code}/", timeout=60).read().decode()
        assert 'id="toy-oracle"' in page and SHOUTED in page  # its part, its filter
        assert "the oracle speaks" in page  # its phase, in the stepper, in its own words
        synthesis = browser.open(f"{site.url}/debates/{code}/synthesis",
                                 timeout=60).read().decode()
        assert 'id="toy-result"' in synthesis and SHOUTED in synthesis
