"""The debates list (/ and /debates/): the current team's debates only."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("url", ["/", "/debates/"])
def test_list_shows_the_teams_debates_with_status_and_stop_reason(member_client, make_debate,
                                                                  other_team, url):
    mine = make_debate(question="Should we open an office in Lisbon next spring?")
    queued = make_debate(run=False, question="Should we rewrite the mobile app in Flutter?")
    theirs = make_debate(team_=other_team, run=False,
                         question="Should the other team buy a boat for offsites?")
    html = member_client.get(url).content.decode()
    assert "<h1>Debates</h1>" in html and "Acme" in html
    assert mine.question in html and queued.question in html
    assert f"/debates/{mine.code}/" in html
    assert mine.stop_reason.replace("_", " ") in html
    assert "Queued" in html and "Succeeded" in html
    assert theirs.question not in html and str(theirs.code) not in html


def test_list_offers_new_debate_to_editors_not_viewers(member_client, viewer_client):
    assert "/debates/new" in member_client.get("/").content.decode()
    assert "/debates/new" not in viewer_client.get("/").content.decode()


def test_empty_list_says_so(member_client):
    assert "No debates yet" in member_client.get("/debates/").content.decode()
