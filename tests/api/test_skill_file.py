"""skills/council/SKILL.md is an installable agent skill (agentskills.io format)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.waiting import PATIENCE_S

SKILL = Path(__file__).resolve().parents[2] / "skills" / "council" / "SKILL.md"


def test_frontmatter_names_the_skill_and_says_when_to_use_it():
    text = SKILL.read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, "SKILL.md must start with YAML frontmatter"
    meta = yaml.safe_load(match.group(1))
    # The spec: name is lowercase letters, digits and hyphens, equal to the folder name;
    # the description (at most 1024 characters) says what it does and when to use it.
    assert meta["name"] == SKILL.parent.name and re.fullmatch(r"[a-z0-9-]{1,64}", meta["name"])
    assert 0 < len(meta["description"]) <= 1024 and "Use when" in meta["description"]
    body = text[match.end():]
    for must in ("stop_reason", "degraded", "unverified_claims", "/api/debates/",
                 "manage.py debate"):
        assert must in body, must


def recipe() -> str:
    """The HTTP recipe exactly as SKILL.md gives it (the fenced block after its marker)."""
    text = SKILL.read_text(encoding="utf-8")
    match = re.search(r"<!-- council-recipe -->\n```sh\n(.*?)```\n", text, re.S)
    assert match, "SKILL.md must mark its HTTP recipe with <!-- council-recipe -->"
    return match.group(1)


def require_tools() -> None:
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    if not missing:
        return
    reason = f"{', '.join(missing)} missing (apt-get install {' '.join(missing)})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true: the recipe test must run", pytrace=False)
    pytest.skip(reason)


@pytest.mark.django_db(transaction=True)
def test_the_recipe_run_verbatim_against_a_served_site_prints_the_result(owner, team,
                                                                         tmp_path):
    from accounts.services import api_token_create
    from debates.models import Debate
    from tests.web.browser_support import served_site, site_env

    require_tools()
    _, secret = api_token_create(user=owner, name="skill")
    script = tmp_path / "council.sh"
    script.write_text(recipe(), encoding="utf-8")
    # Slow enough that the debate is still running at the first wait: the loop must go on.
    env = site_env(COUNCIL_SIM_LATENCY_MS="50", COUNCIL_MODEL="sim/default")
    with served_site(tmp_path, env) as base:
        run_env = {**env, "COUNCIL_URL": base, "COUNCIL_API_TOKEN": secret}

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(["bash", str(script), *args], env=run_env, text=True,
                                  capture_output=True, timeout=PATIENCE_S * 4)

        done = run("Should we adopt a four-day week?", "A team of 12.", "quick")
        refused = run("x" * 20_001)
        adversarial = run("Should we split the billing service?", "", "quick", "adversarial")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    debate = Debate.objects.get(protocol="council")
    assert result["stop_reason"] == debate.stop_reason and debate.status == "succeeded"
    assert result["question"] == "Should we adopt a four-day week?"
    # Progress went to stderr, every event in order up to the last.
    seqs = [int(line.split()[0]) for line in done.stderr.splitlines()
            if line.split()[:1] and line.split()[0].isdigit()]
    assert seqs == list(range(1, debate.last_event_seq + 1))
    assert refused.returncode == 1 and "20,000" in refused.stderr, refused.stderr
    # The fourth argument is the protocol, as the recipe's usage line says.
    assert adversarial.returncode == 0, adversarial.stderr
    assert json.loads(adversarial.stdout)["summary"]["protocol"] == "adversarial"
    assert list(Debate.objects.values_list("protocol", flat=True).order_by("created_at")
                ) == ["council", "adversarial"]


@pytest.mark.parametrize("unset", ["COUNCIL_URL", "COUNCIL_API_TOKEN"])
def test_the_recipe_without_its_site_or_token_says_which_is_missing(tmp_path, unset):
    require_tools()
    script = tmp_path / "council.sh"
    script.write_text(recipe(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    env |= {"COUNCIL_URL": "http://127.0.0.1:9", "COUNCIL_API_TOKEN": "secret"}
    del env[unset]
    ran = subprocess.run(["bash", str(script), "Should we?"], env=env, text=True,
                         capture_output=True, timeout=PATIENCE_S)
    assert ran.returncode != 0 and f"set {unset}" in ran.stderr, ran.stderr
    assert "refused: \n" not in ran.stderr


def test_both_ways_in_name_the_protocols():
    from debates.engine.protocols import known_protocols as protocol_names

    text = SKILL.read_text(encoding="utf-8")
    mcp = text[text.index("**MCP tools**"):text.index("**HTTP API**")]
    assert "protocol " + "|".join(protocol_names()) in " ".join(mcp.split())
    assert "protocol: $p" in recipe() and "[PROTOCOL]" in recipe()
    for name in protocol_names():
        assert name in recipe(), name


def test_reading_the_result_names_only_fields_the_results_have():
    from debates.engine.protocols import get_protocol
    from debates.engine.schemas import ResultSummary

    text = SKILL.read_text(encoding="utf-8")
    reading = text[text.index("## Reading the result"):text.index("## Errors")]
    assert "confidence" not in reading  # no result has one
    summary_fields = set(re.findall(r"`summary\.(\w+)", reading))
    assert summary_fields and summary_fields <= set(ResultSummary.model_fields)
    assert "`null` under genuine" in " ".join(reading.split())
    # Each protocol's bullet names top-level fields of that protocol's result.
    for name in ("council", "adversarial", "workflow"):
        bullet = re.search(rf"- `{name}`[^\n]*\n((?:     [^\n]*\n)*)", reading)
        assert bullet, name
        model = get_protocol(name).result_model
        first = re.findall(r"[:,] `(\w+)` \(|^\s*- `\w+`[^`]*`(\w+)`", bullet.group(0), re.M)
        named = {a or b for a, b in first}
        assert named and named <= set(model.model_fields), (name, named)


def test_quality_is_read_before_anything_else():
    from debates.engine.schemas import Quality, ResultSummary

    text = SKILL.read_text(encoding="utf-8")
    start = text.index("## Before anything else: `summary.quality`")
    assert start < text.index("## Reading the result")
    section = text[start:text.index("## Reading the result")]
    assert "Read it before any other field" in section
    for value in Quality:
        assert f"- `{value}`" in section, value
    assert set(re.findall(r"`summary\.(\w+)", section)) == {"quality", "quality_reasons",
                                                             "decision"}
    assert {"quality", "quality_reasons"} <= set(ResultSummary.model_fields)
    assert "confirm_quality: true" in section and "quality_not_confirmed" in section


def registered_tools() -> dict[str, set[str]]:
    """Every tool the MCP server registers, with its inputs (the token is only checked
    when a tool is called, so any secret builds the server)."""
    import asyncio

    from integrations.mcp_server import build_server

    tools = asyncio.run(build_server("unchecked").list_tools())
    return {t.name: set(t.input_schema.get("properties", {})) for t in tools}


def test_every_mcp_tool_is_listed_with_its_inputs():
    text = SKILL.read_text(encoding="utf-8")
    mcp = text[text.index("**MCP tools**"):text.index("**MCP-only options**")]
    tools = registered_tools()
    listed = re.findall(r"`(\w+)\(", mcp)
    assert sorted(listed) == sorted(tools)  # each once, and none the server lacks
    for name, inputs in tools.items():
        # Its entry: from its name to the next bullet (one bullet may list a few tools).
        entry = " ".join(mcp[mcp.index(f"`{name}("):].split("\n- ")[0].split())
        if "the filters of list_debates" in entry:
            inputs -= tools["list_debates"]
        missing = {field for field in inputs if not re.search(rf"\b{field}\b", entry)}
        assert not missing, (name, missing)


def test_the_mcp_only_options_are_named_and_the_skill_says_how_to_start_a_team():
    text = SKILL.read_text(encoding="utf-8")
    only = text[text.index("**MCP-only options**"):text.index("**HTTP API**")]
    assert "`no_review: true`" in only and '"review_on": null' in only
    after = text[text.index("**HTTP API**"):]  # where HTTP is taught: no_review is MCP's
    assert all(after[:m.start()].rstrip().endswith("MCP")
               for m in re.finditer("`no_review", after))
    team = text[text.index("## First: a team"):text.index("## Three ways in")]
    assert "POST /api/teams/" in team and "not a member of any team" in team
    hooks = text[text.index("## Webhooks instead of polling"):]
    assert "/api/webhooks/" in hooks and "docs/integrations.md" in hooks
    assert "debate.finished" in hooks and "webhook-signature" in hooks


@pytest.mark.django_db
def test_no_review_is_mcp_only_as_the_skill_says(member_client, team, owner):
    """What the MCP-only paragraph tells an HTTP caller: no_review is refused, a null
    review_on records a decision without a review."""
    from debates.models import Debate, DebateStatus
    from decisions.models import Decision
    from tests.factories import add_synthesis, make_debate

    debate = make_debate(team, owner)
    add_synthesis(debate)
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.SUCCEEDED)
    url = f"/api/debates/{debate.code}/decision"
    body = {"choice": "Wait a quarter", "rationale": "The user chose it."}
    refused = member_client.post(url, {**body, "no_review": True},
                                 content_type="application/json")
    assert refused.status_code == 422 and not Decision.objects.exists()
    recorded = member_client.post(url, {**body, "review_on": None},
                                  content_type="application/json")
    assert recorded.status_code == 200 and recorded.json()["review_on"] is None
