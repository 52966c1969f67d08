"""/healthz for load balancers and /api/health describing the running configuration."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_healthz_answers_ok_in_plain_text(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert response.content == b"ok\n"


@pytest.mark.django_db
def test_healthz_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/accounts/login/").status_code == 301


@pytest.mark.django_db
def test_api_health_reports_embedded_configuration(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "sqlite",
        "broker": "orm",
        "model": "sim/default",
    }


@pytest.mark.django_db
def test_api_health_reports_configured_model(client, settings):
    settings.COUNCIL_MODEL = "anthropic/claude-x"
    assert client.get("/api/health").json()["model"] == "anthropic/claude-x"


@pytest.mark.django_db
def test_api_health_needs_no_login(client):
    assert client.get("/api/health").status_code == 200
