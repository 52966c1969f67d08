""""One more round" keeps the synthesis it replaces: the synthesis page lists the
earlier versions and shows each one on request, marked as earlier."""

from __future__ import annotations

from debates.runtime.execution import run_to_completion
from debates.services import debate_more_round


def test_the_synthesis_page_shows_the_version_one_more_round_replaced(member_client,
                                                                     finished):
    rounds = finished.synthesis.result["rounds_completed"]
    debate_more_round(debate=finished)
    run_to_completion(finished.code)
    earlier = finished.earlier_syntheses.get()
    url = f"/debates/{finished.code}/synthesis"

    html = member_client.get(url).content.decode()
    assert "Earlier versions (1)" in html
    assert f"{url}?version={earlier.code}" in html
    assert "An earlier synthesis" not in html

    html = member_client.get(f"{url}?version={earlier.code}").content.decode()
    assert f"An earlier synthesis, written after round {rounds}" in html
    assert "Read the current synthesis" in html
    # Comments belong to the current synthesis: the earlier one offers none.
    assert 'id="comments"' not in html and "comment-link" not in html


def test_an_unknown_or_malformed_version_is_not_found(member_client, finished):
    url = f"/debates/{finished.code}/synthesis"
    assert member_client.get(f"{url}?version=nonsense").status_code == 404
    assert member_client.get(
        f"{url}?version=00000000-0000-0000-0000-000000000000").status_code == 404


def test_a_version_of_another_debate_is_not_found(member_client, finished, make_debate):
    other = make_debate()
    debate_more_round(debate=other)
    code = other.earlier_syntheses.get().code
    assert member_client.get(
        f"/debates/{finished.code}/synthesis?version={code}").status_code == 404


def test_while_the_extra_round_runs_the_debate_page_links_the_earlier_synthesis(
        member_client, finished):
    html = member_client.get(f"/debates/{finished.code}/").content.decode()
    assert "Earlier synthesis" not in html
    debate_more_round(debate=finished)
    earlier = finished.earlier_syntheses.get()
    html = member_client.get(f"/debates/{finished.code}/").content.decode()
    assert f"after round {earlier.rounds_completed}: <a href=\"/debates/{finished.code}/" \
           f"synthesis?version={earlier.code}\">read it</a>" in html
    # The earlier version reads while the debate has no current synthesis.
    response = member_client.get(f"/debates/{finished.code}/synthesis?version={earlier.code}")
    assert response.status_code == 200
    assert member_client.get(f"/debates/{finished.code}/synthesis").status_code == 404
