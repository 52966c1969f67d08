"""The admin's review pages read like the site: words for stop reasons and statuses,
a link to the debate's page, a readable transcript by phase, round and agent, and a
compact change page (the ledger folded, no inline of JSON rows)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from debates.models import Debate, DebateStatus
from debates.runtime.execution import run_to_completion
from tests.factories import make_debate

CHANGELIST = "/admin/debates/debate/"


@pytest.fixture
def admin_client(db):
    staff = User.objects.create_superuser(username="root", email="root@example.com",
                                          password="x")
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def finished(team, owner):
    debate = make_debate(team, owner)
    run_to_completion(debate.code)
    return Debate.objects.get(pk=debate.pk)


def test_the_list_reads_in_words_and_links_to_the_site(admin_client, team, owner):
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.SUCCEEDED,
                                               stop_reason="genuine_disagreement",
                                               simulated=True)
    html = admin_client.get(CHANGELIST).content.decode()
    assert "genuine disagreement" in html and "genuine_disagreement</td>" not in html
    assert ">Succeeded</strong>" in html and "free (simulated)" in html
    assert f'href="/debates/{debate.code}/"' in html
    # The filter offers the words too, and filters.
    filtered = admin_client.get(f"{CHANGELIST}?stop_reason__exact=genuine_disagreement")
    assert [d.pk for d in filtered.context["cl"].result_list] == [debate.pk]


def test_the_change_page_has_a_readable_transcript(admin_client, finished):
    html = admin_client.get(f"{CHANGELIST}{finished.pk}/change/").content.decode()
    names = list(finished.agents.values_list("name", flat=True))
    assert names and all(name in html for name in names)
    for title in ("Premortem", "Positions (round 0)", "Cross-examination, round 1"):
        assert title in html
    assert f'href="/debates/{finished.code}/transcript"' in html
    assert f'href="/debates/{finished.code}/"' in html
    assert "Raw turn payloads" in html
    # Compact: no inline row per turn, the ledger folded away.
    assert 'id="turns-group"' not in html
    ledger = html.split('id="llm_calls-group"')[1]
    assert '<fieldset class="module collapse"' in ledger[:1500] and "<details>" in ledger[:1500]
