from django.urls import path

from collab import views

app_name = "collab"

urlpatterns = [
    path("debates/<uuid:code>/comments/", views.comments, name="comments"),
    path("debates/<uuid:code>/comments/carry", views.comments_carry, name="carry"),
    path("debates/<uuid:code>/comments/<uuid:comment>/edit", views.comment_edit, name="edit"),
    path("debates/<uuid:code>/comments/<uuid:comment>/delete", views.comment_delete,
         name="delete"),
    path("debates/<uuid:code>/comments/<uuid:comment>/resolve", views.comment_resolve,
         name="resolve"),
    path("debates/<uuid:code>/comments/<uuid:comment>/reopen", views.comment_reopen,
         name="reopen"),
    path("mentions/", views.mentions, name="mentions"),
]
