from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.notification_list, name="list"),
    path("notifications/badge", views.unread_badge, name="badge"),
    path("notifications/read-all", views.notifications_read_all, name="read_all"),
    path("notifications/settings", views.notification_settings, name="settings"),
    path("notifications/<uuid:code>/open", views.notification_open, name="open"),
]
