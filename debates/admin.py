"""Admin review of past debates: find them, read transcripts and the LLM ledger,
and re-run or cancel them in bulk. Debates themselves are read-only here;
everything that changes one goes through debates.services. Reviews (ratings) are
collab's: collab/admin.py extends ``DebateAdmin`` with them, so debates imports
nothing from collab."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet, Sum
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html

from audit.selectors import debate_trail
from debates import services
from debates.limits import LimitExceeded
from debates.models import Agent, Debate, LLMCall
from view_kit.http import AuthenticatedHttpRequest


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AgentInline(ReadOnlyInline):
    model = Agent
    # A tuple: django-stubs types ``fields`` and ``readonly_fields`` differently, and
    # only an immutable sequence fits both.
    fields = ("index", "name", "model", "source_persona_id")
    readonly_fields = fields


class LLMCallInline(ReadOnlyInline):
    model = LLMCall
    verbose_name_plural = "LLM call ledger"
    classes = ["collapse"]
    fields = ("phase", "round", "agent_index", "attempt", "purpose", "model", "prompt_tokens",
              "completion_tokens", "cost_usd", "latency_ms", "ok", "error_class")
    readonly_fields = fields


class StopReasonFilter(admin.SimpleListFilter):
    """Stop reasons in words ("genuine disagreement"), not identifiers."""

    title = "stop reason"
    parameter_name = "stop_reason__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        values = Debate.objects.exclude(stop_reason="").values_list("stop_reason", flat=True)
        return [(v, _words(v)) for v in sorted(set(values))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Debate]) -> QuerySet[Debate]:
        return queryset.filter(stop_reason=self.value()) if self.value() else queryset


def _words(identifier: str) -> str:
    return identifier.replace("_", " ")


class CostFilter(admin.SimpleListFilter):
    title = "cost"
    parameter_name = "cost"
    RANGES = {
        "zero": ("$0 (simulated or free)", Q(cost_usd__lte=0)),
        "lt0.10": ("under $0.10", Q(cost_usd__gt=0, cost_usd__lt=0.10)),
        "lt1": ("$0.10 – $1", Q(cost_usd__gte=0.10, cost_usd__lt=1)),
        "lt10": ("$1 – $10", Q(cost_usd__gte=1, cost_usd__lt=10)),
        "gte10": ("$10 and more", Q(cost_usd__gte=10)),
    }

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(key, label) for key, (label, _) in self.RANGES.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Debate]) -> QuerySet[Debate]:
        chosen = self.RANGES.get(self.value() or "")
        return queryset.filter(chosen[1]) if chosen else queryset


@admin.register(Debate)
class DebateAdmin(admin.ModelAdmin):
    class Media:
        css = {"all": ("css/admin.css",)}  # the transcript's layout (no style attributes)

    list_display = ["short_question", "team", "protocol", "mode", "status_label",
                    "stop_reason_label", "degraded", "cost", "created_at", "site_link"]
    list_filter = ["team", "protocol", "status", StopReasonFilter, "degraded", CostFilter,
                   "mode", "simulated"]
    date_hierarchy = "created_at"
    search_fields = ["question"]
    list_select_related = ["team"]
    ordering = ["-created_at"]
    actions = ["rerun_debates", "cancel_debates"]
    # The transcript is one read-only field (readable turns by phase and round), not an
    # inline of JSON rows: the change page stays short until a turn is opened.
    inlines = [AgentInline, LLMCallInline]
    readonly_fields = [
        "code", "team", "created_by", "parent", "question", "context", "protocol", "mode",
        "status", "current_step", "stop_reason", "stop_explanation", "error", "degraded",
        "simulated", "prompt_version", "calls", "prompt_tokens", "completion_tokens",
        "cost_usd", "wall_time_s", "created_at", "started_at", "finished_at", "ledger_totals",
        "settings_json", "synthesis_json", "site_link", "status_label", "stop_reason_label",
        "transcript", "audit_trail",
    ]
    fieldsets = [
        (None, {"fields": [("code", "site_link"), ("team", "created_by", "parent"), "question",
                           "context"]}),
        ("Outcome", {"fields": [("status_label", "stop_reason_label", "degraded"),
                                "stop_explanation", "error",
                                ("created_at", "started_at", "finished_at")]}),
        ("Cost", {"fields": ["ledger_totals", ("calls", "prompt_tokens", "completion_tokens"),
                             ("cost_usd", "wall_time_s")]}),
        ("Transcript", {"fields": ["transcript"]}),
        # Who did what to the debate and on it, beside what it said (docs/teams.md).
        ("Audit trail", {"fields": ["audit_trail"]}),
        ("Configuration", {"classes": ["collapse"],
                           "fields": ["protocol", "mode", "simulated", "prompt_version",
                                      "settings_json"]}),
        ("Synthesis", {"classes": ["collapse"], "fields": ["synthesis_json"]}),
    ]

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Debate], search_term: str
    ) -> tuple[QuerySet[Debate], bool]:
        # A pasted code (with or without dashes) finds its debate; icontains on a UUID
        # column would not match across databases.
        try:
            code = uuid.UUID(search_term.strip())
        except ValueError:
            return super().get_search_results(request, queryset, search_term)
        return queryset.filter(code=code), False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="question", ordering="question")
    def short_question(self, debate: Debate) -> str:
        return debate.question[:90]

    @admin.display(description="cost", ordering="cost_usd")
    def cost(self, debate: Debate) -> str:
        if debate.simulated:
            return "free (simulated)"
        return f"${debate.cost_usd:.4f}"

    @admin.display(description="status", ordering="status")
    def status_label(self, debate: Debate) -> str:
        step = f" (now: {_words(debate.current_step)})" if debate.current_step else ""
        # A class, coloured in css/admin.css: the CSP refuses style attributes.
        return format_html('<strong class="admin-status-{}">{}</strong>{}',
                           debate.status, debate.get_status_display(), step)

    @admin.display(description="stop reason", ordering="stop_reason")
    def stop_reason_label(self, debate: Debate) -> str:
        return _words(debate.stop_reason) or "—"

    @admin.display(description="on the site")
    def site_link(self, debate: Debate) -> str:
        # Staff who are not in the debate's team get a 404 there, as anyone outside it.
        return format_html('<a href="{}" target="_blank" rel="noopener">debate page</a>',
                           reverse("debates:detail", args=[debate.code]))

    def view_on_site(self, debate: Debate) -> str:
        return reverse("debates:detail", args=[debate.code])

    @admin.display(description="transcript")
    def transcript(self, debate: Debate) -> str:
        from debates.selectors import debate_detail
        from debates.web.transcript_page import transcript_sections

        detailed = debate_detail(team=debate.team, code=debate.code)
        raw = [(t.phase, t.round, t.agent_index,
                json.dumps(t.payload, indent=2, ensure_ascii=False))
               for t in detailed.turns.all() if t.payload is not None]
        # The template escapes every value: LLM output is untrusted.
        return render_to_string("admin/debates/_transcript.html", {
            "debate": detailed, "sections": transcript_sections(detailed), "raw": raw})

    @admin.display(description="audit trail")
    def audit_trail(self, debate: Debate) -> str:
        return render_to_string("admin/debates/_audit_trail.html", {
            "events": debate_trail(debate_code=debate.code)})

    @admin.display(description="ledger totals")
    def ledger_totals(self, debate: Debate) -> str:
        totals = debate.llm_calls.aggregate(
            calls=Count("id"), failed=Count("id", filter=Q(ok=False)),
            prompt=Sum("prompt_tokens"), completion=Sum("completion_tokens"),
            cost=Sum("cost_usd"),
        )
        return (f"{totals['calls']} calls ({totals['failed']} failed), "
                f"{totals['prompt'] or 0} prompt + {totals['completion'] or 0} completion "
                f"tokens, ${totals['cost'] or 0:.4f}")

    @admin.display(description="settings")
    def settings_json(self, debate: Debate) -> str:
        return format_html("<pre class='admin-json'>{}</pre>",
                           json.dumps(debate.settings, indent=2, ensure_ascii=False))

    @admin.display(description="synthesis")
    def synthesis_json(self, debate: Debate) -> str:
        synthesis = getattr(debate, "synthesis", None)
        if synthesis is None:
            return "—"
        return format_html("<pre class='admin-json'>{}</pre>",
                           json.dumps(synthesis.result, indent=2, ensure_ascii=False))

    @admin.action(description="Re-run selected debates")
    def rerun_debates(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Debate]) -> None:
        started, refused = [], []
        for debate in queryset.select_related("team"):
            try:
                rerun = services.debate_rerun(debate=debate, user=request.user)
            except (LimitExceeded, ValueError) as exc:
                refused.append(f"{debate.code}: {exc}")
            else:
                started.append(str(rerun.code))
        self._report(request, "Re-ran", started, refused)

    @admin.action(description="Cancel selected debates")
    def cancel_debates(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Debate]) -> None:
        cancelled, refused = [], []
        for debate in queryset:
            try:
                services.debate_cancel(debate=debate, user=request.user)
            except services.IllegalTransition as exc:
                refused.append(f"{debate.code}: {exc}")
            else:
                cancelled.append(str(debate.code))
        self._report(request, "Cancelled", cancelled, refused)

    def _report(self, request: HttpRequest, verb: str, done: list[str], refused: list[str]) -> None:
        if done:
            self.message_user(request, f"{verb} {len(done)} debate(s).", messages.SUCCESS)
        if refused:
            self.message_user(request, f"Refused {len(refused)}: " + "; ".join(refused),
                              messages.WARNING)
