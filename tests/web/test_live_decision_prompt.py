"""A debate that finishes while its page is open brings the "record the team's
decision" prompt with the live update (#debate-decision, an out-of-band part), for
editors and owners; viewers get none."""

from __future__ import annotations

import re

from debates.live.consumers import render_live_fragments
from debates.models import DebateStatus
from debates.runtime.execution import run_to_completion
from tests.web.htmltools import apply_oob, outer_html, top_level

PROMPT = "Record the team&#x27;s decision"


def _seq(html: str) -> int:
    return int(re.search(r'data-last-seq="(\d+)"', html).group(1))


def test_the_prompt_arrives_when_the_debate_finishes(member_client, make_debate):
    debate = make_debate(run=False)
    url = f"/debates/{debate.code}/"
    stale = member_client.get(url).content.decode()
    assert PROMPT not in stale and 'id="debate-decision"' in stale
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED
    batch = render_live_fragments(debate, role="editor", after=_seq(stale)).html
    assert "debate-decision" in {el.attrs.get("id") for el in top_level(batch)}
    updated = apply_oob(stale, batch)
    assert PROMPT in outer_html(updated, "debate-decision")
    fresh = member_client.get(url).content.decode()
    assert outer_html(updated, "debate-decision") == outer_html(fresh, "debate-decision")


def test_a_viewer_gets_no_prompt_live(make_debate):
    debate = make_debate()
    batch = render_live_fragments(debate, role="viewer", after=0).html
    assert 'id="debate-decision"' in batch and PROMPT not in batch
