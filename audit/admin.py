"""The admin reads every team's audit log and changes none of it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("at", "action", "actor", "team", "target_kind", "target_code", "ip")
    list_filter = ("action", "actor_kind")
    search_fields = ("action", "actor", "target_code", "=debate_code")
    date_hierarchy = "at"
    list_select_related = ("team",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
