from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User

from collab.models import TargetKind
from collab.services import MAX_QUOTE_OFFSET
from view_kit.site_words import ui_lazy


class CommentForm(forms.Form):
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=10_000,
                           help_text="Mention team members with @username.")
    # Checked against the debate's result by the service (collab.services._clean_target).
    target_kind = forms.CharField(max_length=20, initial=TargetKind.SYNTHESIS,
                                  required=False, label="About")
    target_ref = forms.CharField(max_length=100, required=False, label="Which one",
                                 help_text='e.g. "R2", "C1", a disagreement number, or a part '
                                           'of the recommendation')
    quote = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                            max_length=2_000, label="Quoted passage")
    quote_offset = forms.IntegerField(min_value=0, max_value=MAX_QUOTE_OFFSET, required=False,
                                      widget=forms.HiddenInput)
    parent = forms.UUIDField(required=False, widget=forms.HiddenInput)


class EditForm(forms.Form):
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=10_000)


class MemberChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.get_username())


class ActionForm(forms.Form):
    """A new action; ``target`` is "synthesis:" (general), "risk:R2" or "claim:V1",
    offered from the synthesis."""

    target = forms.ChoiceField(label=ui_lazy("site.collab.form.about"))
    title = forms.CharField(max_length=300, required=False,
                            label=ui_lazy("site.collab.form.what"),
                            help_text=ui_lazy("site.collab.form.what_help"))
    owner = MemberChoiceField(queryset=User.objects.none(),
                              label=ui_lazy("site.collab.form.owner"), empty_label=None,
                              help_text=ui_lazy("site.collab.form.owner_help"))
    due_date = forms.DateField(label=ui_lazy("site.collab.form.due"),
                               widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, targets: list[tuple[str, str]], members: Any,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        target = self.fields["target"]
        assert isinstance(target, forms.ChoiceField)
        target.choices = targets
        owner = self.fields["owner"]
        assert isinstance(owner, forms.ModelChoiceField)
        owner.queryset = members

    def target_parts(self) -> tuple[str, str]:
        kind, _, ref = self.cleaned_data["target"].partition(":")
        return kind, ref


class ClaimCheckForm(forms.Form):
    claim = forms.CharField(max_length=10)
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                           max_length=2_000)
    checked = forms.ChoiceField(choices=[("yes", "checked"), ("no", "not checked")],
                                initial="yes")
