from django.contrib import admin

from collab.models import Comment, DebateReview


@admin.register(DebateReview)
class DebateReviewAdmin(admin.ModelAdmin):
    list_display = ["debate", "rating", "hallucination", "unsafe", "low_quality", "excellent",
                    "reviewer", "created_at"]
    list_filter = ["rating", "hallucination", "unsafe", "low_quality", "excellent"]
    search_fields = ["debate__question", "notes"]
    raw_id_fields = ["debate"]
    readonly_fields = ["reviewer", "created_at"]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        if obj.reviewer_id is None:
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
