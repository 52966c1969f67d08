from django.contrib import admin

from notifications.models import Notification, NotificationSettings


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("title", "user", "kind", "created_at", "read_at", "emailed_at")
    list_filter = ("kind",)
    search_fields = ("title", "user__username")
    raw_id_fields = ("user", "actor", "team")


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "mentions", "replies", "debates", "invitations")
    raw_id_fields = ("user",)
