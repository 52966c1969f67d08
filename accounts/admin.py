from django.contrib import admin
from django.http import HttpRequest

from accounts.models import Invitation, Membership, Team, VerifiedEmail


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "monthly_budget_usd", "debate_cost_cap_usd",
                    "debates_per_hour", "allow_unpriced_models", "created_at"]
    search_fields = ["name", "code"]
    readonly_fields = ["code", "created_at"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["team", "user", "role", "created_at"]
    list_filter = ["role"]
    search_fields = ["team__name", "user__username"]
    autocomplete_fields = ["team", "user"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["team", "email", "role", "status", "expires_at", "accepted_by"]
    list_filter = ["role"]
    search_fields = ["team__name", "email"]
    readonly_fields = ["code", "digest", "created_at", "accepted_by", "accepted_at"]
    autocomplete_fields = ["team"]


@admin.register(VerifiedEmail)
class VerifiedEmailAdmin(admin.ModelAdmin):
    """Who confirmed which address; an admin may delete a row to require confirming again."""

    list_display = ["user", "email", "verified_at"]
    search_fields = ["user__username", "email"]
    readonly_fields = ["user", "email", "verified_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # only the mailed link proves an address
