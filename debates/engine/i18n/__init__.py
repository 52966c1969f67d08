"""Fixed wording of reports, pages, stop explanations and notes, from the product's
own translations (never from the model).

The wording lives in gettext catalogues (docs/engine.md, "Translations"): the engine's
shared wording here (``locale/<lang>/LC_MESSAGES/engine.po``), each protocol's own beside
it (``protocols/<name>/locale``, read through :func:`catalogue`), the pages' own in the
web app, which chains its catalogue in front of these (``debates.page_words``). Every
reader is the one :class:`Catalogue`: gettext catalogues chained by ``add_fallback``,
plurals by ``ngettext`` and each catalogue's ``Plural-Forms``. English, Simplified
Chinese, Japanese and French are complete (a test checks every key); any other language
gets English headings around the model's native content (docs/protocols.md 0,
"Language"). The Markdown report, the exports and the web pages all read
these catalogues, so a debate reads the same everywhere.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Container
from pathlib import Path

from .catalogues import Catalogue, CatalogueNotCompiled, Translator, domain_layers

__all__ = ["Catalogue", "CatalogueNotCompiled", "Translator", "catalogue", "domain_layers",
           "option_label", "step_words", "translator"]

LOCALE_DIR = Path(__file__).parent / "locale"


@functools.cache
def translator(language: str) -> Catalogue:
    """``t(key, **values)``: the engine's shared wording in ``language`` (English for
    languages without a catalogue, and for a key a catalogue lacks)."""
    return Catalogue(language, domain_layers("engine", LOCALE_DIR, language))


@functools.cache
def catalogue(domain: str, localedir: Path, language: str) -> Catalogue:
    """A protocol's own wording (``localedir/<lang>/LC_MESSAGES/<domain>.mo``) in
    ``language``, with the engine's shared wording behind it: how a protocol, built in
    or a plugin, ships its labels."""
    return Catalogue(language, [*domain_layers(domain, localedir, language),
                                *translator(language).layers()])


def step_words(t: Translator, label: str) -> str:
    """A step's label (``premortem``, ``round 2`` — what ``Step.label`` and
    ``AgentResult.failed_in`` hold) in the translator's language."""
    if label.startswith("round "):
        return t("step.round", round=label.removeprefix("round "))
    # The adversarial ("propose 2") and workflow ("phase 2b") protocols' numbered steps.
    word, _, number = label.partition(" ")
    if number and word in ("phase", "propose", "critique", "convergence") \
            and number != "check":
        return t(f"step.{word}", n=number)
    # The given translator's keys: a protocol's catalogue (``DebateProtocol.labels``,
    # the shared wording behind it) words a plugin's phases too.
    known = t if isinstance(t, Container) else translator("en")
    if f"phase.{label}" in known:  # a phase named without its round (activity log)
        return t(f"phase.{label}")
    return t(f"step.{label}") if f"step.{label}" in known else label


# Who cited a passage when no agent did (a panel-wide call), as the evidence stores it.
PANEL_CITER = "synthesis"


def citer_words(t: Translator, name: str) -> str:
    """Who cited a passage (``EvidenceUse.cited_by``): an agent's name as it is, the
    panel-wide synthesis in the translator's language."""
    return step_words(t, name) if name == PANEL_CITER else name


def where_words(t: Translator, where: str) -> str:
    """Where a citation stands (``CheckedCitation.where``: "round 2 · Alice", stored in
    English as step labels are) in the translator's language."""
    step, sep, who = where.partition(" · ")
    return step_words(t, step) + (sep + citer_words(t, who) if sep else "")


def option_label(option: str, t: Callable[..., str]) -> str:
    """An option in the debate's language: the fixed ones (for, against, conditional:
    those with a ``verdict.`` entry in the table) translated, named ones as the
    question or the user wrote them."""
    key = f"verdict.{option}"
    return t(key) if key in translator("en") else option
