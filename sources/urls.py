from django.urls import path

from sources import views

app_name = "sources"

urlpatterns = [
    path("sources/", views.library, name="library"),
    path("sources/upload", views.upload, name="upload"),
    path("sources/<uuid:code>/", views.source_detail, name="detail"),
    path("sources/<uuid:code>/status", views.source_status, name="status"),
    path("sources/<uuid:code>/versions", views.version_upload, name="version_upload"),
    path("sources/<uuid:code>/delete", views.source_delete_view, name="delete"),
    path("debates/<uuid:code>/sources/", views.debate_sources_fragment, name="debate_sources"),
    path("debates/<uuid:code>/sources/<str:source_id>", views.debate_source, name="debate_source"),
]
