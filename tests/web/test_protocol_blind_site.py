"""The site is protocol-blind (docs/engine.md, "Protocols", page methods): its page
modules import no protocol's own names from the engine's face, and what differs by
protocol (comments on a selected passage) comes from the protocol's page methods."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from debates.engine import get_protocol
from debates.models import DebateStatus

ROOT = Path(__file__).resolve().parents[2]
SITE = [*sorted((ROOT / "debates/web").glob("*.py")),
        *sorted((ROOT / "debates/templatetags").glob("*.py")),
        ROOT / "debates/api/compare.py", *sorted((ROOT / "collab").rglob("*.py"))]
# The council's, adversarial's and workflow's own names the face still exports.
PROTOCOL_NAMES = {
    "CouncilPhase", "AdversarialPhase", "WorkflowPhase", "council_state",
    "council_step_label", "DebateResult", "RecommendedPath", "RiskFollowUp",
    "TopicDisagreement", "ClusteredItem", "AgentView", "VerdictSplit", "describe_split",
    "DebateChange", "ChangeOutcome", "VoteTally", "describe_change", "diagnostic_meaning",
    "Diagnostic", "RoundMetrics", "RoundDecision", "SeverityCounts", "status_line_in"}


def _engine_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("debates.engine"):
            names |= {alias.name for alias in node.names}
    return names


@pytest.mark.parametrize("path", SITE, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_site_module_imports_no_protocol_specific_name(path):
    assert not _engine_imports(path) & PROTOCOL_NAMES


@pytest.mark.parametrize("protocol, quotable", [
    ("council", True), ("adversarial", False), ("workflow", False)])
def test_comments_on_a_selection_where_the_protocol_marks_passages(
        member_client, make_debate, protocol, quotable):
    debate = make_debate(protocol=protocol, mode="medium" if protocol == "adversarial"
                         else "quick")
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    result = get_protocol(protocol).parse_result(debate.synthesis.result)
    assert bool(get_protocol(protocol).quote_passages(result)) is quotable
    page = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert ("js/comments.js" in page) is quotable
    assert ("data-can-comment" in page) is quotable
    assert ('id="margin-threads"' in page) is quotable
