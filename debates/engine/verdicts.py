"""Options and verdicts: what the panel decides between, and how far it agrees
(protocols.md 1.4 and 1.6).

Agreement is measured on the decision, not on self-confidence: two agents 0.8 sure
of opposite answers have no dispersion and no agreement. Every debate has a short
list of options, fixed before round 0; each position names one as its verdict.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, create_model

from .schemas import CrossExamination, Position, VerdictSplit

CONDITIONAL = "conditional"
YES_NO = ("for", "against", CONDITIONAL)
# Options a model cannot mean as fixed words get translated on pages and reports.
FIXED_OPTIONS = frozenset(YES_NO)
MIN_OPTIONS, MAX_OPTIONS = 2, 8
MAX_OPTION_CHARS = 80
# Converged needs at least this share on one verdict: all of 3, 3 of 4, 4 of 5, 5 of 6.
AGREEMENT_NEEDED = 0.75

# "Kafka or SQS?", "Rust vs Go", "Postgres versus MySQL"; Chinese "A还是B", Japanese
# "AかBか" / "AそれともB". Only the question's last sentence with a question mark is read.
_SEPARATORS = re.compile(r"\s+(?:or|vs\.?|versus)\s+|还是|それとも", re.IGNORECASE)
_NOT = re.compile(r"^(?:not|no|nothing|neither)\b", re.IGNORECASE)
# Where a named alternative's phrase ends: "SQS for the event bus" -> "SQS".
_TAIL = re.compile(
    r"\s+(?:for|to|in|on|at|with|by|as|when|if|given|this|next|before|after|from|"
    r"instead|over)\b.*$", re.IGNORECASE)
_LEAD = re.compile(
    r"^(?:should|shall|do|does|would|will|can|could|must|is|are|we|i|you|they|our|the|a|an|"
    r"use|adopt|choose|pick|go|with|move|to|migrate|switch|keep|build|buy|stay|on)\s+",
    re.IGNORECASE)


def _sentence(question: str) -> str:
    text = question.strip()[:2000]
    marks = [m.end() for m in re.finditer(r"[?？]", text)]
    if not marks:
        return ""
    start = max((m.end() for m in re.finditer(r"[.!。！\n]", text[:marks[-1]])), default=0)
    return text[start:marks[-1]].strip().rstrip("?？").strip()


def _strip_lead(phrase: str) -> str:
    previous = None
    while previous != phrase:
        previous, phrase = phrase, _LEAD.sub("", phrase, count=1)
    return phrase


def _cjk(text: str) -> bool:
    return bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text))


def options_from_question(question: str) -> list[str]:
    """The options a question names ("Kafka or SQS?" -> Kafka, SQS, conditional), else
    the yes/no options. Code's fallback for when no compose call extracts them."""
    sentence = _sentence(question)
    parts = [p.strip(" ,;:、，") for p in _SEPARATORS.split(sentence)] if sentence else []
    if len(parts) < 2 or any(_NOT.match(p) or not p for p in parts[1:]):
        return list(YES_NO)
    # "A, B or C": commas before the first separator list further alternatives.
    head = [p.strip() for p in re.split(r"[,，、]", parts[0])]
    right = [_TAIL.sub("", p).strip() for p in parts[1:]]
    if _cjk(sentence):
        first = re.split(r"用|选择|选|采用|使用|是|は|を", head[-1])[-1]
        right = [re.split(r"[をはにでの吗呢]|好|更", p)[0] for p in right]
    else:
        # The first alternative is as long as the others: "rewrite in Rust or keep
        # Python" -> "rewrite in Rust", not the whole "Should we rewrite in Rust".
        width = max(len(p.split()) for p in right)
        first = " ".join(_strip_lead(head[-1]).split()[-width:])
    named = [*head[-3:-1], first, *right] if len(head) > 1 else [first, *right]
    named = [re.sub(r"[か、]+$", "", n).strip() for n in named]
    if any(not n for n in named):
        return list(YES_NO)
    try:
        return clean_options([*named, CONDITIONAL])
    except ValueError:
        return list(YES_NO)


def clean_options(raw: Iterable[str]) -> list[str]:
    """Options as given (a form, --options, the compose call): stripped, duplicates
    (case-insensitive) dropped, 2-8 of at most 80 characters each. ValueError says what
    is wrong."""
    options: list[str] = []
    seen: set[str] = set()
    for item in raw:
        text = " ".join(str(item).split())
        if not text or text.casefold() in seen:
            continue
        if len(text) > MAX_OPTION_CHARS:
            raise ValueError(f"option {text[:30]!r}… is longer than {MAX_OPTION_CHARS} "
                             "characters")
        seen.add(text.casefold())
        options.append(text)
    if len(options) < MIN_OPTIONS:
        raise ValueError(f"give at least {MIN_OPTIONS} different options")
    if len(options) > MAX_OPTIONS:
        raise ValueError(f"give at most {MAX_OPTIONS} options")
    return options


def parse_options(text: str | Sequence[str] | None) -> list[str] | None:
    """``"Kafka, SQS"`` (or a list) -> the options; blank -> None (automatic)."""
    if text is None:
        return None
    items = text.split(",") if isinstance(text, str) else list(text)
    if not any(str(i).strip() for i in items):
        return None
    return clean_options(items)


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


def normalize(value: Any, options: Sequence[str]) -> Any:
    """A verdict matched to its option ignoring case and spacing; other values as they
    are (for the schema to reject)."""
    if not isinstance(value, str):
        return value
    key = " ".join(value.split()).casefold()
    return next((o for o in options if o.casefold() == key), value)


@cache
def _constrained(options: tuple[str, ...]) -> tuple[type[BaseModel], type[BaseModel]]:
    choice = Annotated[Literal[options], BeforeValidator(lambda v: normalize(v, options))]  # type: ignore[valid-type]
    position = create_model("Position", __base__=Position, verdict=(choice, ...))
    exam = create_model("CrossExamination", __base__=CrossExamination,
                        updated_verdict=(choice | None, None))
    return position, exam


def position_schema(options: Sequence[str]) -> type[BaseModel]:
    """``Position`` whose verdict must be one of ``options`` (an enum in its JSON schema)."""
    return _constrained(tuple(options))[0]


def cross_exam_schema(options: Sequence[str]) -> type[BaseModel]:
    return _constrained(tuple(options))[1]


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


def option_label(option: str, t: Callable[..., str]) -> str:
    """An option in the debate's language: the fixed ones translated, named ones as
    the question or the user wrote them."""
    return t(f"verdict.{option}") if option in FIXED_OPTIONS else option


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
