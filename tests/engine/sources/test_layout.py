"""Point 2: every protocol's prompts open with one shared prefix (preamble, sources,
question), the persona or role and the step's material after it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from debates.engine.protocols import get_protocol
from debates.engine.protocols.sourced import PASSAGES_HINT, framing
from debates.engine.state import Step

from .helpers import QUESTION, run, sources


def _requests(state, protocol_name):
    protocol = get_protocol(protocol_name)
    out = []
    for turn in sorted(state.turns.values(), key=lambda t: (Step(t.phase, t.round).order,
                                                              t.agent)):
        step = Step(turn.phase, turn.round)
        for ask in protocol.asks(state, step):
            if ask.agent == turn.agent:
                out.append((turn, protocol.request(state, step, ask)))
    return out


@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_the_shared_prefix_is_identical_across_agents_and_steps(protocol):
    state, _ = run(protocol, sources(), mode="quick")
    sourced = [(t, r) for t, r in _requests(state, protocol) if PASSAGES_HINT in r.hints]
    assert len(sourced) >= 4
    heads = {r.messages[0]["content"] for _, r in sourced if not _.compaction}
    assert len(heads) == 1, "one system message for every call shown the sources"
    head = heads.pop()
    assert "[S1.1]" in head or "[S1." in head
    assert QUESTION in head and "[S2.1]" in head
    # The persona or role is never in the prefix.
    for name in (p.name for p in state.personas):
        assert name not in head
    # Every passage a call was shown is in its prompt under its id.
    for _, request in sourced:
        prompt = "\n".join(m["content"] for m in request.messages)
        assert all(f"[{p['id']}] " in prompt for p in request.hints[PASSAGES_HINT])


def test_passages_on_the_points_under_discussion_come_after_the_prefix_before_the_persona():
    state, _ = run("council", sources(), mode="quick")
    frame = framing(state, state.config.model, focus="visibility timeout dead-letter queue")
    assert frame.focused.startswith("More passages of the team's documents")
    assert all(f"[{p.id}] " in frame.focused and f"[{p.id}] " not in frame.head
               for p in frame.offer.focused)
    requests = [r for t, r in _requests(state, "council") if t.phase.value == "cross_exam"]
    for request in requests:
        user = request.messages[1]["content"]
        if "More passages" in user:
            assert user.index("More passages") < user.index("You are ")


def test_without_sources_the_prefix_is_the_preamble_and_the_question():
    state, _ = run("council", mode="quick")
    requests = _requests(state, "council")
    agent = next(r for t, r in requests if t.agent >= 0)
    system, user = agent.messages[0]["content"], agent.messages[1]["content"]
    assert system.endswith(f"<question>\n{QUESTION}\n</question>")
    assert "<sources>" not in system and user.startswith("You are ")


def test_the_prompt_version_is_v5_and_each_protocols_prompts_are_in_its_package():
    from debates.engine import PROMPT_VERSION
    from debates.engine.prompts import SHARED

    assert PROMPT_VERSION == "v5"
    # The docs name the version in use (they said v2 for three versions).
    root = Path(__file__).resolve().parents[3]
    assert f"now `{PROMPT_VERSION}`" in (root / "docs/protocols.md").read_text()
    assert f"`PROMPT_VERSION` (`{PROMPT_VERSION}`" in (root / "docs/engine.md").read_text()
    assert sorted(n for n in os.listdir(SHARED) if n.endswith(".md")) == [
        "focused.md", "json_tail.md", "judge.md", "preamble.md", "sources.md", "verifier.md"]
    assert not [n for n in os.listdir(SHARED) if (SHARED / n).is_dir() and n != "__pycache__"]
    for name in ("council", "adversarial", "workflow"):
        folder = get_protocol(name).prompts()
        assert folder.path("synthesis").parent == SHARED.parent / "protocols" / name / "prompts"
        assert folder.path("verifier").parent == SHARED


def test_the_compose_call_is_shown_the_sources_titles_not_their_text():
    # Issue 42: the whole source made compose the slowest call of every sourced run.
    state, _ = run("council", sources(), mode="quick")
    [(turn, request)] = [(t, r) for t, r in _requests(state, "council")
                         if t.phase.value == "compose"]
    text = "\n".join(m["content"] for m in request.messages)
    assert "- S1: Incident review\n- S2: Cost notes" in text and QUESTION in text
    assert "[S1." not in text and "[S2.1]" not in text and "40 cents" not in text
    assert PASSAGES_HINT not in request.hints and turn.offered == []
