"""The webhooks page's form: one endpoint's URL, label and events (create and change)."""

from __future__ import annotations

from django import forms

from view_kit.site_words import ui_lazy
from webhooks.models import EventType


class EndpointForm(forms.Form):
    # The URL's rules (scheme, length, public address) are the service's, so the page
    # and the API refuse the same URLs with the same words.
    url = forms.CharField(label="URL", help_text=ui_lazy("site.webhooks.url_help"))
    description = forms.CharField(label=ui_lazy("site.webhooks.description"), max_length=200,
                                  required=False)
    event_types = forms.MultipleChoiceField(
        label=ui_lazy("site.webhooks.events"),
        choices=[(value, ui_lazy(f"site.webhooks.event.{value}")) for value in EventType.values],
        widget=forms.CheckboxSelectMultiple, initial=list(EventType.values))
    enabled = forms.BooleanField(label=ui_lazy("site.webhooks.enabled_label"), required=False,
                                 initial=True)
