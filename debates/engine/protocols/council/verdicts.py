"""Verdicts: which option each council agent chooses, and how far the panel agrees
(docs/protocols.md 1.4 and 1.6). The options themselves are shared (``options.py``).

Agreement is measured on the decision, not on self-confidence: two agents 0.8 sure
of opposite answers have no dispersion and no agreement. Every debate has a short
list of options, fixed before round 0; each position names one as its verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, create_model

from ...i18n import option_label
from ...options import CONDITIONAL, MAX_OPTIONS, clean_options, normalize, options_from_question
from .schemas import Challenge, ChallengeAnswer, CrossExamination, Position, VerdictSplit

# Converged needs at least this share on one verdict: all of 3, 3 of 4, 4 of 5, 5 of 6.
AGREEMENT_NEEDED = 0.75


def composed_options(raw: Sequence[str], question: str) -> list[str]:
    """The compose call's options, with ``conditional`` added when missing; the
    question's own when the model gave fewer than two usable ones."""
    try:
        options = clean_options(raw)
    except ValueError:
        return options_from_question(question)
    if CONDITIONAL not in {o.casefold() for o in options} and len(options) < MAX_OPTIONS:
        options.append(CONDITIONAL)
    return options


@cache
def _constrained(options: tuple[str, ...]) -> tuple[type[BaseModel], ...]:
    choice = Annotated[Literal[options], BeforeValidator(lambda v: normalize(v, options))]  # type: ignore[valid-type]
    position = create_model("Position", __base__=Position, verdict=(choice, ...))
    exam = create_model("CrossExamination", __base__=CrossExamination,
                        updated_verdict=(choice | None, None))
    challenge = create_model("Challenge", __base__=Challenge, target_verdict=(choice, ...))
    answer = create_model("ChallengeAnswer", __base__=ChallengeAnswer, verdict=(choice, ...))
    return position, exam, challenge, answer


def position_schema(options: Sequence[str]) -> type[BaseModel]:
    """``Position`` whose verdict must be one of ``options`` (an enum in its JSON schema)."""
    return _constrained(tuple(options))[0]


def cross_exam_schema(options: Sequence[str]) -> type[BaseModel]:
    return _constrained(tuple(options))[1]


def challenge_schema(options: Sequence[str]) -> type[BaseModel]:
    """The devil's advocate's ``Challenge``: its target verdict one of ``options``."""
    return _constrained(tuple(options))[2]


def challenge_answer_schema(options: Sequence[str]) -> type[BaseModel]:
    """An agent's ``ChallengeAnswer``: its verdict one of ``options``."""
    return _constrained(tuple(options))[3]


def majority_of(split_: VerdictSplit | None) -> str | None:
    """The leading view a challenge attacks: a verdict held by more than half of the
    counted agents; None on a split panel (docs/protocols.md 1.7a)."""
    if split_ is None or split_.leading is None or split_.supporters * 2 <= split_.of:
        return None
    return split_.leading


def split(verdicts: Sequence[str | None], options: Sequence[str]) -> VerdictSplit | None:
    """How ``verdicts`` (one per counted agent, None = none given) fall on ``options``.

    ``agreement`` is the share of agents on the most common verdict, over every counted
    agent (one without a usable verdict lowers it). When two options tie for most
    common, none leads (``leading`` None): the share of either is what counts. None
    when no agent gave a verdict at all (turns stored before verdicts existed)."""
    usable = [normalize(v, options) for v in verdicts]
    usable = [v if v in options else None for v in usable]
    if not verdicts or all(v is None for v in usable):
        return None
    counts = {o: usable.count(o) for o in options if usable.count(o)}
    top = max(counts.values())
    leaders = [o for o, n in counts.items() if n == top]
    return VerdictSplit(
        counts=counts, of=len(verdicts), supporters=top,
        leading=leaders[0] if len(leaders) == 1 else None,
        agreement=top / len(verdicts),
    )


def leading_of(values: Sequence[str | None]) -> str | None:
    """The most common non-null value, None on a tie (for the simulator's peers)."""
    counts: dict[str, int] = {}
    for v in values:
        if v is not None:
            counts[v] = counts.get(v, 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    leaders = [v for v, n in counts.items() if n == top]
    return leaders[0] if len(leaders) == 1 else None


def describe_counts(counts: dict[str, int], of: int, t: Callable[..., str]) -> str:
    """``{"for": 4, "conditional": 1}`` of 5 -> "4 of 5 for, 1 conditional", largest
    first; agents without a verdict are the difference to ``of``."""
    ordered = sorted(counts.items(), key=lambda item: -item[1])
    if not ordered:
        return t("split.none", of=of)
    parts = [t("split.first", n=ordered[0][1], of=of, option=option_label(ordered[0][0], t))]
    parts += [t("split.more", n=n, option=option_label(o, t)) for o, n in ordered[1:]]
    return t("split.sep").join(parts)


def describe(split_: VerdictSplit, t: Callable[..., str]) -> str:
    return describe_counts(split_.counts, split_.of, t)
