from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", views.account, name="account"),
    path("accounts/language", views.language_save, name="language"),
    path("accounts/verify-email/", views.email_verification_send, name="email_verification_send"),
    path("accounts/verify-email/<str:signed>/", views.email_verify, name="email_verify"),
    path("teams/", views.team_list, name="team_list"),
    path("teams/new", views.team_new, name="team_new"),
    path("teams/switch", views.team_switch, name="team_switch"),
    path("teams/<uuid:code>/", views.team_detail, name="team_detail"),
    path("teams/<uuid:code>/rename", views.team_rename, name="team_rename"),
    path("teams/<uuid:code>/limits", views.team_limits, name="team_limits"),
    path("teams/<uuid:code>/members/<uuid:member>/role", views.member_role, name="member_role"),
    path("teams/<uuid:code>/members/<uuid:member>/remove", views.member_remove,
         name="member_remove"),
    path("teams/<uuid:code>/invitations/", views.invitation_new, name="invitation_new"),
    path("teams/<uuid:code>/invitations/<uuid:invitation>/revoke", views.invitation_revoke,
         name="invitation_revoke"),
    # Tokens are secrets.token_urlsafe: a slug; anything else cannot be one (404).
    path("invitations/<slug:token>/", views.invitation, name="invitation"),
    path("accounts/tokens/", views.api_tokens, name="api_tokens"),
    path("accounts/tokens/<uuid:code>/revoke", views.api_token_revoke, name="api_token_revoke"),
]
