from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from collab.admin import ReviewedDebateAdmin
from debates.models import Debate
from decisions.models import Decision, DecisionVersion, Outcome


class DecisionVersionInline(admin.TabularInline):
    model = DecisionVersion
    extra = 0
    can_delete = False
    fields = readonly_fields = ("version", "option", "choice", "rationale", "decided_by",
                                "decided_at", "review_on")

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class OutcomeInline(admin.TabularInline):
    """The reviews of the decision, read-only: recorded by the team through the service."""

    model = Outcome
    extra = 0
    can_delete = False
    fields = readonly_fields = ("recorded_at", "recorded_by", "right_option", "result",
                                "notes", "review_again_on")

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin):
    list_display = ["debate", "option", "choice", "decided_by", "decided_at", "review_on",
                    "version", "reviewed_at"]
    list_filter = ["review_on"]
    search_fields = ["option", "choice", "rationale", "debate__question"]
    # Read-only: a change goes through the service, which keeps the earlier version.
    readonly_fields = ["code", "debate", "option", "choice", "rationale", "decided_by",
                       "decided_at", "review_on", "version", "reviewed_at", "created_at"]
    inlines = [DecisionVersionInline, OutcomeInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class DecisionInline(admin.StackedInline):
    """The team's decision, read-only, on the debate's admin page (where staff review
    the debate): changed only by the team, through the service, so versions are kept."""

    model = Decision
    extra = 0
    can_delete = False
    fields = readonly_fields = ("option", "choice", "rationale", "decided_by", "decided_at",
                                "review_on", "version", "reviewed_at")

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


# Decisions build on collab's debate admin (reviews) as collab builds on debates'.
admin.site.unregister(Debate)


@admin.register(Debate)
class DecidedDebateAdmin(ReviewedDebateAdmin):
    inlines = [DecisionInline, *ReviewedDebateAdmin.inlines]
