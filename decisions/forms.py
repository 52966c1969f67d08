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
from view_kit.site_words import ui, ui_lazy

OTHER = "__other__"
LOG_SORTS = [(key, ui_lazy(f"site.decisions.sort.{key}"))
             for key in ("newest", "oldest", "review", "question")]


class DecisionForm(forms.Form):
    """One of the debate's options (radio buttons), or "another choice" in words."""

    option = forms.ChoiceField(
        widget=forms.RadioSelect, label=ui_lazy("site.decisions.form.option"),
        error_messages={"required": ui_lazy("site.decisions.form.option_required")})
    choice = forms.CharField(max_length=MAX_CHOICE, required=False,
                             label=ui_lazy("site.decisions.another_choice"),
                             help_text=ui_lazy("site.decisions.form.choice_help"))
    rationale = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}),
                                max_length=MAX_RATIONALE, label=ui_lazy("site.decisions.form.why"),
                                error_messages={
                                    "required": ui_lazy("site.decisions.form.why_required")})
    review_on = forms.DateField(required=False, label=ui_lazy("site.decisions.form.review_on"),
                                widget=forms.DateInput(attrs={"type": "date"}),
                                help_text=ui_lazy("site.decisions.form.review_on_help"))

    def __init__(self, *args: Any, options: list[str], quality: str = "sound",
                 kept_review_on: date | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept_review_on = kept_review_on  # the current decision's date may stay
        field = self.fields["option"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [*((o, o) for o in options), (OTHER, ui("site.decisions.another_choice"))]
        if quality != "sound":  # the service refuses without it (docs/teams.md)
            self.fields["confirm_quality"] = forms.BooleanField(
                required=False,
                label=ui("site.decisions.form.confirm_quality",
                         quality=ui(f"site.decisions.quality.{quality}")),
                help_text=ui("site.decisions.form.confirm_quality_help"))

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
                              choices=[("", ui_lazy("site.decisions.any_state")),
                                       *((value, ui_lazy(f"site.decisions.state.{value}"))
                                         for value in DecisionState.values)])
    owner = forms.CharField(required=False, max_length=150,
                            label=ui_lazy("site.decisions.decided_by"))
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
