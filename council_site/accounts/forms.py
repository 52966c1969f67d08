from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from council_site.accounts.models import Membership


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=True)
    team_name = forms.CharField(
        max_length=200, label="Team name", help_text="Your first team; you will be its owner."
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

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this email already exists.")
        return email


class TeamForm(forms.Form):
    name = forms.CharField(max_length=200)


class ApiTokenForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="What uses it, e.g. CI or a laptop agent.")


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
