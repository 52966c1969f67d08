"""The new-evaluation form: which set, how many questions, which arms, which panel."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.functional import lazy

from debates.engine import EVALUATION_ARMS, MAX_AGENTS, MIN_AGENTS
from evaluations import sets
from evaluations.services import DEFAULT_ARMS, MAX_QUESTIONS, MAX_SEED, EvaluationRequest
from view_kit.site_words import ui, ui_lazy

# The generated sets keep their names (the API's and the exports'); the words around
# them, the other sets and the arms' help read in the page's language (docs/web.md,
# "Languages").
SET_CHOICES = [
    *((name, ui_lazy("site.eval.set.generated", name=name)) for name in sets.GENERATED),
    (sets.UPLOAD, ui_lazy("site.eval.set.upload")),
    (sets.DECISIONS, ui_lazy("site.eval.set.decisions")),
]


def _arm_choice(arm: str) -> str:
    """An arm's checkbox label: its name (as the API and the exports name it) and what
    it does, in the page's language."""
    return ui("site.eval.arm_choice", arm=arm, help=ui(f"site.eval.arm_help.{arm}"))


ARM_CHOICES = [(arm, lazy(_arm_choice, str)(arm)) for arm in EVALUATION_ARMS]


class EvaluationForm(forms.Form):
    set_name = forms.ChoiceField(label=ui_lazy("site.eval.form.set"), choices=SET_CHOICES,
                                 initial="compare")
    upload = forms.FileField(label=ui_lazy("site.eval.form.file"), required=False,
                             help_text=ui_lazy("site.eval.form.file_help"))
    n = forms.IntegerField(label=ui_lazy("site.eval.col.questions"), min_value=1,
                           max_value=MAX_QUESTIONS, initial=50,
                           help_text=ui_lazy("site.eval.form.n_help"))
    seed = forms.IntegerField(label=ui_lazy("site.eval.form.seed"), min_value=0,
                              max_value=MAX_SEED, initial=7,
                              help_text=ui_lazy("site.eval.form.seed_help"))
    arms = forms.MultipleChoiceField(
        label=ui_lazy("site.eval.arms"), widget=forms.CheckboxSelectMultiple,
        initial=list(DEFAULT_ARMS), choices=ARM_CHOICES)
    agents = forms.IntegerField(label=ui_lazy("site.eval.form.agents"), min_value=MIN_AGENTS,
                                max_value=MAX_AGENTS, initial=3)
    model = forms.CharField(label=ui_lazy("site.eval.col.model"), max_length=200,
                            initial="sim/default", help_text=ui_lazy("site.eval.form.model_help"))
    panel_models = forms.CharField(
        label=ui_lazy("site.eval.form.panel_models"), max_length=1000, required=False,
        help_text=ui_lazy("site.eval.form.panel_models_help"))
    sim_accuracy = forms.FloatField(
        label=ui_lazy("site.eval.form.sim_accuracy"), required=False, min_value=0.0,
        max_value=1.0, help_text=ui_lazy("site.eval.form.sim_accuracy_help"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["model"].initial = settings.COUNCIL_MODEL

    def request(self) -> EvaluationRequest:
        data = self.cleaned_data
        upload = data.get("upload")
        return EvaluationRequest(
            set_name=data["set_name"], n=data["n"], seed=data["seed"],
            arms=tuple(data["arms"]), agents=data["agents"], model=data["model"],
            sim_accuracy=data.get("sim_accuracy"), panel_models=data.get("panel_models") or "",
            upload=upload.read() if upload is not None else None,
            filename=upload.name if upload is not None else "")
