"""Options and verdicts: what the panel decides between, and how far it agrees
(docs/protocols.md 1.4 and 1.6).

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

from .i18n import option_label
from .schemas import CrossExamination, Position, VerdictSplit

CONDITIONAL = "conditional"
YES_NO = ("for", "against", CONDITIONAL)
MIN_OPTIONS, MAX_OPTIONS = 2, 8
MAX_OPTION_CHARS = 80
# Converged needs at least this share on one verdict: all of 3, 3 of 4, 4 of 5, 5 of 6.
AGREEMENT_NEEDED = 0.75

# "Kafka or SQS?", "Rust vs Go", "Postgres versus MySQL"; Chinese "A还是B", Japanese
# "AかBか" / "AそれともB". Only the question's last sentence with a question mark is read.
_SEPARATORS = re.compile(r"\s+(?:or|vs\.?|versus)\s+|还是|それとも", re.IGNORECASE)
_NOT = re.compile(r"^(?:not|no|nothing|neither)\b", re.IGNORECASE)
# Where a named thing's phrase ends when what follows is shared by every alternative:
# "Kafka or SQS for the event bus" -> "SQS".
_TAIL = re.compile(
    r"\s+(?:for|to|in|on|at|with|by|as|when|if|given|this|next|before|after|from|"
    r"instead|over)\b.*$", re.IGNORECASE)
# The question's frame before the first alternative: "should we", "is it better to".
_FRAME = frozenset(
    "should shall do does would will can could must is are it better best worth we i you "
    "they our the team to".split())
# Verbs that open an alternative worded as an action ("keep focusing on onboarding").
_VERBS = frozenset(
    "use adopt choose pick go move migrate switch keep build buy stay hire rewrite launch "
    "focus invest raise lower cut ship delay wait hold expand sell partner outsource run "
    "continue start stop offer charge add drop replace make spend open close join leave "
    "merge split rebuild refactor fix upgrade downgrade license rent lease acquire fund "
    "pause cancel".split())
_ARTICLES = frozenset("a an the".split())
_LINKS = frozenset("with to on for".split())  # "go with Kafka", "move to Postgres"
# A phrase longer than this is not one alternative of a list: the parser cannot tell
# where it starts, so it gives the yes/no options rather than a fragment.
_MAX_NAMED_WORDS = 12


def _sentence(question: str) -> str:
    text = question.strip()[:2000]
    marks = [m.end() for m in re.finditer(r"[?？]", text)]
    if not marks:
        return ""
    start = max((m.end() for m in re.finditer(r"[.!。！\n]", text[:marks[-1]])), default=0)
    return text[start:marks[-1]].strip().rstrip("?？").strip()


def _drop_leading(words: list[str], drop: frozenset[str]) -> list[str]:
    while words and words[0].casefold() in drop:
        words = words[1:]
    return words


def _cjk(text: str) -> bool:
    return bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text))


def _cjk_named(head: list[str], parts: list[str]) -> list[str]:
    first = re.split(r"用|选择|选|采用|使用|是|は|を", head[-1])[-1]
    right = [re.split(r"[をはにでの吗呢]|好|更", p)[0] for p in parts[1:]]
    return [*head[-3:-1], first, *right] if len(head) > 1 else [first, *right]


def _english_named(head: list[str], parts: list[str]) -> list[str] | None:
    """The alternatives as whole phrases, or None when the sentence does not show where
    the first one starts (a fragment is worse than for/against)."""
    left = _drop_leading(head[-1].split(), _FRAME)
    rights = [p.split() for p in parts[1:]]
    if not left or any(not r for r in rights):
        return None
    if left[0].casefold() in _VERBS and rights[-1][0].casefold() in _VERBS:
        # Actions: "build SSO this quarter, or keep focusing on onboarding". Each
        # alternative is its whole clause; nothing after one is shared. (Both sides must
        # open with a verb: in "Rust vs Go" the Go is a thing.)
        named = [" ".join(left), *(" ".join(r) for r in rights)]
        extra: list[str] = []
    else:
        # Things: "use Kafka or SQS for the event bus". What follows the last thing is
        # shared context; the first thing is what the question's verb acts on.
        rights = [_TAIL.sub("", " ".join(r)).split() for r in rights]
        width = max(len(r) for r in rights)
        left = _drop_leading(_drop_leading(left, _VERBS | _LINKS), _ARTICLES)
        if not left or len(left) > width + 2:
            return None  # "launch the page in Europe or the US": where does it start?
        named = [" ".join(left), *(" ".join(r) for r in rights)]
        # "Postgres, MySQL or SQLite": short items before the first one are more.
        extra = [h for h in head[-3:-1] if 0 < len(h.split()) <= width + 1]
    named = [*extra, *named]
    if any(not n or len(n.split()) > _MAX_NAMED_WORDS for n in named):
        return None
    return named


def options_from_question(question: str) -> list[str]:
    """The options a question names ("Kafka or SQS?" -> Kafka, SQS, conditional), else
    the yes/no options. Code's fallback for when no compose call names them: it keeps
    each alternative whole or gives the yes/no options, never a fragment."""
    sentence = _sentence(question)
    parts = [p.strip(" ,;:、，") for p in _SEPARATORS.split(sentence)] if sentence else []
    if len(parts) < 2 or any(_NOT.match(p) or not p for p in parts[1:]):
        return list(YES_NO)
    # "A, B or C": commas before the first separator list further alternatives.
    head = [p.strip() for p in re.split(r"[,，、]", parts[0])]
    named = _cjk_named(head, parts) if _cjk(sentence) else _english_named(head, parts)
    if named is None:
        return list(YES_NO)
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
