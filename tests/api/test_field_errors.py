"""Every refusal of one bad input names that input in ``errors``, as the route's request
schema names it (docs/api.md, "Errors"): a script sees what to mend without parsing
the words. Each case sends one bad field to one route and expects exactly that key."""

from __future__ import annotations

import base64
import json
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from collab.services import comment_create
from debates.debate_sources import Upload
from debates.engine import Persona
from debates.models import Debate
from decisions.services import decision_record
from personas.services import library_create, persona_create
from sources.services import sources_upload
from tests.decisions.conftest import OPTIONS, finish
from tests.factories import make_debate

pytestmark = pytest.mark.django_db

PERSONA = {"name": "Dana", "background": "CFO", "expertise": "Pricing",
           "approach": "Downside first", "bias": "Cautious"}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@dataclass
class World:
    """What the routes refer to: a finished debate with options and a comment, a
    library with a persona, another library, a source."""

    debate: str
    comment: str
    library: str
    persona: str
    source: str


@pytest.fixture
def world(team, owner, member, settings, tmp_path) -> World:
    settings.MEDIA_ROOT = tmp_path / "media"
    debate = finish(make_debate(team, owner))
    comment = comment_create(debate=debate, author=member, body="Why not Q3?")
    library = library_create(team=team, user=owner, name="Finance")
    library_create(team=team, user=owner, name="Taken")
    persona_create(library=library, user=owner, data=Persona(**PERSONA))
    other = persona_create(library=library, user=owner, data=Persona(**{**PERSONA, "name": "Ravi"}))
    [version] = sources_upload(team=team, user=owner, files=[Upload("costs.txt", b"Kafka")])
    return World(str(debate.code), str(comment.code), str(library.code), str(other.code),
                 str(version.source.code))


def _decided(world: World, owner: Any) -> None:
    decision_record(debate=Debate.objects.get(code=world.debate), user=owner,
                    option=OPTIONS[2], rationale="Too risky.")


# (route, method, path with {placeholders} of World, body, the field errors names)
CASES = [
    ("library create", "post", "/api/personas/libraries", {"name": "   "}, "name"),
    ("library update", "patch", "/api/personas/libraries/{library}", {"name": "taken"}, "name"),
    ("library fork", "post", "/api/personas/libraries/{library}/fork", {"name": "Taken"},
     "name"),
    ("persona create", "post", "/api/personas/libraries/{library}/personas",
     {**PERSONA, "name": "dana"}, "name"),
    ("persona model", "post", "/api/personas/libraries/{library}/personas",
     {**PERSONA, "name": "Lee", "model": "nosuchmodel-xyz"}, "model"),
    ("persona update", "put", "/api/personas/{persona}", {**PERSONA, "name": "DANA"}, "name"),
    ("persona import", "post", "/api/personas/libraries/{library}/import",
     {"filename": "panel.yaml", "text": "- name: Lee\n"}, "text"),
    ("comment body", "post", "/api/debates/{debate}/comments", {"body": "   "}, "body"),
    ("comment target kind", "post", "/api/debates/{debate}/comments",
     {"body": "x", "target_kind": "nope"}, "target_kind"),
    ("comment target ref", "post", "/api/debates/{debate}/comments",
     {"body": "x", "target_kind": "risk", "target_ref": "R9"}, "target_ref"),
    ("comment quote", "post", "/api/debates/{debate}/comments",
     {"body": "x", "target_kind": "quote", "quote": "words nowhere in it"}, "quote"),
    ("comment parent", "post", "/api/debates/{debate}/comments",
     {"body": "x", "parent": str(uuid.uuid4())}, "parent"),
    ("comment edit", "patch", "/api/debates/{debate}/comments/{comment}", {"body": "  "},
     "body"),
    ("comments carried", "post", "/api/debates/{debate}/comments/carry",
     {"comments": [str(uuid.uuid4())]}, "comments"),
    ("source kind", "post", "/api/sources/",
     {"filename": "tool.exe", "content_base64": b64(b"MZ")}, "filename"),
    ("source not base64", "post", "/api/sources/",
     {"filename": "notes.txt", "content_base64": "no, not base64!"}, "content_base64"),
    ("source content", "post", "/api/sources/",
     {"filename": "costs.pdf", "content_base64": b64(b"plain words")}, "content_base64"),
    ("source version", "post", "/api/sources/{source}/versions",
     {"filename": "costs.txt", "content_base64": ""}, "content_base64"),
    ("decision option", "post", "/api/debates/{debate}/decision",
     {"option": "Rewrite it", "rationale": "r"}, "option"),
    ("decision both", "post", "/api/debates/{debate}/decision",
     {"option": "Stay", "choice": "Split it", "rationale": "r"}, "choice"),
    ("decision rationale", "post", "/api/debates/{debate}/decision",
     {"option": "Stay", "rationale": "   "}, "rationale"),
    ("decision review", "post", "/api/debates/{debate}/decision",
     {"option": "Stay", "rationale": "r", "review_on": "2000-01-01"}, "review_on"),
    ("outcome option", "post", "/api/debates/{debate}/outcome",
     {"right_option": "Rewrite", "result": "worked"}, "right_option"),
    ("outcome result", "post", "/api/debates/{debate}/outcome",
     {"right_option": "Stay"}, "result"),
    ("outcome look again", "post", "/api/debates/{debate}/outcome",
     {"right_option": None, "review_again_on": "2000-01-01"}, "review_again_on"),
    ("outcome look again with option", "post", "/api/debates/{debate}/outcome",
     {"right_option": "Stay", "result": "worked", "review_again_on": "2100-01-01"},
     "review_again_on"),
    ("debate panel model", "post", "/api/debates/",
     {"question": "Kafka or SQS?", "panel_models": ["sim/a", "nosuchmodel-xyz"]},
     "panel_models"),
    ("evaluation set", "post", "/api/evaluations/", {"set": "nope"}, "set"),
    ("evaluation model", "post", "/api/evaluations/", {"set": "compare", "model": "  "},
     "model"),
    ("evaluation no upload", "post", "/api/evaluations/", {"set": "upload"}, "upload"),
    ("evaluation upload base64", "post", "/api/evaluations/",
     {"set": "upload", "upload": {"filename": "q.jsonl", "content": "no!",
                                  "content_encoding": "base64"}}, "upload.content"),
]


@pytest.mark.parametrize("method, path, body, field",
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_bad_field_is_named_in_errors(member_client, owner, world, method, path, body,
                                        field):
    if "/outcome" in path:
        _decided(world, owner)
    response = getattr(member_client, method)(path.format(**vars(world)), json.dumps(body),
                                              content_type="application/json")
    assert response.status_code == 400, response.content
    error = response.json()
    assert list(error["errors"]) == [field], error
    assert error["errors"][field] and error["code"] == "bad_request"


def test_a_refusal_of_no_one_field_names_none(member_client, world):
    """A state, not an input: an outcome before any decision, an edit of a deleted
    comment."""
    outcome = member_client.post(f"/api/debates/{world.debate}/outcome",
                                 json.dumps({"right_option": "Stay", "result": "worked"}),
                                 content_type="application/json")
    assert outcome.status_code == 400 and outcome.json()["errors"] == {}
    comment = f"/api/debates/{world.debate}/comments/{world.comment}"
    assert member_client.delete(comment).status_code == 200
    edit = member_client.patch(comment, json.dumps({"body": "Again"}),
                               content_type="application/json")
    assert edit.status_code == 400 and edit.json()["errors"] == {}, edit.content
    assert "deleted" in edit.json()["message"]
