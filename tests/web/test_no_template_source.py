"""Every page of the walk (the three protocols' pages, lists, decisions, personas, teams,
settings, forms) shows no template source: a ``{# … #}`` comment over two lines, for
one, is not a comment to Django and printed as text above the new-debate form's
Options. Plus the templates themselves: no multi-line ``{#``."""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from collab.services import action_create, comment_create
from debates.engine.schemas import Persona
from decisions.services import decision_record
from personas.services import library_create, persona_create
from tests.web.htmltools import text_of

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_SOURCE = re.compile(r"\{#|#\}|\{%|%\}|\{\{|\}\}")
PROTOCOLS = {"council": {"mode": "quick"}, "adversarial": {"mode": "medium"},
             "workflow": {"mode": "deep"}}
DEBATE_PAGES = ("", "synthesis", "transcript", "print", "comments/", "actions/", "rerun",
                "decision", "decision/history", "outcome", "comments/moderation")
SITE_PAGES = ("/", "/debates/", "/debates/new", "/debates/compare", "/decisions/",
              "/actions/", "/calibration/", "/mentions/", "/personas/", "/teams/",
              "/accounts/", "/accounts/tokens/", "/accounts/password_change/",
              "/notifications/", "/notifications/settings")


def _source_left(html: str) -> list[str]:
    text = text_of(html)
    return [text[max(0, m.start() - 40):m.end() + 40] for m in TEMPLATE_SOURCE.finditer(text)]


@pytest.fixture
def walk(make_debate, team, owner, member):
    """The pages a team of three walks, by URL."""
    urls = list(SITE_PAGES) + [f"/teams/{team.code}/"]
    debates = [make_debate(protocol=p, seed=1, **settings) for p, settings in PROTOCOLS.items()]
    for debate in debates:
        thread = comment_create(debate=debate, author=owner, body="Is this real? @member")
        comment_create(debate=debate, author=member, body="Yes.", parent=thread)
        option = debate.synthesis.result.get("options") or []
        decision_record(debate=debate, user=owner, option=option[0] if option else "",
                        choice="" if option else "Go ahead", rationale="Because.")
        urls += [f"/debates/{debate.code}/{page}" for page in DEBATE_PAGES]
        urls.append(f"/debates/{debate.code}/comments/{thread.code}/history")
    council = debates[0]
    action_create(debate=council, user=owner, target_kind="risk", target_ref="R1", owner=owner,
                  due_date=date.today() + timedelta(days=3))
    urls.append(f"/debates/compare?a={council.code}&b={council.code}")
    library = library_create(team=team, user=owner, name="Advisers")
    persona = persona_create(library=library, user=owner, data=Persona(
        name="Dana", background="CFO", expertise="Pricing", approach="Downside", bias="Cautious"))
    urls += [f"/personas/libraries/{library.code}/",
             f"/personas/libraries/{library.code}/personas/new",
             f"/personas/{persona.code}/", f"/personas/{persona.code}/edit"]
    return urls


def test_no_page_of_the_walk_shows_template_source(owner_client, walk):
    found = {}
    for url in walk:
        response = owner_client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        if left := _source_left(response.content.decode()):
            found[url] = left
    assert found == {}


def test_the_check_sees_a_comment_over_two_lines():
    assert _source_left("<p>{# one\n two #}</p>")
    assert not _source_left("<p>Options</p>")


def test_no_template_has_a_comment_over_two_lines():
    """Django's ``{# #}`` is one line only: longer notes use ``{% comment %}``."""
    templates = [p for p in ROOT.glob("**/templates/**/*.html")
                 if ".venv" not in p.parts and "node_modules" not in p.parts]
    assert len(templates) > 50
    found = [str(p.relative_to(ROOT)) for p in templates
             if any("{#" in line and "#}" not in line.split("{#", 1)[1]
                    for line in p.read_text(encoding="utf-8").splitlines())]
    assert found == []
