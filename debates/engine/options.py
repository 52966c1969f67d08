"""The options a debate decides between (docs/protocols.md 1.4): given by the user,
else named by the question, else for, against, conditional. Every protocol's result
lists them (what a decision on the debate can name), so they are shared; how the
council's agents choose among them is the council's (``protocols/council/verdicts.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

CONDITIONAL = "conditional"
YES_NO = ("for", "against", CONDITIONAL)
MIN_OPTIONS, MAX_OPTIONS = 2, 8
MAX_OPTION_CHARS = 80

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


def normalize(value: Any, options: Sequence[str]) -> Any:
    """A verdict matched to its option ignoring case and spacing; other values as they
    are (for the schema to reject)."""
    if not isinstance(value, str):
        return value
    key = " ".join(value.split()).casefold()
    return next((o for o in options if o.casefold() == key), value)
