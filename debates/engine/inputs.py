"""Checks on user input that must fail before anything runs or is saved."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .llm.capabilities import BUILTIN_PROVIDERS, provider_of
from .schemas import MAX_AGENTS, MAX_QUESTION_CHARS


class InputError(ValueError):
    """Bad input, in words for the user; ``field`` names the input it is about when
    one is (the API's ``errors`` key: docs/api.md, "Errors")."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


# Letters that draw nothing (the Hangul fillers, the blank Braille pattern), besides
# the format characters of category Cf.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(text: str) -> bool:
    """Whether anything is left once format characters (zero-width spaces and joiners,
    the byte-order mark, direction marks: category Cf), blank letters and whitespace are
    taken out: a question of only those reads as blank, and the panel would debate
    nothing."""
    return any(not ch.isspace() and ch not in BLANK_LETTERS
               and unicodedata.category(ch) != "Cf" for ch in text)


def clean_question(question: str | None) -> str:
    text = (question or "").strip()
    if not _visible(text):
        raise InputError("the question is empty", field="question")
    if len(text) > MAX_QUESTION_CHARS:
        raise InputError(
            f"the question is {len(text):,} characters long; the limit is {MAX_QUESTION_CHARS:,}",
            field="question"
        )
    return text


def check_model(model: str, field: str | None = None) -> str:
    """Refuses model strings litellm cannot route (a typo must not surface as a
    failed debate twenty calls later); ``field`` names the input that gave it."""
    model = model.strip()
    if not model:
        raise InputError("the model name is empty", field=field)
    if provider_of(model) in BUILTIN_PROVIDERS:
        return model
    # Imported here: litellm takes ~5 s to import, and most callers never get this far.
    from .llm.loader import litellm_module

    litellm = litellm_module()

    try:
        litellm.get_llm_provider(model)
    except Exception:  # litellm raises its BadRequestError with a long help text
        raise InputError(
            f"unknown model '{model}': litellm cannot tell its provider; use a litellm model "
            "string such as 'openai/gpt-4o-mini', 'ollama/llama3' or 'sim/default'",
            field=field) from None
    return model


def parse_panel_models(text: str | Sequence[str] | None,
                       field: str | None = "panel_models") -> list[str]:
    """A mixed panel's models (``"a, b"`` or a list), each checked as ``check_model``
    checks it; blank -> [] (every agent on the debate's model). At most one a seat."""
    items = text.split(",") if isinstance(text, str) else list(text or [])
    models = [check_model(str(m), field=field) for m in items if str(m).strip()]
    if len(models) > MAX_AGENTS:
        raise InputError(f"{len(models)} panel models for at most {MAX_AGENTS} agents",
                         field=field)
    return models

