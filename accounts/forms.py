from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.contrib.auth.forms import PasswordChangeForm as DjangoPasswordChangeForm
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import Membership, Team
from view_kit.site_words import ui_lazy


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=True, label=ui_lazy("site.signup.email"))
    team_name = forms.CharField(
        max_length=200, label=ui_lazy("site.signup.team_name"),
        help_text=ui_lazy("site.signup.team_help"),
    )

    # django-stubs declares no UserCreationForm.Meta; Django has one (its field_classes
    # normalise the username), so extend it rather than restate it.
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username", "email")

    def __init__(self, *args: object, invited: bool = False, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        if invited:
            # Someone joining a team by invitation needs no team of their own.
            del self.fields["team_name"]

    # No check that the email is unused: saying so would tell anyone which addresses
    # have accounts. The address stays unverified until its owner follows the mailed link.
    def clean_email(self) -> str:
        return str(self.cleaned_data["email"]).strip()


class PasswordChangeForm(DjangoPasswordChangeForm):
    revoke_api_tokens = forms.BooleanField(
        required=False, label="Also revoke my API tokens",
        help_text="Scripts and agents using them stop working; make new ones afterwards.",
    )


class TeamForm(forms.Form):
    name = forms.CharField(max_length=200, label="Team name")


class ApiTokenForm(forms.Form):
    """A new token's name and limits; ``expires_at()`` turns the expiry choice into a
    moment (None: never)."""

    NEVER, ON_DATE = "never", "date"
    EXPIRY_CHOICES = [("7", "in 7 days"), ("30", "in 30 days"), ("90", "in 90 days"),
                      (ON_DATE, "at the end of a date (UTC)"), (NEVER, "never")]

    name = forms.CharField(max_length=100, help_text="What uses it, e.g. CI or a laptop agent.")
    # Absent (an older script posting only a name) means never, as before expiries.
    expires = forms.ChoiceField(choices=EXPIRY_CHOICES, required=False, initial="90",
                                label="Expires")
    expires_on = forms.DateField(required=False, label="Date",
                                 help_text="For “at the end of a date”: the last day it works.",
                                 widget=forms.DateInput(attrs={"type": "date"}))
    read_only = forms.BooleanField(required=False, label="Read-only",
                                   help_text="It can read but never change anything.")
    team = forms.ModelChoiceField(queryset=Team.objects.none(), required=False,
                                  to_field_name="code", empty_label="All my teams",
                                  help_text="Limit it to one team: the others stay hidden.")

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["team"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Team.objects.filter(memberships__user=user).order_by("name", "id")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("expires") == self.ON_DATE:
            day = data.get("expires_on")
            if day is None:
                self.add_error("expires_on", "Pick the date the token expires on.")
            elif day < timezone.now().date():
                self.add_error("expires_on", "Pick today or a later date.")
        return data

    def expires_at(self) -> datetime | None:
        choice = self.cleaned_data.get("expires") or self.NEVER
        if choice == self.NEVER:
            return None
        if choice == self.ON_DATE:
            # Valid through the whole of the chosen day (UTC).
            day = self.cleaned_data["expires_on"] + timedelta(days=1)
            return datetime(day.year, day.month, day.day, tzinfo=UTC)
        return timezone.now() + timedelta(days=int(choice))


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.VIEWER)
    email = forms.EmailField(
        required=False, help_text="Optional: mail the link, and only this address may accept."
    )
    valid_days = forms.IntegerField(min_value=1, max_value=90, initial=7, label="Valid for (days)")


class LimitsForm(forms.Form):
    monthly_budget_usd = forms.FloatField(
        required=False, min_value=0, label="Monthly budget (USD)",
        help_text="Empty: unlimited.",
    )
    debate_cost_cap_usd = forms.FloatField(
        required=False, min_value=0, label="Per-debate cost cap (USD)", help_text="Empty: no cap."
    )
    debates_per_hour = forms.IntegerField(
        min_value=0, max_value=10_000, initial=30,
        help_text="In any rolling hour; one more round on a finished debate counts as one.")
    allow_unpriced_models = forms.BooleanField(
        required=False, label="Allow unpriced models",
        help_text="Models litellm has no price for (e.g. a local or custom model) are refused "
        "while a cost cap or budget is set, because their cost cannot be estimated or "
        "counted. Tick to allow them anyway: the cap cannot stop them and the budget does "
        "not see what they spend. Simulated models (sim/...) are free and always allowed.")
