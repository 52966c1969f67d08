from django.urls import path

from collab import action_views, views

app_name = "collab"

urlpatterns = [
    path("debates/<uuid:code>/comments/", views.comments, name="comments"),
    path("debates/<uuid:code>/comments/carry", views.comments_carry, name="carry"),
    path("debates/<uuid:code>/comments/<uuid:comment>/edit", views.comment_edit, name="edit"),
    path("debates/<uuid:code>/comments/<uuid:comment>/delete", views.comment_delete,
         name="delete"),
    path("debates/<uuid:code>/comments/<uuid:comment>/hide", views.comment_hide, name="hide"),
    path("debates/<uuid:code>/comments/<uuid:comment>/show", views.comment_show, name="show"),
    path("debates/<uuid:code>/comments/<uuid:comment>/history", views.comment_history,
         name="history"),
    path("debates/<uuid:code>/comments/moderation", views.moderation, name="moderation"),
    path("debates/<uuid:code>/comments/<uuid:comment>/resolve", views.comment_resolve,
         name="resolve"),
    path("debates/<uuid:code>/comments/<uuid:comment>/reopen", views.comment_reopen,
         name="reopen"),
    path("debates/<uuid:code>/actions/", action_views.actions, name="actions"),
    path("debates/<uuid:code>/actions/<uuid:action>/done", action_views.action_done,
         name="action_done"),
    path("debates/<uuid:code>/actions/<uuid:action>/reopen", action_views.action_reopen,
         name="action_reopen"),
    path("debates/<uuid:code>/claims/check", action_views.claim_check, name="claim_check"),
    path("mentions/", views.mentions, name="mentions"),
]
