"""The decision form and the decision log's query string."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import date
from typing import Any

from django import forms

from debates.selectors import DebateFilters
from debates.web.list_filters import DebateFilterForm
from decisions.models import DecisionState
from decisions.selectors import DecisionFilters
from decisions.services import MAX_CHOICE, MAX_RATIONALE, DecisionError, clean_review_on

OTHER = "__other__"
LOG_SORTS = [("newest", "decided, newest first"), ("oldest", "decided, oldest first"),
             ("review", "review date"), ("question", "question A–Z")]


class DecisionForm(forms.Form):
    """One of the debate's options (radio buttons), or "another choice" in words."""

    option = forms.ChoiceField(
        widget=forms.RadioSelect, label="The team decided",
        error_messages={"required": "Choose one of the debate's options, or “Another "
                                    "choice” and say what the team chose instead."})
    choice = forms.CharField(max_length=MAX_CHOICE, required=False, label="Another choice",
                             help_text="When the team chose none of the options, say what.")
    rationale = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}),
                                max_length=MAX_RATIONALE, label="Why",
                                error_messages={"required": "Say why the team decided this "
                                                            "(the rationale)."})
    review_on = forms.DateField(required=False, label="Review on",
                                widget=forms.DateInput(attrs={"type": "date"}),
                                help_text="When to look back at it. Leave empty for no review.")

    def __init__(self, *args: Any, options: list[str], quality: str = "sound",
                 kept_review_on: date | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept_review_on = kept_review_on  # the current decision's date may stay
        field = self.fields["option"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [*((o, o) for o in options), (OTHER, "Another choice")]
        if quality != "sound":  # the service refuses without it (docs/teams.md)
            self.fields["confirm_quality"] = forms.BooleanField(
                required=False, label=f"Decide anyway: this debate's result is {quality}",
                help_text="the content checks found it may carry no real content; tick to "
                          "record the decision with that flag")

    def clean_review_on(self) -> date | None:
        try:
            return clean_review_on(self.cleaned_data.get("review_on"),
                                   kept=self.kept_review_on)
        except DecisionError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def decision_kwargs(self) -> dict[str, Any]:
        """The service's arguments: the option, or the free choice when "other"."""
        data = self.cleaned_data
        other = data["option"] == OTHER
        review: date | None = data.get("review_on")
        return {"option": "" if other else data["option"],
                "choice": data["choice"] if other else "",
                "rationale": data["rationale"], "review_on": review,
                "confirm_quality": bool(data.get("confirm_quality"))}


class DecisionFilterForm(DebateFilterForm):
    """The debate list's filters, plus the decision's state and owner."""

    state = forms.ChoiceField(required=False,
                              choices=[("", "any state"), *DecisionState.choices])
    owner = forms.CharField(required=False, max_length=150, label="Decided by")
    # The log sorts decisions, not debates (the debates only narrow it).
    sort = forms.ChoiceField(required=False, choices=LOG_SORTS)

    def filters(self) -> DebateFilters:
        """The debate list's part; the log's own fields stay out of it."""
        self.is_valid()
        own = {f.name for f in fields(DebateFilters)}
        mine = {k: self.cleaned_data.pop(k) for k in list(self.cleaned_data) if k not in own}
        try:
            return replace(super().filters(), sort="newest")
        finally:
            self.cleaned_data.update(mine)

    def decision_filters(self) -> DecisionFilters:
        debate = self.filters()
        data = {k: v for k, v in self.cleaned_data.items() if k not in self.errors}
        return DecisionFilters(debate=debate, state=data.get("state") or "",
                               owner=data.get("owner") or "",
                               sort=data.get("sort") or "newest")
