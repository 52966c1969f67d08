"""Two runs side by side; items matched by meaning, not wording."""

from __future__ import annotations

from debates.engine.protocols.council.pages import only_in
from debates.engine.protocols.council.schemas import DebateResult
from debates.web.compare import compare_results


def test_only_in_matches_paraphrases():
    mine = ["The migration cost is underestimated", "Nobody owns the rollout"]
    theirs = ["The cost of the migration is underestimated", "Vendor lock-in"]
    assert only_in(mine, theirs, str) == ["Nobody owns the rollout"]


def _result(debate) -> DebateResult:
    return DebateResult.model_validate(debate.synthesis.result)


def test_compare_page_shows_both_runs_and_what_only_one_found(member_client, make_debate):
    a = make_debate(question="Should we move our billing system to Stripe this year?")
    b = make_debate(question="Should our team adopt Kubernetes for the staging cluster?",
                    parent=a)
    ra, rb = _result(a), _result(b)
    comparison = compare_results(ra, rb)
    only_a = [r.text for r in comparison.only_a.risks]
    assert only_a, "different questions should raise different risks"

    response = member_client.get(f"/debates/compare?a={a.code}&b={b.code}")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Run A" in html and "Run B" in html
    assert a.question in html and b.question in html
    assert ra.stop_reason.value.replace("_", " ") in html
    assert "Only in run A" in html and "Only in run B" in html
    assert only_a[0].split(" ")[-1].rstrip(".") in html
    assert "Metrics side by side" in html


def test_the_same_run_twice_has_nothing_only_in_one(member_client, finished):
    html = member_client.get(
        f"/debates/compare?a={finished.code}&b={finished.code}").content.decode()
    assert html.count("Nothing the other run missed.") == 2


def test_compare_with_an_unfinished_run_shows_what_there_is(member_client, finished,
                                                           make_debate):
    queued = make_debate(run=False)
    html = member_client.get(
        f"/debates/compare?a={finished.code}&b={queued.code}").content.decode()
    assert "No synthesis yet" in html and "Only in run" not in html


def test_compare_without_both_runs_offers_a_picker_of_the_teams_debates(
        member_client, finished, make_debate, other_team):
    theirs = make_debate(team_=other_team, run=False)
    response = member_client.get(f"/debates/compare?a={finished.code}")
    html = response.content.decode()
    assert response.status_code == 200
    assert f'value="{finished.code}" selected' in html
    assert str(theirs.code) not in html


def test_compare_with_another_teams_run_is_404(member_client, finished, make_debate,
                                               other_team):
    theirs = make_debate(team_=other_team, run=False)
    assert member_client.get(
        f"/debates/compare?a={finished.code}&b={theirs.code}").status_code == 404
