from django.urls import path

from decisions import views

app_name = "decisions"

urlpatterns = [
    path("debates/<uuid:code>/decision", views.decide, name="decide"),
    path("debates/<uuid:code>/decision/history", views.history, name="history"),
    path("decisions/", views.decision_log, name="log"),
    path("actions/", views.my_actions, name="my_actions"),
]
