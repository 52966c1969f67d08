from __future__ import annotations

from django import forms

from collab.models import TargetKind
from collab.services import MAX_QUOTE_OFFSET


class CommentForm(forms.Form):
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=10_000,
                           help_text="Mention team members with @username.")
    target_kind = forms.ChoiceField(choices=TargetKind.choices, initial=TargetKind.SYNTHESIS,
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
