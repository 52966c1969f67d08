"""Comments in place on the parts of every protocol's result (the protocol's
``result_parts``): an adversarial debate's issues and final solution, a workflow's
summary, tensions and next steps land, are checked against the result and are
labelled with the part's text; the result pages offer "comment" beside each part."""

from __future__ import annotations

import pytest

from collab.selectors import debate_threads
from collab.services import CommentError, comment_create
from debates.engine import DebateConfig, ResultPart, get_protocol
from debates.models import DebateStatus
from debates.runtime.execution import run_to_completion
from debates.services import debate_create

ADV_QUESTION = "Design the API and database schema for a multi-tenant rate limiter"
WF_QUESTION = "Should we adopt a four-day week for support?"


def _finished(team, question: str, **config):
    """A debate of ``team`` run to the end on the simulator."""
    debate = debate_create(team=team, user=None, question=question,
                           config=DebateConfig(**config), start=False)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    return debate


@pytest.fixture
def adversarial(team):
    return _finished(team, ADV_QUESTION, protocol="adversarial", mode="medium", seed=3)


@pytest.fixture
def workflow(team):
    return _finished(team, WF_QUESTION, protocol="workflow", mode="deep", seed=1)


def _parts(debate) -> list[ResultPart]:
    protocol = get_protocol(debate.protocol)
    return protocol.result_parts(protocol.parse_result(debate.synthesis.result))


def _post(client, debate, data):
    return client.post(f"/api/debates/{debate.code}/comments", data,
                       content_type="application/json")


def _labels(client, debate) -> list[str]:
    return [t["target_label"] for t in client.get(f"/api/debates/{debate.code}/comments").json()]


def test_the_adversarial_result_parts_are_its_final_solution_and_its_issues(adversarial):
    result = get_protocol("adversarial").parse_result(adversarial.synthesis.result)
    parts = _parts(adversarial)
    assert parts[0] == ResultPart("recommendation", "recommendation", result.final_solution)
    assert [(p.ref, p.text) for p in parts[1:]] == [(i.id, i.title) for i in result.issues]
    assert {p.kind for p in parts[1:]} == {"issue"} and result.issues


def test_a_comment_on_an_adversarial_issue_lands_and_is_labelled(member_client, adversarial):
    issue = next(p for p in _parts(adversarial) if p.kind == "issue")
    response = _post(member_client, adversarial, {"body": "Is this real?", "target_kind": "issue",
                                                  "target_ref": issue.ref})
    assert response.status_code == 201, response.content
    text = " ".join(issue.text.split())
    assert _labels(member_client, adversarial) == [f'On issue {issue.ref} ("{text}")']


def test_a_comment_on_the_final_solution_is_on_the_recommendation(member, adversarial):
    comment_create(debate=adversarial, author=member, body="Ship it",
                   target_kind="recommendation", target_ref="")
    assert [t.label for t in debate_threads(debate=adversarial)] == ["On the recommendation"]


def test_an_issue_the_result_does_not_have_is_refused_with_those_it_has(member_client,
                                                                        adversarial):
    response = _post(member_client, adversarial, {"body": "x", "target_kind": "issue",
                                                  "target_ref": "I999"})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "I999" in detail and next(p.ref for p in _parts(adversarial)
                                     if p.kind == "issue") in detail


def test_the_workflow_result_parts_are_its_summary_tensions_and_next_steps(workflow):
    s = get_protocol("workflow").parse_result(workflow.synthesis.result).synthesis
    parts = _parts(workflow)
    assert parts[0] == ResultPart("recommendation", "recommendation", s.summary)
    assert [p.text for p in parts if p.kind == "tension"] == list(s.tensions)
    assert [(p.ref, p.text) for p in parts if p.kind == "next_step"] == [
        (f"N{n}", text) for n, text in enumerate(s.next_steps, 1)]


def test_a_comment_on_a_workflow_next_step_lands_and_is_labelled(member_client, member, workflow):
    step = next(p for p in _parts(workflow) if p.kind == "next_step")
    response = _post(member_client, workflow, {"body": "Who owns this?",
                                               "target_kind": "next_step",
                                               "target_ref": step.ref})
    assert response.status_code == 201, response.content
    comment_create(debate=workflow, author=member, body="Agreed", target_kind="recommendation")
    text = " ".join(step.text.split())
    assert _labels(member_client, workflow) == [f'On next step {step.ref} ("{text}")',
                                                "On the recommendation"]


def test_a_kind_of_part_another_protocol_has_is_refused(member, workflow):
    with pytest.raises(CommentError, match="no risk 'R1'"):
        comment_create(debate=workflow, author=member, body="x", target_kind="risk",
                       target_ref="R1")


@pytest.mark.parametrize("fixture, kind", [("adversarial", "issue"), ("workflow", "next_step")])
def test_the_result_page_offers_comment_beside_each_part(request, member_client, member,
                                                         fixture, kind):
    debate = request.getfixturevalue(fixture)
    part = next(p for p in _parts(debate) if p.kind == kind)
    comment_create(debate=debate, author=member, body="On it", target_kind=kind,
                   target_ref=part.ref)
    page = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    for p in _parts(debate):
        assert (f"?target_kind={p.kind}&amp;target_ref={p.ref}#new-comment") in page
    assert '<a class="comment-count no-print"' in page and "1 comment</a>" in page


def test_a_viewer_sees_no_comment_link(viewer_client, adversarial):
    page = viewer_client.get(f"/debates/{adversarial.code}/synthesis").content.decode()
    assert "#new-comment" not in page


def test_a_kind_of_part_no_built_in_protocol_has_is_taken(monkeypatch, member, workflow):
    """A plugin's protocol names the kinds of its parts: comments take them as they come."""
    protocol = get_protocol("workflow")
    monkeypatch.setattr(type(protocol), "result_parts",
                        lambda self, result: [ResultPart("omen", "O1", "A raven")])
    comment_create(debate=workflow, author=member, body="Hm", target_kind="omen",
                   target_ref="O1")
    assert [t.label for t in debate_threads(debate=workflow)] == ['On omen O1 ("A raven")']
    with pytest.raises(CommentError, match="Unknown target 'haiku'; expected one of "
                                           "synthesis, quote, omen"):
        comment_create(debate=workflow, author=member, body="x", target_kind="haiku")


def test_the_form_offers_the_kinds_of_part_the_result_has(member_client, workflow):
    panel = member_client.get(f"/debates/{workflow.code}/comments/").content.decode()
    about = panel[panel.index('id="id_target_kind"'):].split("</select>")[0]
    assert 'value="next_step"' in about and 'value="tension"' in about
    assert 'value="risk"' not in about and 'value="quote"' not in about
