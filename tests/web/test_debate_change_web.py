"""What the debate changed on the web side (docs/web.md): the debate page's result, the
synthesis page, the exports and the API say the first vote, the final plurality and
whether the debate flipped it."""

from __future__ import annotations

import html as entities
import json
import re

from tests.web.htmltools import elements

# Ann and Bo come round to Cy's answer in round 1: the debate flips the first vote.
FLIP = {"agents": [
    {"name": "Ann Hawk", "position_confidence": 0.8, "position_verdict": "for",
     "rounds": [{"updated_verdict": "against", "concessions": ["fair"]}]},
    {"name": "Bo Dove", "position_confidence": 0.8, "position_verdict": "for",
     "rounds": [{"updated_verdict": "against"}]},
    {"name": "Cy Owl", "position_confidence": 0.8, "position_verdict": "against"},
]}
WORDS = ("First vote: for 2:1; after cross-examination: against 3:0 "
         "(the debate changed the answer)")


def _change(html: str) -> str:
    """The text of the page's one #debate-change element."""
    found = [el for el in elements(html) if el.attrs.get("id") == "debate-change"]
    assert len(found) == 1
    text = re.sub(r"<[^>]+>", "", html[found[0].start:found[0].end])
    return " ".join(entities.unescape(text).split())


def test_the_debate_page_and_the_synthesis_say_what_the_debate_changed(member_client,
                                                                       make_debate):
    debate = make_debate(script=FLIP, max_rounds=1)
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert _change(page) == f"What the debate changed: {WORDS}"
    synthesis = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert _change(synthesis) == WORDS
    assert "<dt>What the debate changed</dt>" in synthesis


def test_a_kept_answer_is_said_too(member_client, make_debate):
    keep = {"agents": [{**a, "rounds": []} for a in FLIP["agents"]]}
    debate = make_debate(script=keep, max_rounds=1)
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert _change(page) == ("What the debate changed: First vote: for 2:1; after "
                             "cross-examination: for 2:1 (the debate kept the answer)")


def test_the_exports_and_the_api_carry_it(member_client, make_debate):
    debate = make_debate(script=FLIP, max_rounds=1)
    markdown = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert f"**What the debate changed:** {WORDS}  \n" in markdown
    exported = json.loads(member_client.get(f"/debates/{debate.code}/export.json").content)
    change = exported["debate_change"]
    assert (change["first"]["plurality"], change["final"]["plurality"]) == ("for", "against")
    assert change["changed"] is True and change["words"] == WORDS
    printed = member_client.get(f"/debates/{debate.code}/print").content.decode()
    assert "What the debate changed" in printed and "the debate changed the answer" in printed
    api = member_client.get(f"/api/debates/{debate.code}/synthesis").json()
    assert api["debate_change"]["outcome"] == "changed"


def test_a_protocol_without_a_vote_shows_nothing(member_client, make_debate):
    debate = make_debate(protocol="adversarial", mode="medium", seed=3,
                         question="Draft the rollout plan for our new billing service.")
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert 'id="debate-change"' not in page
    markdown = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert "What the debate changed" not in markdown
