from django.contrib import admin

from webhooks.models import Delivery, Endpoint


@admin.register(Endpoint)
class EndpointAdmin(admin.ModelAdmin):
    list_display = ("url", "team", "enabled", "failure_streak", "created_at")
    list_filter = ("enabled",)
    exclude = ("secret",)


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("event", "endpoint", "status", "attempts", "next_attempt_at")
    list_filter = ("status",)
