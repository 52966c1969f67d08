from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html

from collab.admin import ReviewedDebateAdmin
from debates.models import Debate
from decisions.models import Decision, DecisionVersion, Outcome
from decisions.selectors import decision_for_debate, decision_state


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


# Decisions build on collab's debate admin (reviews) as collab builds on debates'.
admin.site.unregister(Debate)


@admin.register(Debate)
class DecidedDebateAdmin(ReviewedDebateAdmin):
    """The team's decision, read-only, where staff review the debate. A field, not an
    inline: the change form's POST (reviews) then needs no extra formset, and the team
    changes its decision only through the service, which keeps the versions."""

    readonly_fields = [*ReviewedDebateAdmin.readonly_fields, "team_decision"]
    fieldsets = [ReviewedDebateAdmin.fieldsets[0],
                 ("Team decision", {"fields": ["team_decision"]}),
                 *ReviewedDebateAdmin.fieldsets[1:]]

    @admin.display(description="decision")
    def team_decision(self, debate: Debate) -> str:
        decision = decision_for_debate(debate=debate)
        if decision is None:
            return "No decision recorded."
        who = decision.decided_by.get_username() if decision.decided_by else "a former member"
        review = f"{decision.review_on:%Y-%m-%d}" if decision.review_on else "none"
        return format_html(
            "<strong>{}</strong> (version {}, {} by {}; review {}; {})<br>{}",
            decision.label, decision.version, f"{decision.decided_at:%Y-%m-%d}", who, review,
            decision_state(decision).replace("_", " "), decision.rationale)
