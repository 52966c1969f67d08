"""Accounts moved from council_site/accounts to a top-level package of its own; what a
database made before the move knows it by stays the same: the app label, its tables,
its content types and its migrations (so nothing new to migrate)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from accounts.models import ApiToken, Team


def test_the_app_is_the_top_level_package_under_its_old_label():
    config = apps.get_app_config("accounts")
    assert (config.name, config.label) == ("accounts", "accounts")
    assert (Team._meta.db_table, ApiToken._meta.db_table) == ("accounts_team",
                                                              "accounts_apitoken")


@pytest.mark.django_db
def test_content_types_and_migrations_keep_the_label():
    assert ContentType.objects.get_for_model(Team).app_label == "accounts"
    applied = MigrationLoader(connection).applied_migrations
    assert ("accounts", "0006_api_token_scopes") in applied
    out = StringIO()
    call_command("makemigrations", "accounts", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
