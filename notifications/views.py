"""A user's own notifications: the list, opening one (marks it read), marking all
read, the unread badge htmx refreshes, and the settings. Personal: no team check,
and another user's notification is a 404."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from notifications import selectors, services
from notifications.forms import NotificationSettingsForm
from view_kit.http import AuthenticatedHttpRequest
from view_kit.site_words import ui


@login_required
@require_GET
def notification_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "notifications/list.html", {
        "notifications": selectors.notification_list(user=request.user),
        "unread": selectors.unread_count(user=request.user),
    })


@login_required
@require_GET
def unread_badge(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The navigation link with its count; htmx polls it so news shows up unasked."""
    return render(request, "notifications/_nav_link.html",
                  {"unread": selectors.unread_count(user=request.user)})


# A GET, so a notification is a link: it opens in a new tab, and its address can be
# copied. Marking one's own notification read is the only thing it changes.
@login_required
@require_GET
def notification_open(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    notification = selectors.notification_of_user(user=request.user, code=code)
    services.notification_mark_read(notification=notification)
    target = notification.url
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=None):
        target = "/notifications/"
    return redirect(target)


@login_required
@require_POST
def notifications_read_all(request: AuthenticatedHttpRequest) -> HttpResponse:
    count = services.notifications_mark_all_read(user=request.user)
    messages.success(request, ui("site.notifications.marked", n=count))
    return redirect("notifications:list")


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    current = selectors.settings_for(user=request.user)
    form = NotificationSettingsForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid():
        services.notification_settings_update(user=request.user, **{
            f: form.cleaned_data[f] for f in NotificationSettingsForm.Meta.fields})
        messages.success(request, ui("site.notifications.saved"))
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {"form": form},
                  status=400 if request.method == "POST" else 200)
