"""Finding past debates: full-text search, filters, sorting and pages of the list.

The same file runs on PostgreSQL (tests/test_scaleout_search.py), where the search is
PostgreSQL's full text; the tests marked ``postgres_only`` check what only it does.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from debates.engine.schemas import DebateConfig, Persona
from debates.models import Debate, DebateStatus, Synthesis
from debates.selectors import DebateFilters, debate_search
from debates.services import debate_create
from personas.services import agents_link_sources, library_create, persona_create
from tests.factories import synthesis_result

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="PostgreSQL full-text search only")


def _debate(team, user=None, question="Should we open an office in Lisbon next spring?",
            synthesis: str | None = None, **fields) -> Debate:
    debate = debate_create(team=team, user=user, question=question,
                           config=DebateConfig(mode="quick"), start=False)
    if synthesis is not None:
        result = synthesis_result()
        result["question"] = question  # a stored result repeats its debate's question
        result["recommended_path"]["recommendation"] = synthesis
        Synthesis.objects.create(debate=debate, result=result)
        fields.setdefault("status", DebateStatus.SUCCEEDED)
    if fields:
        Debate.objects.filter(pk=debate.pk).update(**fields)
        debate.refresh_from_db()
    return debate


def _questions(team, **filters) -> list[str]:
    return [d.question for d in debate_search(team=team, filters=DebateFilters(**filters))]


# ------------------------------------------------------------------------ the selector


def test_search_finds_words_in_the_question_or_the_synthesis(team, other_team):
    in_question = _debate(team, question="Should we migrate billing to Postgres?")
    in_synthesis = _debate(team, question="What about the invoices?",
                           synthesis="Move billing after the Zürich audit")
    _debate(team, question="Should we hire a designer?", synthesis="Hire in spring")
    _debate(other_team, question="Should the other team migrate billing too?")
    assert sorted(_questions(team, q="billing")) == sorted(
        [in_question.question, in_synthesis.question])
    assert _questions(team, q="Zürich") == [in_synthesis.question]
    # Every word must match (in either place), not any of them.
    assert _questions(team, q="billing audit") == [in_synthesis.question]
    assert _questions(team, q="billing astronauts") == []


def test_search_reads_the_synthesis_text_not_its_json_keys(team):
    _debate(team, question="Q one?", synthesis="Plain words only")
    assert _questions(team, q="pre_positional_risks") == []
    assert _questions(team, q="recommended_path") == []
    # The risks' texts are searchable (they are values).
    assert _questions(team, q="lock-in") == ["Q one?"]


def test_search_text_follows_an_updated_synthesis(team):
    debate = _debate(team, question="Q?", synthesis="first words")
    result = synthesis_result()
    result["recommended_path"]["recommendation"] = "second thoughts"
    # The engine stores a synthesis with update_or_create (save with update_fields).
    Synthesis.objects.update_or_create(debate=debate, defaults={"result": result})
    assert _questions(team, q="second") == ["Q?"]
    assert _questions(team, q="first") == []


@postgres_only
def test_postgres_search_stems_words_and_ranks_the_question_first(team):
    _debate(team, question="A question about hiring", synthesis="Migrating is risky")
    _debate(team, question="Should we migrate the database?")
    assert _questions(team, q="migration", sort="relevance") == [
        "Should we migrate the database?", "A question about hiring"]
    assert _questions(team, q="migrate -database") == ["A question about hiring"]


def test_each_filter_narrows_the_list(team, owner, member):
    now = timezone.now()
    a = _debate(team, owner, question="A?", synthesis="x", stop_reason="converged",
                degraded=True, simulated=True, created_at=now - timedelta(days=10))
    b = _debate(team, member, question="B?", status=DebateStatus.FAILED, protocol="other",
                simulated=False)
    c = _debate(team, member, question="C?", synthesis="y", stop_reason="max_rounds",
                simulated=True)
    assert _questions(team, status="failed") == [b.question]
    assert _questions(team, stop_reason="converged") == [a.question]
    assert _questions(team, protocol="other") == [b.question]
    assert _questions(team, author="owner") == [a.question]
    assert sorted(_questions(team, author="member")) == [b.question, c.question]
    assert _questions(team, degraded=True) == [a.question]
    assert sorted(_questions(team, degraded=False)) == [b.question, c.question]
    assert _questions(team, simulated=False) == [b.question]
    day = (now - timedelta(days=10)).date()
    assert _questions(team, created_to=day) == [a.question]
    assert sorted(_questions(team, created_from=day + timedelta(days=1))) == [
        b.question, c.question]
    # Filters combine.
    assert _questions(team, author="member", simulated=True, stop_reason="max_rounds") == [
        c.question]


def test_persona_and_library_filters_match_the_panel(team, owner):
    library = library_create(team=team, user=owner, name="Finance")
    dana = persona_create(library=library, user=owner, data=Persona(
        name="Dana", background="CFO", expertise="Pricing", approach="Downside",
        bias="Cautious"))
    panel = [Persona(name=n, background="b", expertise="e", approach="a", bias="x")
             for n in ("Dana", "Eli", "Fay")]
    with_dana = debate_create(team=team, user=owner, question="With Dana?",
                              config=DebateConfig(mode="quick"), personas=panel, start=False)
    agents_link_sources(debate=with_dana, persona_codes=[str(dana.code)])
    _debate(team, question="Without her?")
    assert _questions(team, persona="dana") == ["With Dana?"]
    assert _questions(team, library=library.code) == ["With Dana?"]
    # A debate with several matching agents is listed once.
    assert _questions(team, persona="Eli") == ["With Dana?"]
    # Part of a name finds it, composed names included.
    assert _questions(team, persona="el") == ["With Dana?"]
    assert _questions(team, persona=" DAN ") == ["With Dana?"]


def test_the_persona_filter_suggests_library_personas_not_every_composed_name(
        team, owner, member_client):
    library = library_create(team=team, user=owner, name="Finance")
    persona_create(library=library, user=owner, data=Persona(
        name="Dana", background="CFO", expertise="Pricing", approach="Downside",
        bias="Cautious"))
    composed = [Persona(name=f"Composed {i}", background="b", expertise="e", approach="a",
                        bias="x") for i in range(40)]
    for i in range(0, 40, 4):
        debate_create(team=team, user=owner, question=f"Debate {i}?",
                      config=DebateConfig(mode="quick"), personas=composed[i:i + 4],
                      start=False)
    html = member_client.get("/debates/").content.decode()
    field = re.search(r'<input type="search" name="persona"[^>]*>', html)
    assert field and 'list="persona-suggestions"' in field.group(0)
    suggestions = re.search(r'<datalist id="persona-suggestions">(.*?)</datalist>', html, re.S)
    assert re.findall(r'<option value="([^"]*)">([^<]*)</option>', suggestions.group(1)) == [
        ("Dana", "Finance")]
    assert "Composed 7" not in html
    found = member_client.get("/debates/?persona=posed 7").content.decode()
    assert "Debate 4?" in found and "Debate 8?" not in found


def test_sorting(team):
    _debate(team, question="Cheap?", cost_usd=0.01, created_at=timezone.now() - timedelta(1))
    _debate(team, question="Dear?", cost_usd=2.0, created_at=timezone.now() - timedelta(2))
    _debate(team, question="Again?", cost_usd=0.5)
    assert _questions(team) == ["Again?", "Cheap?", "Dear?"]
    assert _questions(team, sort="oldest") == ["Dear?", "Cheap?", "Again?"]
    assert _questions(team, sort="cost") == ["Dear?", "Again?", "Cheap?"]
    assert _questions(team, sort="question") == ["Again?", "Cheap?", "Dear?"]


# ------------------------------------------------------------------------ the page


def test_list_page_searches_and_filters(member_client, team, member):
    _debate(team, member, question="Should we migrate billing?", synthesis="Yes, in Q3")
    _debate(team, question="Should we hire a designer?", status=DebateStatus.FAILED)
    html = member_client.get("/debates/", {"q": "billing"}).content.decode()
    assert "Should we migrate billing?" in html and "hire a designer" not in html
    assert "1 debate match" in html and 'value="billing"' in html
    html = member_client.get("/", {"status": "failed"}).content.decode()
    assert "hire a designer" in html and "migrate billing" not in html
    # The author column and the author filter's choices.
    html = member_client.get("/debates/").content.decode()
    assert "<th>started by</th>" in html and '<option value="member">' in html
    html = member_client.get("/debates/", {"q": "astronauts"}).content.decode()
    assert "No debates match" in html and "No debates yet" not in html


def test_list_page_ignores_bad_values(member_client, team):
    _debate(team, question="Still listed?")
    response = member_client.get("/debates/", {"status": "bogus", "library": "not-a-uuid",
                                               "created_from": "yesterday", "sort": "x",
                                               "page": "999"})
    assert response.status_code == 200
    assert "Still listed?" in response.content.decode()


def test_list_is_paginated_and_pages_keep_the_query(member_client, team):
    team.debates_per_hour = 100
    team.save(update_fields=["debates_per_hour"])
    for i in range(30):
        _debate(team, question=f"Billing question number {i:02d}?")
    _debate(team, question="Unrelated?")
    first = member_client.get("/debates/", {"q": "billing"}).content.decode()
    # Each row names its question once as link text (and once more as its tooltip).
    assert first.count(">Billing question number") == 25
    assert "30 debates match" in first and "page 1 of 2" in first
    assert 'href="?q=billing&amp;page=2"' in first
    second = member_client.get("/debates/", {"q": "billing", "page": 2}).content.decode()
    assert second.count(">Billing question number") == 5 and "Unrelated?" not in second
    # Newest first: page two holds the oldest five.
    assert "number 00?" in second and "number 29?" in first


def test_list_query_count_does_not_grow_with_rows(member_client, team,
                                                  django_assert_max_num_queries):
    for i in range(20):
        _debate(team, question=f"Q{i}?", synthesis="text")
    with django_assert_max_num_queries(14):
        assert member_client.get("/debates/", {"q": "text"}).status_code == 200
