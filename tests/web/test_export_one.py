"""One Markdown export for the web download and the API: the same body (the team's
follow-up included), comment threads on request, a readable file name, and Markdown
escapes instead of HTML entities."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone

from collab.services import action_create, comment_create
from debates.models import Debate
from tests.factories import add_synthesis, make_debate


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    Debate.objects.filter(pk=debate.pk).update(
        question="Should we use Kafka or SQS for events? We <b>ship</b> & scale.",
        status="succeeded")
    debate.refresh_from_db()
    add_synthesis(debate)
    action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1", owner=owner,
                  due_date=date.today() + timedelta(days=3), title="Plan the <cutover> & test")
    return debate


def _web(client, debate, query=""):
    return client.get(f"/debates/{debate.code}/export.md{query}")


def _api(client, debate, query=""):
    return client.get(f"/api/debates/{debate.code}/export.md{query}")


def test_the_api_and_the_web_download_are_the_same_file(member_client, debate):
    web, api = _web(member_client, debate), _api(member_client, debate)
    assert web.status_code == api.status_code == 200
    assert web.content == api.content
    assert "## Follow-up" in web.content.decode()
    assert web["Content-Disposition"] == api["Content-Disposition"]


def test_threads_only_on_request_and_the_same_both_ways(member_client, debate, owner, member):
    thread = comment_create(debate=debate, author=owner, body="Why <Q3>?", target_kind="quote",
                            quote="Migrate in Q3")
    comment_create(debate=debate, author=member, body="Because & then", parent=thread)
    assert "## Comments" not in _web(member_client, debate).content.decode()
    web = _web(member_client, debate, "?threads=1").content.decode()
    assert web == _api(member_client, debate, "?threads=true").content.decode()
    assert '### On the passage "Migrate in Q3"' in web
    assert "> Migrate in Q3" in web
    assert "- **owner**" in web and "Why \\<Q3>?" in web
    assert "  - **member**" in web and "Because \\& then" in web


def test_a_readable_file_name(member_client, debate):
    day = timezone.localtime(debate.created_at).date().isoformat()
    for response in (_web(member_client, debate), _api(member_client, debate)):
        assert response["Content-Disposition"] == (
            f'attachment; filename="{day}-kafka-or-sqs-for-events.md"')
    json_name = member_client.get(f"/debates/{debate.code}/export.json")["Content-Disposition"]
    assert json_name == f'attachment; filename="{day}-kafka-or-sqs-for-events.json"'


def test_the_file_with_comments_has_a_name_of_its_own(member_client, debate):
    day = timezone.localtime(debate.created_at).date().isoformat()
    for response in (_web(member_client, debate, "?threads=1"),
                     _api(member_client, debate, "?threads=true")):
        assert response["Content-Disposition"] == (
            f'attachment; filename="{day}-kafka-or-sqs-for-events-with-comments.md"')


def test_the_print_view_includes_the_threads_on_request(member_client, debate, owner):
    comment_create(debate=debate, author=owner, body="Is the freeze real?",
                   target_kind="quote", quote="Migrate in Q3")
    plain = member_client.get(f"/debates/{debate.code}/print").content.decode()
    assert "Is the freeze real?" not in plain
    assert f'href="/debates/{debate.code}/print?threads=1"' in plain
    threaded = member_client.get(f"/debates/{debate.code}/print?threads=1").content.decode()
    assert "Is the freeze real?" in threaded
    assert f'href="/debates/{debate.code}/export.md?threads=1"' in threaded
    assert f'href="/debates/{debate.code}/print"' in threaded


def test_no_html_entities_in_the_markdown(member_client, debate, owner):
    comment_create(debate=debate, author=owner, body="<script> & co")
    text = _web(member_client, debate, "?threads=1").content.decode()
    assert "&lt;" not in text and "&amp;" not in text and "&gt;" not in text
    assert "Plan the \\<cutover> \\& test" in text and "\\<script> \\& co" in text
