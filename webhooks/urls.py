from django.urls import path

from webhooks import views

app_name = "webhooks"

urlpatterns = [
    path("teams/<uuid:code>/webhooks/", views.endpoints, name="endpoints"),
    path("webhooks/<uuid:code>/edit", views.endpoint_edit, name="edit"),
    path("webhooks/<uuid:code>/delete", views.endpoint_delete, name="delete"),
    path("webhooks/<uuid:code>/ping", views.endpoint_ping, name="ping"),
    path("webhooks/<uuid:code>/deliveries/<uuid:delivery>/redeliver", views.delivery_redeliver,
         name="redeliver"),
]
