"""The debate pages' own interface in the user's language (issue 41, item 4): the
new-debate form (with its validation errors, estimate and options fragments), the
re-run form, the confirm steps, the compare picker and comparison, a debate's page in
every state (queued, running, finished, failed, cancelled), its transcript, printable
report and synthesis, and the views' messages. In Japanese and Chinese no English is
left outside what the test wrote (tests/web/english_left.py); French shows its own
words; English reads as before."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from debates.models import Debate, DebateStatus
from debates.runtime.execution import run_next_step
from debates.services import debate_cancel
from tests.web.english_left import english_left, texts_in
from tests.web.english_left import main_part as _main
from tests.web.test_site_languages import _speaking

QUESTIONS = {
    "ja": "請求サービスを来年移行すべきでしょうか？",
    "zh": "我们明年应该迁移计费服务吗？",
    "fr": "Devrions-nous migrer notre service de facturation l’an prochain ?",
    "en": "Should we move the billing service next year?",
}
# What every page shows as written, in any language: the simulated model's name and
# the structured-output settings' values (identifiers the model servers know them by).
IDENTIFIERS = ("sim/default", "auto", "json_object", "tools", "prompt", "json_schema",
               "council", "adversarial", "workflow")
OPTION_IDS = ("for", "against", "conditional")
FAILURE = "provider timeout"  # the error the worker stored, shown as it came
WRONG_MODE = "nope"  # a mode the form does not know, quoted back in Django's error


def _written(debate: Debate) -> set[str]:
    """What the panel and the simulated model wrote (agent names, roles, turns): user
    content, kept as written."""
    found: set[str] = set()
    for agent in debate.agents.all():
        found |= {agent.name, *(str(v) for v in (agent.persona or {}).values())}
    for turn in debate.turns.all():
        found |= texts_in(turn.payload)
    if hasattr(debate, "synthesis"):
        found |= texts_in(debate.synthesis.result)
    # The automatic options' ids are words of the pages, shown translated.
    return {text for text in found if text} - set(OPTION_IDS)


@pytest.fixture
def debates(make_debate, member):
    """One debate in each state, asked in each language."""
    def make(language: str) -> dict[str, Debate]:
        question = QUESTIONS[language]
        finished = make_debate(question=question)
        rerun = make_debate(question=question, parent=finished)
        running = make_debate(question=question, run=False)
        run_next_step(running.code)
        queued = make_debate(question=question, run=False)
        cancelled = debate_cancel(debate=make_debate(question=question, run=False),
                                  user=member)
        failed = make_debate(question=question, run=False)
        Debate.objects.filter(pk=failed.pk).update(status=DebateStatus.FAILED, error=FAILURE)
        return {"finished": finished, "child": rerun, "running": running, "queued": queued,
                "cancelled": cancelled, "failed": failed}
    return make


def _pages(client: Client, runs: dict[str, Debate]) -> dict[str, str]:
    """Every page of the area, by a name the failures show."""
    done, active = runs["finished"], runs["running"]
    pages = {"new": client.get("/debates/new").content.decode(),
             "new-errors": client.post("/debates/new", {"question": "", "mode": WRONG_MODE,
                                                        "agents": "99"}).content.decode(),
             "estimate": client.get("/debates/estimate?mode=quick&model=sim/default")
                               .content.decode(),
             "estimate-errors": client.get("/debates/estimate?mode=quick&model=sim/default"
                                           "&agents=99").content.decode(),
             "options": client.get("/debates/options",
                                   {"question": runs["finished"].question}).content.decode(),
             "rerun": client.get(f"/debates/{done.code}/rerun").content.decode(),
             "rerun-errors": client.post(f"/debates/{done.code}/rerun",
                                         {"question": "", "mode": "quick",
                                          "model": "sim/default"}).content.decode(),
             "confirm-cancel": client.post(f"/debates/{active.code}/cancel").content.decode(),
             "confirm-more": client.post(f"/debates/{done.code}/more-round").content.decode(),
             "compare-pick": client.get("/debates/compare").content.decode(),
             "compare": client.get(f"/debates/compare?a={done.code}&b={runs['child'].code}")
                              .content.decode()}
    for state, debate in runs.items():
        pages[state] = client.get(f"/debates/{debate.code}/").content.decode()
        pages[f"{state}-transcript"] = client.get(
            f"/debates/{debate.code}/transcript").content.decode()
    for view in ("synthesis", "print"):
        pages[view] = client.get(f"/debates/{done.code}/{view}").content.decode()
    # A message after an action: the page it lands on says what happened.
    pages["stopped"] = client.post(f"/debates/{active.code}/stop", follow=True).content.decode()
    return pages


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_every_debate_page_speaks_the_users_language(member, debates, language):
    client = _speaking(member, language)
    runs = debates(language)
    allowed = {QUESTIONS[language], FAILURE, WRONG_MODE, *IDENTIFIERS,
               member.username, "Acme",
               *(text for debate in runs.values() for text in _written(debate))}
    for name, html in _pages(client, runs).items():
        part = _main(html) if "<main" in html else html
        assert english_left(part, allowed=allowed) == [], name


def test_an_empty_compare_picker_speaks_the_users_language(member):
    html = _speaking(member, "ja").get("/debates/compare").content.decode()
    assert english_left(_main(html), allowed={"Acme"}) == []


def test_the_debate_pages_speak_french(member, debates):
    client = _speaking(member, "fr")
    pages = _pages(client, debates("fr"))
    assert '<html lang="fr">' in pages["new"]
    assert "Lancer le débat" in pages["new"] and "Réglages avancés" in pages["new"]
    assert "Ce champ est obligatoire." in pages["new-errors"]
    assert "Relancer ce débat" in pages["rerun"]
    assert "Annuler ce débat ?" in pages["confirm-cancel"]
    assert "Comparer deux exécutions" in pages["compare-pick"]
    assert "Progression" in pages["running"]


def test_english_pages_read_as_before(member, debates):
    client = _speaking(member, "en")
    pages = _pages(client, debates("en"))
    assert "Start the debate" in pages["new"] and "Advanced settings" in pages["new"]
    assert "This field is required." in pages["new-errors"]
    assert "Re-run this debate" in pages["rerun"]
    assert "Cancel this debate?" in pages["confirm-cancel"]
    assert "Compare two runs" in pages["compare-pick"]
    assert 'aria-label="Progress"' in pages["running"]
    assert re.search(r"Stopping after the current step", pages["stopped"])


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_the_home_page_of_a_user_without_a_team_speaks_their_language(django_user_model,
                                                                        language):
    """Not the debate list: the page that says how to get a team."""
    loner = django_user_model.objects.create_user("loner", "loner@example.com", "pw-loner-1")
    html = _speaking(loner, language).get("/").content.decode()
    assert f'<html lang="{language}">' in html and 'href="/teams/"' in html
    assert english_left(_main(html), allowed={loner.username}) == []
