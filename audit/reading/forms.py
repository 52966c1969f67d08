"""The audit page's filters (the API takes the same as query parameters)."""

from __future__ import annotations

from django import forms

from audit.selectors import AuditFilters


class AuditFilterForm(forms.Form):
    actor = forms.CharField(required=False, max_length=150)
    action = forms.CharField(required=False, max_length=64)
    target = forms.CharField(required=False, max_length=64)
    since = forms.DateField(required=False, input_formats=["%Y-%m-%d"])
    until = forms.DateField(required=False, input_formats=["%Y-%m-%d"])

    def filters(self) -> AuditFilters:
        if not self.is_valid():
            return AuditFilters()
        data = self.cleaned_data
        return AuditFilters(actor=data["actor"].strip(), action=data["action"].strip(),
                            target=data["target"].strip(), since=data["since"],
                            until=data["until"])
