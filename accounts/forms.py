from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.contrib.auth.forms import PasswordChangeForm as DjangoPasswordChangeForm
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import Membership, Team
from view_kit.site_words import ui, ui_lazy


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
        required=False, label=ui_lazy("site.password.revoke_tokens"),
        help_text=ui_lazy("site.password.revoke_tokens_help"),
    )


class TeamForm(forms.Form):
    name = forms.CharField(max_length=200, label="Team name")


class ApiTokenForm(forms.Form):
    """A new token's name and limits; ``expires_at()`` turns the expiry choice into a
    moment (None: never)."""

    NEVER, ON_DATE = "never", "date"
    EXPIRY_CHOICES = [(key, ui_lazy(f"site.tokens.expiry.{key}"))
                      for key in ("7", "30", "90", ON_DATE, NEVER)]

    name = forms.CharField(max_length=100, label=ui_lazy("site.tokens.name"),
                           help_text=ui_lazy("site.tokens.name_help"))
    # Absent (an older script posting only a name) means never, as before expiries.
    expires = forms.ChoiceField(choices=EXPIRY_CHOICES, required=False, initial="90",
                                label=ui_lazy("site.tokens.expires"))
    expires_on = forms.DateField(required=False, label=ui_lazy("site.tokens.date"),
                                 help_text=ui_lazy("site.tokens.date_help"),
                                 widget=forms.DateInput(attrs={"type": "date"}))
    read_only = forms.BooleanField(required=False, label=ui_lazy("site.tokens.read_only"),
                                   help_text=ui_lazy("site.tokens.read_only_help"))
    team = forms.ModelChoiceField(queryset=Team.objects.none(), required=False,
                                  to_field_name="code", label=ui_lazy("site.team.label"),
                                  empty_label=ui_lazy("site.tokens.all_teams"),
                                  help_text=ui_lazy("site.tokens.team_help"))

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
                self.add_error("expires_on", ui("site.tokens.pick_date"))
            elif day < timezone.now().date():
                self.add_error("expires_on", ui("site.tokens.pick_later"))
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


ROLE_CHOICES = [(value, ui_lazy(f"site.teampage.role.{value}"))
                for value in Membership.Role.values]


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=ROLE_CHOICES, initial=Membership.Role.VIEWER,
                             label=ui_lazy("site.team.role"))
    email = forms.EmailField(
        required=False, label=ui_lazy("site.teampage.email"),
        help_text=ui_lazy("site.teampage.email_help"),
    )
    valid_days = forms.IntegerField(min_value=1, max_value=90, initial=7,
                                    label=ui_lazy("site.teampage.valid_days"))


class LimitsForm(forms.Form):
    monthly_budget_usd = forms.FloatField(
        required=False, min_value=0, label=ui_lazy("site.teampage.budget"),
        help_text=ui_lazy("site.teampage.budget_help"),
    )
    debate_cost_cap_usd = forms.FloatField(
        required=False, min_value=0, label=ui_lazy("site.teampage.cap_field"),
        help_text=ui_lazy("site.teampage.cap_help")
    )
    debates_per_hour = forms.IntegerField(
        min_value=0, max_value=10_000, initial=30, label=ui_lazy("site.teampage.per_hour_field"),
        help_text=ui_lazy("site.teampage.per_hour_help"))
    allow_unpriced_models = forms.BooleanField(
        required=False, label=ui_lazy("site.teampage.unpriced"),
        help_text=ui_lazy("site.teampage.unpriced_help"))
