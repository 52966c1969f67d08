"""Every JSON answer of the OpenAPI walk validates against the schema its operation
declares for that status. Two shapes once shared the name ``VersionOut`` (a persona's
version and a decision's), so the document described the persona version routes with
the decision's fields (issue 27); names are unique now, and this walk would see the
next such drift."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any, get_args

import jsonschema
import pytest
from pydantic import BaseModel

from council_site.api import api
from debates.engine.schemas import Persona
from decisions.services import decision_record
from evaluations import runner as evaluation_runner
from evaluations.services import EvaluationRequest, evaluation_start
from personas.services import library_create, persona_create, persona_update
from tests.decisions.conftest import finish
from tests.factories import make_debate

# Streams, not one JSON answer (the audit export's lines are checked in tests/audit).
SKIPPED = {"/api/debates/{code}/events/stream", "/api/audit/export.jsonl"}


def _models_in(annotation: Any, found: set[type[BaseModel]]) -> None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in found:
            return
        found.add(annotation)
        for field in annotation.model_fields.values():
            _models_in(field.annotation, found)
    for arg in get_args(annotation):
        _models_in(arg, found)


def test_every_schema_of_the_api_has_a_name_of_its_own():
    """ninja names a component after its class: two classes of one name are one
    component in the document, whichever was written last."""
    found: set[type[BaseModel]] = set()
    for _, router in api._routers:
        for view in router.path_operations.values():
            for operation in view.operations:
                for model in operation.response_models.values():
                    _models_in(model, found)
                for model in operation.models:
                    _models_in(model, found)
    by_name: dict[str, set[str]] = defaultdict(set)
    for model in found:
        by_name[model.__name__].add(f"{model.__module__}.{model.__qualname__}")
    shared = {name: sorted(where) for name, where in by_name.items() if len(where) > 1}
    assert not shared, shared


@pytest.fixture
def world(team, owner, owner_client):
    debate = finish(make_debate(team, owner))
    decision_record(debate=debate, user=owner, choice="Ship in May", rationale="Cheaper")
    library = library_create(team=team, user=owner, name="Main")
    fields = {"name": "Dana", "background": "CFO", "expertise": "Pricing",
              "approach": "Downside first", "bias": "Cautious"}
    persona = persona_create(library=library, user=owner, data=Persona(**fields))
    persona_update(persona=persona, user=owner, data=Persona(**{**fields, "bias": "Bold"}))
    comment = owner_client.post(f"/api/debates/{debate.code}/comments", {"body": "Why May?"},
                                content_type="application/json")
    assert comment.status_code == 201, comment.content
    from sources.models import Source, SourceVersion

    source = Source.objects.create(team=team, title="Costs")
    SourceVersion.objects.create(source=source, number=1, filename="costs.md", sha256="0" * 64,
                                 size=9, kind="markdown", status="ready", text="Kafka: 9")
    evaluation = evaluation_start(team=team, user=owner, request=EvaluationRequest(
        set_name="compare", n=3, sim_accuracy=0.6))
    while evaluation_runner.run(evaluation.code):
        pass
    from webhooks.services import endpoint_create

    webhook, _ = endpoint_create(team=team, user=owner, url="https://93.184.215.14/hook")
    return {"/api/evaluations/": evaluation.code, "/api/sources/": source.code,
            "/api/webhooks/": webhook.code,
            "/api/teams/": team.code, "/api/personas/libraries/": library.code,
            "/api/personas/": persona.code, "/api/debates/": debate.code,
            "comment": comment.json()["code"], "number": 1}


def _url(path: str, world: dict[str, Any]) -> str:
    prefix = max((p for p in world if p.startswith("/") and path.startswith(p + "{")),
                 key=len, default=None)
    url = path.replace("{code}", str(world[prefix])) if prefix else path
    return re.sub(r"\{(\w+)\}", lambda m: str(world[m.group(1)]), url)


def _declared(document: dict[str, Any], op: dict[str, Any], status: int) -> dict[str, Any]:
    response = op["responses"].get(str(status))
    assert response is not None, f"status {status} is not declared"
    schema = response["content"]["application/json"]["schema"]
    return {**schema, "components": document["components"]}


def test_every_get_answer_matches_its_declared_schema(owner_client, world):
    document = api.get_openapi_schema()
    problems, checked = [], 0
    for path, operations in document["paths"].items():
        op = operations.get("get")
        if op is None or path in SKIPPED:
            continue
        query = {"a": world["/api/debates/"], "b": world["/api/debates/"]} \
            if path == "/api/debates/compare" else {}
        response = owner_client.get(_url(path, world), query)
        if "json" not in response.get("Content-Type", ""):
            continue
        try:
            jsonschema.validate(response.json(), _declared(document, op, response.status_code))
        except (jsonschema.ValidationError, AssertionError) as exc:
            problems.append(f"GET {path} ({response.status_code}): "
                            f"{getattr(exc, 'message', exc)}")
        checked += response.status_code == 200
    assert not problems, "\n".join(problems)
    assert checked >= 20


@pytest.mark.django_db
def test_every_event_of_the_stream_matches_its_declared_schema(owner, team):
    """The stream was declared as one string; a client (or schemathesis) parses it
    into events of id, event and data, and each is checked against the declaration."""
    from tests.api.test_events import bearer, finished, sse_frames

    debate = finished(team, owner)
    response = bearer(owner).get(f"/api/debates/{debate.code}/events/stream")
    content = api.get_openapi_schema()["paths"]["/api/debates/{code}/events/stream"]["get"][
        "responses"]["200"]["content"]["text/event-stream"]
    events = [frame for frame in sse_frames(response) if "data" in frame]
    assert len(events) == 4
    for event in events:
        jsonschema.validate(event, content["schema"])
