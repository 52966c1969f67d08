"""The outcome form: what a review of a decision found."""

from __future__ import annotations

from typing import Any

from django import forms

from decisions.models import OutcomeResult
from decisions.outcomes import MAX_NOTES

CANT_TELL = "__cant_tell__"


class OutcomeForm(forms.Form):
    """The option that proved right (radio buttons), or "can't tell yet"."""

    right_option = forms.ChoiceField(widget=forms.RadioSelect,
                                     label="In hindsight, the right option was")
    result = forms.ChoiceField(widget=forms.RadioSelect, required=False, label="How it went",
                               choices=OutcomeResult.choices)
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False,
                            max_length=MAX_NOTES, label="Notes")
    review_again_on = forms.DateField(
        required=False, label="Look again on",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="With \"can't tell yet\": when to review again (empty: in 90 days).")

    def __init__(self, *args: Any, options: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["right_option"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [*((o, o) for o in options), (CANT_TELL, "Can't tell yet")]

    def outcome_kwargs(self) -> dict[str, Any]:
        """The service's arguments; the service checks how they fit together."""
        data = self.cleaned_data
        cant_tell = data["right_option"] == CANT_TELL
        return {"right_option": None if cant_tell else data["right_option"],
                "result": data.get("result") or "", "notes": data.get("notes") or "",
                "review_again_on": data.get("review_again_on")}
