"""The new-evaluation form: which set, how many questions, which arms, which panel."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings

from debates.engine import EVALUATION_ARMS, MAX_AGENTS, MIN_AGENTS
from evaluations import sets
from evaluations.services import DEFAULT_ARMS, MAX_QUESTIONS, MAX_SEED, EvaluationRequest

SET_CHOICES = [
    *((name, f"{name} (generated)") for name in sets.GENERATED),
    (sets.UPLOAD, "upload a file (JSONL or CSV)"),
    (sets.DECISIONS, "the team's reviewed decisions"),
]
ARM_HELP = {
    "single": "one agent, one call",
    "vote": "plurality of the panel's independent positions (round 0, no extra calls)",
    "confidence": "the independent positions weighted by confidence rank (no extra calls)",
    "council": "the full debate's final plurality",
    "mixed_vote": "the vote of a second panel seated on the panel models",
    "mixed_council": "that mixed panel's debate, its final plurality",
    "adversarial": "where a set has a solution to refine",
}


class EvaluationForm(forms.Form):
    set_name = forms.ChoiceField(label="Question set", choices=SET_CHOICES, initial="compare")
    upload = forms.FileField(
        label="File", required=False,
        help_text="JSONL (one {\"question\", \"options\", \"answer\"} a line) or CSV with "
        "those columns, options separated by |; for the upload set only.")
    n = forms.IntegerField(label="Questions", min_value=1, max_value=MAX_QUESTIONS, initial=50,
                           help_text="Fewer than 30 is not a finding.")
    seed = forms.IntegerField(label="Seed", min_value=0, max_value=MAX_SEED, initial=7,
                              help_text="The same set, size and seed give the same questions.")
    arms = forms.MultipleChoiceField(
        label="Arms", widget=forms.CheckboxSelectMultiple, initial=list(DEFAULT_ARMS),
        choices=[(a, f"{a}: {ARM_HELP.get(a, '')}") for a in EVALUATION_ARMS])
    agents = forms.IntegerField(label="Agents", min_value=MIN_AGENTS, max_value=MAX_AGENTS,
                                initial=3)
    model = forms.CharField(label="Model", max_length=200, initial="sim/default",
                            help_text="litellm model name, as for a debate.")
    panel_models = forms.CharField(
        label="Panel models", max_length=1000, required=False,
        help_text="For the mixed arms: models given to the seats in turn, comma-separated "
        "(at least two different ones; simulated ones, sim/a, sim/b, with a simulated "
        "accuracy).")
    sim_accuracy = forms.FloatField(
        label="Simulated accuracy", required=False, min_value=0.0, max_value=1.0,
        help_text="Set it to run a simulated population instead of the model: each agent "
        "is right with this probability, independently. Its figures measure the harness, "
        "not a model.")

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
