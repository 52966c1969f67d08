"""What ``manage.py evaluate`` prints: one shape, as JSON and as a Markdown table.

JSON: ``arms.<arm>`` holds ``accuracy``, ``ci`` ([low, high]), ``n``, ``prompt_tokens``,
``completion_tokens``, ``cost_usd`` (null, with ``cost_known`` false, when a call's model
has no price) (and ``right``, ``cost_per_right_usd``, ``seconds``, ``brier``,
``reliability``, ``finding``, ``caveat``, ``models``: the models its answers came
from, one a seat for a mixed arm); ``paired.council_vs_vote`` holds the 2×2
``table``, ``p_value`` and the ``flips``, and ``paired.<first>_vs_<second>`` the same
for the mixed arms' pairs; ``simulated`` says whether a simulated population answered.
A figure from fewer than ``MIN_QUESTIONS`` questions, or with an interval wider than
``MAX_CI_WIDTH``, is marked as not a finding, in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .stats import (
    Accuracy,
    Flips,
    PairedTable,
    ReliabilityBin,
    cost_per_right_answer,
    mcnemar_exact,
)

MIN_QUESTIONS = 30
MAX_CI_WIDTH = 0.3
COUNCIL, VOTE = "council", "vote"
MIXED_COUNCIL, MIXED_VOTE = "mixed_council", "mixed_vote"


@dataclass(frozen=True)
class ArmResult:
    accuracy: Accuracy
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0  # None: a call's model has no price (unknown, not $0)
    seconds: float = 0.0  # wall time of the arm's calls
    brier: float | None = None  # None: the arm states no confidence
    reliability: tuple[ReliabilityBin, ...] = ()
    models: tuple[str, ...] = ()  # the models its answers came from (a mixed arm: a seat's)


@dataclass(frozen=True)
class PairedResult:
    table: PairedTable  # first arm: ``first``, second: ``second``
    flips: Flips  # how ``first``'s answers differ from ``second``'s
    first: str = COUNCIL
    second: str = VOTE

    @property
    def key(self) -> str:
        return f"{self.first}_vs_{self.second}"

    @property
    def p_value(self) -> float:
        return mcnemar_exact(self.table.first_only, self.table.second_only)


@dataclass(frozen=True)
class EvaluationReport:
    set_name: str
    arms: Mapping[str, ArmResult]
    paired: PairedResult | None = None  # council against vote
    settings: Mapping[str, Any] = field(default_factory=dict)  # model, agents, seed...
    # The mixed arms' pairs: each debate against its own vote, each mixed arm against
    # its one-model arm.
    more_paired: tuple[PairedResult, ...] = ()
    # How many outcomes each prompt version answered (those that recorded one): more
    # than one version means the arms compare answers to different wordings.
    prompt_versions: Mapping[str, int] = field(default_factory=dict)

    @property
    def simulated(self) -> bool:
        return self.settings.get("sim_accuracy") is not None

    @property
    def mixed_prompt_versions(self) -> bool:
        return len(self.prompt_versions) > 1


def versions_words(versions: Mapping[str, int]) -> str:
    """"v4 (18 questions), v5 (12)": each prompt version and its questions."""
    return ", ".join(f"{version} ({count}{' questions' if i == 0 else ''})"
                     for i, (version, count) in enumerate(versions.items()))


def caveat(n: int, width: float | None = None) -> str | None:
    """Why a figure is not a finding, in words; None when it may be read as one."""
    if n < MIN_QUESTIONS:
        return f"not a finding: {n} question{'' if n == 1 else 's'}, fewer than {MIN_QUESTIONS}"
    if width is not None and width > MAX_CI_WIDTH:
        return f"not a finding: the interval is {width:.2f} wide, over {MAX_CI_WIDTH}"
    return None


def _arm_json(arm: ArmResult) -> dict[str, Any]:
    acc = arm.accuracy
    note = caveat(acc.n, acc.ci.width)
    per_right = cost_per_right_answer(arm.cost_usd, acc.right)
    return {
        "accuracy": None if acc.rate is None else round(acc.rate, 4),
        "ci": [round(acc.ci.low, 4), round(acc.ci.high, 4)],
        "n": acc.n,
        "right": acc.right,
        "prompt_tokens": arm.prompt_tokens,
        "completion_tokens": arm.completion_tokens,
        "cost_usd": None if arm.cost_usd is None else round(arm.cost_usd, 6),
        "cost_known": arm.cost_usd is not None,
        "cost_per_right_usd": None if per_right is None else round(per_right, 6),
        "seconds": round(arm.seconds, 3),
        "brier": None if arm.brier is None else round(arm.brier, 4),
        "reliability": [_bin_json(b) for b in arm.reliability],
        "finding": note is None,
        "caveat": note,
        "models": list(arm.models),
    }


def _bin_json(bin_: ReliabilityBin) -> dict[str, Any]:
    def rounded(value: float | None) -> float | None:
        return None if value is None else round(value, 4)

    return {"low": bin_.low, "high": bin_.high, "n": bin_.n,
            "mean_confidence": rounded(bin_.mean_confidence), "accuracy": rounded(bin_.accuracy)}


def _paired_json(paired: PairedResult) -> dict[str, Any]:
    t, f = paired.table, paired.flips
    note = caveat(t.n)
    return {
        "first": paired.first,
        "second": paired.second,
        "table": {"both_right": t.both_right, f"{paired.first}_only": t.first_only,
                  f"{paired.second}_only": t.second_only, "both_wrong": t.both_wrong},
        "n": t.n,
        # Four significant digits: a p of 1e-20 must not read as 0.
        "p_value": float(f"{paired.p_value:.4g}"),
        "flips": {"changed": f.changed, "changed_to_right": f.changed_to_right,
                  "changed_from_right": f.changed_from_right},
        "finding": note is None,
        "caveat": note,
    }


def report_json(report: EvaluationReport) -> dict[str, Any]:
    out: dict[str, Any] = {
        "set": report.set_name,
        "simulated": report.simulated,
        "settings": dict(report.settings),
        "prompt_versions": dict(report.prompt_versions),
        "arms": {name: _arm_json(arm) for name, arm in report.arms.items()},
        "paired": {},
    }
    for paired in _all_paired(report):
        out["paired"][paired.key] = _paired_json(paired)
    return out


def _all_paired(report: EvaluationReport) -> list[PairedResult]:
    return ([report.paired] if report.paired is not None else []) + list(report.more_paired)


def _money(value: float | None, *, known: bool = True) -> str:
    if not known:
        return "unknown"
    return "–" if value is None else f"${value:.4f}"


def _arm_row(name: str, arm: ArmResult) -> str:
    acc = arm.accuracy
    rate = "–" if acc.rate is None else f"{acc.rate:.3f}"
    brier = "–" if arm.brier is None else f"{arm.brier:.3f}"
    note = caveat(acc.n, acc.ci.width) or ""
    priced = arm.cost_usd is not None
    models = ", ".join(dict.fromkeys(arm.models)) or "–"  # each model once
    cells = [name, rate, f"[{acc.ci.low:.3f}, {acc.ci.high:.3f}]", str(acc.n),
             str(arm.prompt_tokens), str(arm.completion_tokens),
             _money(arm.cost_usd, known=priced),
             _money(cost_per_right_answer(arm.cost_usd, acc.right), known=priced), brier, note,
             models]
    return "| " + " | ".join(cells) + " |"


def _p_text(p_value: float) -> str:
    return "p < 0.0001" if p_value < 0.0001 else f"p = {p_value:.4f}"


def _changes(paired: PairedResult) -> str:
    f = paired.flips
    if (paired.first, paired.second) == (COUNCIL, VOTE):
        return (f"The debate changed the vote's answer on {f.changed} of {f.n} questions: "
                f"{f.changed_to_right} to the right answer, {f.changed_from_right} away "
                "from it.")
    return (f"{paired.first} answered otherwise than {paired.second} on {f.changed} of "
            f"{f.n} questions: {f.changed_to_right} right where {paired.second} was wrong, "
            f"{f.changed_from_right} wrong where it was right.")


def _paired_lines(paired: PairedResult) -> list[str]:
    t, first, second = paired.table, paired.first, paired.second
    title = ("Council against vote" if (first, second) == (COUNCIL, VOTE)
             else f"{first} against {second}")
    lines = [
        "",
        f"{title}, on the same questions:",
        "",
        f"| | {second} right | {second} wrong |",
        "|---|---|---|",
        f"| {first} right | {t.both_right} | {t.first_only} |",
        f"| {first} wrong | {t.second_only} | {t.both_wrong} |",
        "",
        f"Exact McNemar {_p_text(paired.p_value)} ({t.first_only} against {t.second_only} "
        "discordant questions).",
        _changes(paired),
    ]
    note = caveat(t.n)
    return lines + ([f"This comparison is {note}."] if note else [])


def report_markdown(report: EvaluationReport) -> str:
    lines = [f"## Evaluation: {report.set_name}", ""]
    if report.simulated:
        lines += ["Simulated: a simulated population answered (docs/engine.md, "
                  "\"Evaluation harness\"); these figures check the harness, they say "
                  "nothing about a model.", ""]
    if report.mixed_prompt_versions:
        lines += [f"Mixed prompt versions: {versions_words(report.prompt_versions)}. The arms "
                  "compare answers to different wordings; read them per version.", ""]
    lines += [
        "| arm | accuracy | 95 % CI | n | prompt tokens | completion tokens | cost "
        "| cost per right answer | Brier | | models |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_arm_row(name, arm) for name, arm in report.arms.items()]
    for paired in _all_paired(report):
        lines += _paired_lines(paired)
    return "\n".join(lines) + "\n"
