"""Annotations carried into a re-run as objections the new council must address."""

from __future__ import annotations

import pytest
from django_q.models import OrmQ

from collab.services import (
    CommentError,
    comment_create,
    comment_delete,
    debate_rerun_with_objections,
    objections_for_rerun,
)
from debates.engine.schemas import Persona
from debates.models import Debate
from tests.factories import add_synthesis, make_debate


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    return debate


def test_objections_name_what_each_comment_is_about(debate, owner):
    risk = comment_create(debate=debate, author=owner, body="We have\n a rollback plan.",
                          target_kind="risk", target_ref="R1")
    quote = comment_create(debate=debate, author=owner, body="Too late.", target_kind="quote",
                           quote="Migrate in Q3")
    text = objections_for_rerun(debate=debate, comment_codes=[risk.code, str(quote.code)])
    assert text == (
        "Objections the council must address:\n"
        '- On risk R1 ("Migration downtime"): We have a rollback plan.\n'
        '- On the passage "Migrate in Q3": Too late.'
    )


def test_unknown_deleted_or_foreign_comments_are_refused(debate, team, owner):
    other = make_debate(team, owner)
    foreign = comment_create(debate=other, author=owner, body="elsewhere")
    gone = comment_create(debate=debate, author=owner, body="gone")
    comment_delete(comment=gone, user=owner)
    for codes in ([], [foreign.code], [gone.code], ["not-a-uuid"]):
        with pytest.raises(CommentError):
            objections_for_rerun(debate=debate, comment_codes=codes)


def test_rerun_carries_the_objections_in_its_context(debate, owner, member):
    comment = comment_create(debate=debate, author=owner, body="Consider the audit.")
    rerun = debate_rerun_with_objections(debate=debate, user=member, comment_codes=[comment.code])
    assert rerun.parent == debate and rerun.question == debate.question
    assert rerun.created_by == member
    assert {**rerun.settings, "seed": 0, "simulator": None} == {
        **debate.settings, "seed": 0, "simulator": None}
    assert rerun.context.endswith("- On the synthesis: Consider the audit.")


def test_rerun_keeps_given_personas_and_their_library_links(team, owner):
    personas = [Persona(name=n, background="b", expertise="e", approach="a", bias="x")
                for n in ("Ana", "Ben")]
    debate = make_debate(team, owner, personas=personas, agents=2)
    debate.agents.filter(index=1).update(source_persona_id="5b1f0c8e-0d5e-4a43-9d53-2b0e3a1f7c11")
    comment = comment_create(debate=debate, author=owner, body="More data.")
    rerun = debate_rerun_with_objections(debate=debate, user=owner, comment_codes=[comment.code])
    assert rerun.given_personas == debate.given_personas
    assert [str(a) if a else None for a in rerun.agents.values_list("source_persona_id",
                                                                    flat=True)] == [
        None, "5b1f0c8e-0d5e-4a43-9d53-2b0e3a1f7c11"]


def test_carry_view_starts_the_rerun(member_client, debate, owner):
    comment = comment_create(debate=debate, author=owner, body="Consider the audit.")
    response = member_client.post(f"/debates/{debate.code}/comments/carry",
                                  {"comments": [str(comment.code)]})
    rerun = Debate.objects.get(parent=debate)
    assert response.status_code == 302 and str(rerun.code) in response["Location"]
    assert "Consider the audit." in rerun.context


def test_carry_view_refused_by_the_rate_limit_queues_nothing(member_client, debate, owner, team):
    team.debates_per_hour = 1
    team.save()
    comment = comment_create(debate=debate, author=owner, body="Consider the audit.")
    queued = OrmQ.objects.count()
    response = member_client.post(f"/debates/{debate.code}/comments/carry",
                                  {"comments": [str(comment.code)]}, follow=True)
    assert "Rate limit" in response.content.decode()
    assert Debate.objects.count() == 1 and OrmQ.objects.count() == queued


def test_carry_view_with_htmx_redirects_the_page(member_client, debate, owner):
    comment = comment_create(debate=debate, author=owner, body="x")
    response = member_client.post(f"/debates/{debate.code}/comments/carry",
                                  {"comments": [str(comment.code)]}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"]
