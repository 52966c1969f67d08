"""Migration 0005 hashes the secrets of invitations made before it, in place, so the
links already sent keep working while the database no longer holds them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts import selectors

BEFORE = [("accounts", "0003_api_tokens")]


@pytest.mark.django_db(transaction=True)
def test_links_sent_before_the_migration_still_open_their_invitation():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    team = old.get_model("accounts", "Team").objects.create(name="Legacy")
    invitation = old.get_model("accounts", "Invitation").objects.create(
        team=team, role="editor", token="a-link-mailed-last-week",
        expires_at=timezone.now() + timedelta(days=3))

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    found = selectors.invitation_by_token(token="a-link-mailed-last-week")
    assert found is not None and found.code == invitation.code
    assert found.digest != "a-link-mailed-last-week"
    assert selectors.invitation_by_token(token="another-secret") is None
