from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from collab.models import Action, ClaimCheck, Comment, DebateReview
from debates.admin import DebateAdmin
from debates.models import Debate


@admin.register(DebateReview)
class DebateReviewAdmin(admin.ModelAdmin):
    list_display = ["debate", "rating", "hallucination", "unsafe", "low_quality", "excellent",
                    "reviewer", "created_at"]
    list_filter = ["rating", "hallucination", "unsafe", "low_quality", "excellent"]
    search_fields = ["debate__question", "notes"]
    raw_id_fields = ["debate"]
    readonly_fields = ["reviewer", "created_at"]

    def save_model(self, request: HttpRequest, obj: DebateReview, form: Any, change: bool
                   ) -> None:
        # The admin site lets only signed-in staff this far; the check narrows the type.
        if obj.reviewer_id is None and request.user.is_authenticated:
            obj.reviewer = request.user
        super().save_model(request, obj, form, change)


@admin.register(Comment)
class CommentAdmin(admin.ModelAdmin):
    list_display = ["code", "debate", "author", "target_kind", "target_ref", "created_at",
                    "deleted_at", "resolved_at"]
    list_filter = ["target_kind"]
    search_fields = ["body"]
    raw_id_fields = ["debate", "parent"]
    readonly_fields = ["code", "author", "created_at", "edited_at", "deleted_at", "resolved_at",
                       "resolved_by"]


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ["title", "debate", "target_ref", "owner", "due_date", "status", "done_by"]
    list_filter = ["status", "target_kind"]
    search_fields = ["title", "debate__question"]
    raw_id_fields = ["debate", "owner"]
    readonly_fields = ["code", "created_by", "created_at", "done_at", "done_by"]


@admin.register(ClaimCheck)
class ClaimCheckAdmin(admin.ModelAdmin):
    list_display = ["debate", "claim_ref", "checked_by", "checked_at"]
    search_fields = ["note", "debate__question"]
    raw_id_fields = ["debate"]
    readonly_fields = ["checked_by", "checked_at"]


class DebateReviewInline(admin.StackedInline):
    model = DebateReview
    extra = 1
    fields = ["rating", ("hallucination", "unsafe", "low_quality", "excellent"), "notes",
              "reviewer", "created_at"]
    readonly_fields = ["reviewer", "created_at"]


# Reviews are collab's, so collab extends the debates admin (rating inline, review
# count) instead of debates importing collab: dependencies point debates <- collab.
admin.site.unregister(Debate)


@admin.register(Debate)
class ReviewedDebateAdmin(DebateAdmin):
    list_display = [
        *(column for column in DebateAdmin.list_display if column != "created_at"),
        "review_count",
        "created_at",
    ]
    inlines = [DebateReviewInline, *DebateAdmin.inlines]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Debate]:
        return super().get_queryset(request).annotate(_reviews=Count("reviews"))

    @admin.display(description="reviews", ordering="_reviews")
    def review_count(self, debate: Debate) -> int:
        return getattr(debate, "_reviews", 0)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        # The reviewer is whoever saved the review, never a chosen user.
        if formset.model is DebateReview:
            for review in formset.save(commit=False):
                if review.reviewer_id is None:
                    review.reviewer = request.user
                review.save()
            for review in formset.deleted_objects:
                review.delete()
            formset.save_m2m()
            return
        super().save_formset(request, form, formset, change)
