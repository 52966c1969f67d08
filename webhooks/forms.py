"""The webhooks page's form: one endpoint's URL, label and events (create and change)."""

from __future__ import annotations

from django import forms

from webhooks.models import EventType


class EndpointForm(forms.Form):
    # The URL's rules (scheme, length, public address) are the service's, so the page
    # and the API refuse the same URLs with the same words.
    url = forms.CharField(label="URL", help_text="https://… on a public address; Council "
                          "POSTs each event there, signed (docs/integrations.md).")
    description = forms.CharField(label="Description", max_length=200, required=False)
    event_types = forms.MultipleChoiceField(
        label="Events", choices=EventType.choices, widget=forms.CheckboxSelectMultiple,
        initial=list(EventType.values))
    enabled = forms.BooleanField(label="Enabled", required=False, initial=True)
