from django.urls import path

from personas import views

app_name = "personas"

urlpatterns = [
    path("personas/", views.library_list, name="library_list"),
    path("personas/libraries/new", views.library_new, name="library_new"),
    path("personas/libraries/<uuid:code>/", views.library_detail, name="library_detail"),
    path("personas/libraries/<uuid:code>/edit", views.library_edit, name="library_edit"),
    path("personas/libraries/<uuid:code>/archive", views.library_archive, name="library_archive"),
    path("personas/libraries/<uuid:code>/unarchive", views.library_unarchive,
         name="library_unarchive"),
    path("personas/libraries/<uuid:code>/fork", views.library_fork, name="library_fork"),
    path("personas/libraries/<uuid:code>/export", views.library_export, name="library_export"),
    path("personas/libraries/<uuid:code>/import", views.library_import, name="library_import"),
    path("personas/libraries/<uuid:code>/personas/new", views.persona_new, name="persona_new"),
    path("personas/<uuid:code>/", views.persona_detail, name="persona_detail"),
    path("personas/<uuid:code>/edit", views.persona_edit, name="persona_edit"),
    path("personas/<uuid:code>/archive", views.persona_archive, name="persona_archive"),
    path("personas/<uuid:code>/unarchive", views.persona_unarchive, name="persona_unarchive"),
    path("personas/<uuid:code>/fork", views.persona_fork, name="persona_fork"),
    path("personas/<uuid:code>/restore", views.persona_restore, name="persona_restore"),
]
