"""HTML routes of the debates app, mounted at /debates/."""

from django.urls import path

from debates.web import views

app_name = "debates"

urlpatterns = [
    path("", views.debate_list, name="list"),
    path("new", views.debate_new, name="new"),
    path("estimate", views.debate_estimate, name="estimate"),
    path("options", views.debate_options, name="options"),
    path("compare", views.debate_compare, name="compare"),
    path("<uuid:code>/", views.debate_detail, name="detail"),
    path("<uuid:code>/synthesis", views.debate_synthesis, name="synthesis"),
    path("<uuid:code>/transcript", views.debate_transcript, name="transcript"),
    path("<uuid:code>/print", views.debate_print, name="print"),
    path("<uuid:code>/export.md", views.export_markdown, name="export_md"),
    path("<uuid:code>/export.json", views.export_json, name="export_json"),
    path("<uuid:code>/cancel", views.debate_cancel_view, name="cancel"),
    path("<uuid:code>/stop", views.debate_stop_view, name="stop"),
    path("<uuid:code>/more-round", views.debate_more_round_view, name="more_round"),
    path("<uuid:code>/rerun", views.debate_rerun_view, name="rerun"),
]
