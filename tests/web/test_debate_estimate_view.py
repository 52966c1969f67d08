"""The estimate fragment the form fetches with hx-get on every change."""

from __future__ import annotations


def test_fragment_counts_the_worst_case_calls(member_client):
    response = member_client.get("/debates/estimate", {"mode": "quick", "model": "sim/default"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="estimate"')
    assert "<html" not in html
    assert "15 calls" in html  # 1 + 3 + 3 + 3 x 2 + 1 + 1
    assert "free (simulated)" in html


def test_fragment_follows_the_advanced_settings(member_client):
    html = member_client.get("/debates/estimate", {
        "mode": "medium", "model": "sim/default", "agents": "10", "max_rounds": "5"}).content
    assert b"73 calls" in html  # 1 + 10 + 10 + 50 + 2


def test_priced_model_shows_dollars_and_unknown_model_says_unknown(member_client):
    priced = member_client.get("/debates/estimate",
                               {"mode": "quick", "model": "openai/gpt-4o-mini"}).content
    assert b"about $" in priced or b"under $" in priced
    unknown = member_client.get("/debates/estimate",
                                {"mode": "quick", "model": "openai/not-a-real-model"}).content
    assert b"unknown price" in unknown


def test_question_length_raises_the_token_estimate(member_client):
    def tokens(chars: int) -> float:
        html = member_client.get("/debates/estimate", {
            "mode": "quick", "model": "sim/default", "question_chars": chars}).content.decode()
        shown = html.split("about ")[1].split(" tokens")[0]  # e.g. "31.2k"
        return float(shown.rstrip("k")) * (1000 if shown.endswith("k") else 1)

    assert tokens(20_000) > tokens(10)


def test_invalid_settings_explain_why_there_is_no_estimate(member_client):
    html = member_client.get("/debates/estimate",
                             {"mode": "quick", "model": "sim/default", "agents": "40"}).content
    assert b"No estimate" in html and b"less than or equal to 12" in html


def test_an_unknown_price_says_it_is_refused_under_the_teams_cap_until_allowed(member_client,
                                                                             team):
    def fragment() -> str:
        return member_client.get("/debates/estimate", {
            "mode": "quick", "model": "openai/not-a-real-model"}).content.decode()

    assert "refused" not in fragment()  # no cap, no budget: nothing to refuse
    team.debate_cost_cap_usd = 5.0
    team.save()
    assert "refused: your team has a cost cap or budget" in fragment()
    team.allow_unpriced_models = True
    team.save()
    assert "refused" not in fragment()


def _tokens(html: str) -> float:
    shown = html.split("about ")[1].split(" tokens")[0]  # e.g. "31.2k"
    return float(shown.rstrip("k")) * (1000 if shown.endswith("k") else 1)


def test_picked_sources_and_files_chosen_for_upload_raise_the_token_estimate(
        member_client, team, owner):
    from debates.debate_sources import Upload
    from sources.services import extract_version, sources_upload

    [version] = sources_upload(team=team, user=owner,
                               files=[Upload("costs.md", b"Kafka costs a lot. " * 3_000)])
    extract_version(str(version.code))
    base = {"mode": "quick", "model": "sim/default"}

    def tokens(**more: object) -> float:
        return _tokens(member_client.get("/debates/estimate", {**base, **more}).content.decode())

    bare = tokens()
    picked = tokens(library_sources=str(version.source.code))
    assert picked > bare
    assert tokens(upload_bytes="57000") == picked  # a file of the same size, not read yet
    # Another team's code, or a made-up one, adds nothing (the form refuses it on send).
    assert tokens(library_sources="not-a-code") == bare


def test_the_start_checks_the_cost_cap_with_the_sources(team, owner):
    import pytest

    from debates.debate_sources import Upload
    from debates.services import DebateSpec, InputError, debate_start, plan_debate
    from sources.services import sources_upload

    [version] = sources_upload(team=team, user=owner,
                               files=[Upload("notes.md", b"Long notes. " * 20_000)])
    spec = DebateSpec(question="Kafka or SQS?", mode="quick", model="openai/gpt-4o-mini")
    bare = plan_debate(team=team, spec=spec).estimate
    with_source = plan_debate(team=team, spec=DebateSpec(
        **{**spec.__dict__, "sources": [str(version.code)]})).estimate
    assert with_source.cost_usd > bare.cost_usd
    # A cap between the two: the debate without the source starts, with it it is refused.
    team.debate_cost_cap_usd = (bare.cost_usd + with_source.cost_usd) / 2
    team.save()
    with pytest.raises(InputError):
        debate_start(team=team, user=owner, spec=DebateSpec(
            **{**spec.__dict__, "sources": [str(version.code)]}))
    assert debate_start(team=team, user=owner, spec=spec).pk
