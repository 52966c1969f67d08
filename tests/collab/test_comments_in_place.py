"""Comments in place: a quote is checked against the synthesis's text and gets its
offset, threads find their passage again (or say they were on an earlier version),
owners moderate (logged), edits keep their history, mentions are highlighted."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from collab.models import Comment, CommentModeration, CommentRevision
from collab.selectors import debate_threads, synthesis_result, synthesis_text
from collab.services import (
    CommentError,
    comment_create,
    comment_delete,
    comment_edit,
    comment_set_hidden,
)
from collab.templatetags.collab import comment_html
from debates.models import Synthesis
from tests.factories import make_debate
from tests.factories import synthesis_result as stored_result

RECOMMENDATION = "Migrate **in Q3**, after the\n\nfreeze. Vendor lock-in is the cost."


def _synthesis(debate, recommendation=RECOMMENDATION):
    result = stored_result()
    result["recommended_path"]["recommendation"] = recommendation
    Synthesis.objects.filter(debate=debate).delete()
    return Synthesis.objects.create(debate=debate, result=result)


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    _synthesis(debate)
    return debate


def test_the_synthesis_text_is_what_a_reader_sees(debate):
    text = synthesis_text(synthesis_result(debate))
    # Markdown rendered (no "**"), whitespace runs as one space, passages in page order.
    assert text.startswith("Migrate in Q3, after the freeze. Vendor lock-in is the cost. s e w")
    assert "Migration downtime Vendor lock-in Cost growth Timing Now" in text


def test_a_quote_of_the_synthesis_is_saved_with_its_offset(debate, owner):
    comment = comment_create(debate=debate, author=owner, body="Why then?", target_kind="quote",
                             quote="in Q3,  after\nthe freeze")
    assert comment.quote == "in Q3, after the freeze"
    assert comment.quote_offset == len("Migrate ")


def test_the_offset_picks_the_occurrence_the_reader_selected(debate, owner):
    text = synthesis_text(synthesis_result(debate))
    second = text.index("Vendor lock-in", text.index("Vendor lock-in") + 1)
    near_second = comment_create(debate=debate, author=owner, body="x", target_kind="quote",
                                 quote="Vendor lock-in", quote_offset=second - 3)
    no_hint = comment_create(debate=debate, author=owner, body="y", target_kind="quote",
                             quote="Vendor lock-in")
    assert near_second.quote_offset == second
    assert no_hint.quote_offset == text.index("Vendor lock-in")
    occurrences = {t.root.body: t.occurrence for t in debate_threads(debate=debate)}
    assert occurrences == {"x": 1, "y": 0}


def test_a_quote_that_is_not_in_the_synthesis_is_refused_and_nothing_saved(debate, owner):
    with pytest.raises(CommentError, match="not in the synthesis"):
        comment_create(debate=debate, author=owner, body="x", target_kind="quote",
                       quote="Migrate in Q4")
    with pytest.raises(CommentError, match="not in the synthesis"):
        comment_create(debate=debate, author=owner, body="x", target_kind="quote",
                       quote="**in Q3**")  # the Markdown source is not what readers see
    assert not Comment.objects.exists()


def test_a_thread_whose_quote_left_the_synthesis_is_on_an_earlier_version(debate, owner):
    comment_create(debate=debate, author=owner, body="Why?", target_kind="quote",
                   quote="after the freeze")
    [thread] = debate_threads(debate=debate)
    assert thread.occurrence == 0 and not thread.on_earlier_version
    _synthesis(debate, recommendation="Migrate in Q4.")  # a new version of the synthesis
    [thread] = debate_threads(debate=debate)
    assert thread.occurrence is None and thread.on_earlier_version


def test_owners_hide_show_and_delete_others_comments_and_it_is_logged(debate, owner, member):
    comment = comment_create(debate=debate, author=member, body="Off topic")
    comment_set_hidden(comment=comment, user=owner, hidden=True)
    assert comment.is_hidden and comment.body == "Off topic"  # kept for owners
    comment_set_hidden(comment=comment, user=owner, hidden=False)
    comment_delete(comment=comment, user=owner)
    assert comment.is_deleted and comment.body == ""
    log = list(CommentModeration.objects.order_by("created_at", "id"))
    assert [(e.action, e.moderator, e.comment_author, e.comment_id) for e in log] == [
        ("hide", owner, member, comment.pk), ("show", owner, member, comment.pk),
        ("delete", owner, member, comment.pk)]
    assert all(e.created_at for e in log)


def test_only_owners_moderate_and_not_their_own_comments(debate, owner, member):
    by_owner = comment_create(debate=debate, author=owner, body="Mine")
    by_member = comment_create(debate=debate, author=member, body="Theirs")
    with pytest.raises(PermissionDenied):
        comment_set_hidden(comment=by_owner, user=member, hidden=True)
    with pytest.raises(PermissionDenied):
        comment_delete(comment=by_owner, user=member)
    with pytest.raises(PermissionDenied):
        comment_set_hidden(comment=by_owner, user=owner, hidden=True)  # delete or edit it
    comment_delete(comment=by_member, user=member)  # one's own: no moderation
    assert not CommentModeration.objects.exists()


def test_edits_keep_the_history_and_a_delete_erases_it(debate, owner):
    comment = comment_create(debate=debate, author=owner, body="First")
    comment_edit(comment=comment, user=owner, body="Second")
    comment_edit(comment=comment, user=owner, body="Second")  # no change, no revision
    comment_edit(comment=comment, user=owner, body="Third")
    assert [r.body for r in comment.revisions.all()] == ["Second", "First"]
    assert comment.revisions.last().written_at == comment.created_at
    comment_delete(comment=comment, user=owner)
    assert not CommentRevision.objects.exists()


def test_mentions_of_team_members_are_highlighted_and_nothing_else(debate, owner, member):
    comment = comment_create(debate=debate, author=owner,
                             body="@member and @nobody, mail member@example.com <b>x</b>")
    html = str(comment_html(comment))
    assert '<span class="mention">@member</span> and @nobody' in html
    assert "member@example.com" in html and "&lt;b&gt;" in html
