"""The OpenAPI schema, generated from the NinjaAPI instance and walked route by route:
every operation documents its parameters, its request body, its success response
and its error responses, and every error response is the one ApiError body."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api_kit.errors import ApiError, error_body
from council_site.api import api

METHODS = {"get", "post", "put", "patch", "delete"}
ERROR_REF = "#/components/schemas/ApiError"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return api.get_openapi_schema()


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in schema["paths"].items()
            for method, op in ops.items() if method in METHODS]


def _has_schema(media: dict[str, Any]) -> bool:
    return bool(media) and all(isinstance(m.get("schema"), dict) and m["schema"]
                               for m in media.values())


def test_every_ninja_operation_is_in_the_schema(schema):
    routed = sum(len(op.methods) for _, router in api._routers
                 for view in router.path_operations.values() for op in view.operations)
    assert len(_operations(schema)) == routed > 40


def _request_and_response_problems(path: str, method: str, op: dict) -> list[str]:
    """What one operation leaves undocumented: its one success response's schema, its
    parameters' schemas and names, its request body."""
    where = f"{method.upper()} {path}"
    responses = op["responses"]
    assert all(isinstance(k, str) for k in responses), where
    problems = []
    successes = [s for s in responses if s.startswith("2")]
    if len(successes) != 1:
        problems.append(f"{where}: {len(successes)} success responses")
    problems += [f"{where}: {status} has no response schema" for status in successes
                 if not _has_schema(responses[status].get("content", {}))]
    problems += [f"{where}: parameter {param['name']} has no schema"
                 for param in op.get("parameters", []) if not param.get("schema")]
    if "{" in path:
        declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
        named = {part.strip("{}") for part in path.split("/") if part.startswith("{")}
        if declared != named:
            problems.append(f"{where}: path parameters {declared} != {named}")
    if "requestBody" in op:
        if not _has_schema(op["requestBody"].get("content", {})):
            problems.append(f"{where}: request body has no schema")
    elif method in {"put", "patch"}:
        problems.append(f"{where}: no request body")
    return problems


def test_every_route_documents_request_and_responses(schema):
    problems = [problem for path, method, op in _operations(schema)
                for problem in _request_and_response_problems(path, method, op)]
    assert not problems, "\n".join(problems)


def test_every_route_documents_its_refusals_in_the_one_shape(schema):
    problems = []
    for path, method, op in _operations(schema):
        where = f"{method.upper()} {path}"
        responses = op["responses"]
        expected = {"500"}
        if op.get("security"):
            expected |= {"401", "403"}
        if "{" in path:
            expected.add("404")
        if "requestBody" in op or any(p["in"] == "query" for p in op.get("parameters", [])):
            expected |= {"400", "422"}
        if missing := expected - set(responses):
            problems.append(f"{where}: undocumented {sorted(missing)}")
        for status, response in responses.items():
            if int(status) < 400:
                continue
            content = response.get("content", {})
            if list(content) != ["application/json"] or \
                    content["application/json"]["schema"] != {"$ref": ERROR_REF}:
                problems.append(f"{where}: {status} is not an ApiError")
    assert not problems, "\n".join(problems)


def test_routes_declare_their_own_refusals(schema):
    """The refusals a route returns itself are declared on it (a sample)."""
    paths = schema["paths"]
    assert "409" in paths["/api/debates/{code}/cancel"]["post"]["responses"]
    assert "409" in paths["/api/personas/{code}/versions/{number}/restore"]["post"]["responses"]
    assert "400" in paths["/api/debates/{code}/comments/carry"]["post"]["responses"]
    assert "404" in paths["/api/debates/compare"]["get"]["responses"]


def test_the_documented_error_schema_is_the_body_the_api_sends(schema):
    documented = schema["components"]["schemas"]["ApiError"]
    assert set(documented["required"]) == set(error_body(404, "x"))
    ApiError.model_validate(error_body(422, "field: bad", {"field": ["bad"]}))


def test_the_served_schema_has_no_duplicate_keys(client, db):
    """openapi_extra used to add a second "200" next to ninja's own (invalid JSON for
    strict parsers, and which one wins is up to the client)."""
    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), f"duplicate keys: {keys}"
        return dict(pairs)

    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    served = json.loads(response.content, object_pairs_hook=no_duplicates)
    md = served["paths"]["/api/debates/{code}/export.md"]["get"]["responses"]["200"]
    assert list(md["content"]) == ["text/markdown"]


# Clients generated from the schema name their methods after these ids, and ninja
# derives an id from the view's module: moving a route to another module renames it.
DEBATE_OPERATION_IDS = {
    ("get", "/api/debates/"): "debates_api_list_debates",
    ("post", "/api/debates/"): "debates_api_create_debate",
    ("get", "/api/debates/{code}"): "debates_api_get_debate",
    ("get", "/api/debates/{code}/synthesis"): "debates_api_get_synthesis",
    ("post", "/api/debates/{code}/cancel"): "debates_api_cancel_debate",
    ("post", "/api/debates/{code}/stop"): "debates_api_stop_debate",
    ("get", "/api/debates/{code}/events"): "debates_api_list_events",
    ("get", "/api/debates/{code}/events/wait"): "debates_api_events_wait_events",
    ("get", "/api/debates/{code}/events/stream"): "debates_api_events_stream_events",
    ("get", "/api/debates/compare"): "debates_api_compare_compare",
    ("get", "/api/debates/schemas/result"): "debates_api_actions_result_schema",
    ("get", "/api/debates/protocols"): "debates_api_actions_protocols",
    ("post", "/api/debates/{code}/more-round"): "debates_api_actions_more_round",
    ("post", "/api/debates/{code}/rerun"): "debates_api_actions_rerun",
    ("get", "/api/debates/{code}/export.md"): "debates_api_actions_export_markdown",
    ("get", "/api/debates/{code}/export.json"): "debates_api_actions_export_json",
}


def test_the_debate_routes_keep_their_operation_ids(schema):
    ids = {(method, path): op["operationId"] for path, method, op in _operations(schema)
           if op["operationId"].startswith("debates_")}
    assert ids == DEBATE_OPERATION_IDS


def test_the_document_validates_as_the_openapi_version_it_declares(schema):
    from openapi_spec_validator import validate

    # Through JSON, as a client reads /api/openapi.json (no Python-only values).
    validate(json.loads(json.dumps(schema)))
