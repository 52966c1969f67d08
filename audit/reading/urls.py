from django.urls import path

from audit.reading import views

app_name = "audit"

urlpatterns = [
    path("teams/<uuid:code>/audit/", views.team_audit, name="team_audit"),
    path("teams/<uuid:code>/audit/export.jsonl", views.team_audit_export,
         name="team_audit_export"),
]
