from django.urls import path

from evaluations import views

app_name = "evaluations"

urlpatterns = [
    path("", views.evaluation_list, name="list"),
    path("new", views.evaluation_new, name="new"),
    path("<uuid:code>/", views.evaluation_detail, name="detail"),
    path("<uuid:code>/progress", views.evaluation_progress, name="progress"),
    path("<uuid:code>/cancel", views.evaluation_cancel, name="cancel"),
    path("<uuid:code>/export.json", views.export_json, name="export_json"),
    path("<uuid:code>/arms.csv", views.export_arms_csv, name="export_arms_csv"),
    path("<uuid:code>/questions.csv", views.export_questions_csv, name="export_questions_csv"),
]
