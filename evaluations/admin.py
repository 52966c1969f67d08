from django.contrib import admin

from evaluations.models import Evaluation, QuestionResult


@admin.register(Evaluation)
class EvaluationAdmin(admin.ModelAdmin):
    list_display = ("code", "team", "set_label", "status", "done", "total", "created_at")
    list_filter = ("status", "set_kind")
    readonly_fields = ("code", "spec", "questions", "report", "lease_owner", "lease_expires_at")


@admin.register(QuestionResult)
class QuestionResultAdmin(admin.ModelAdmin):
    list_display = ("evaluation", "question_id", "position", "error")
    readonly_fields = ("outcome",)
