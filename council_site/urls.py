from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from council_site import views
from council_site.api import api
from debates.views import debate_list

urlpatterns = [
    # The home page is the current team's debate list, the same view as /debates/.
    path("", debate_list, name="home"),
    path("debates/", include("debates.urls")),
    path("healthz", views.healthz, name="healthz"),
    path("api/", api.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    # Django's LogoutView accepts POST only, so logging out cannot be triggered by a link.
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("", include("council_site.accounts.urls")),
    path("", include("personas.urls")),
    path("", include("collab.urls")),
    path("", include("notifications.urls")),
]
