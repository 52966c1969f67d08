from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views as account_views
from council_site.api import api
from debates.web.views import debate_list
from site_edge import health

urlpatterns = [
    # The home page is the current team's debate list, the same view as /debates/.
    path("", debate_list, name="home"),
    path("debates/", include("debates.urls")),
    path("evaluations/", include("evaluations.urls")),
    path("healthz", health.healthz, name="healthz"),
    path("api/", api.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    # Django's LogoutView accepts POST only, so logging out cannot be triggered by a link.
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's own password views (their default names, which they reverse themselves).
    path("accounts/password_reset/", account_views.PasswordResetView.as_view(),
         name="password_reset"),
    path("accounts/password_reset/done/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", account_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("accounts/password_change/", account_views.PasswordChangeView.as_view(),
         name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("personas.urls")),
    path("", include("sources.urls")),
    path("", include("collab.urls")),
    path("", include("decisions.urls")),
    path("", include("notifications.urls")),
    path("", include("integrations.urls")),
    path("", include("webhooks.urls")),
    path("", include("audit.reading.urls")),
]
