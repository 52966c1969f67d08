"""Every content rule: its name, the severity it fires at, its threshold and why, in a
registry the plugins fill (hook ``register_quality_rules``), the built-ins' table
(``BUILTIN_RULES``) the same way as a plugin's rules.

docs/engine.md ("Content checks") lists the built-ins' table; a test keeps them equal.
The built-in rules are fired by the text and panel checks (``text.py``, ``panel.py``)
with the figures each protocol hands over; a plugin's rule brings its own ``check``,
run over every result of the protocols it names (``assess.registered_reasons``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from ..loading import plugins_needed

Severity = Literal["doubtful", "unusable"]


@dataclass(frozen=True)
class Finding:
    """Where a rule fired and on what (the words shown with the reason)."""

    where: str
    evidence: str
    phase: str | None = None
    round: int | None = None
    agent: int | None = None


# A rule's own check: (the debate's state, its result) -> where the rule fires.
Check = Callable[[Any, Any], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    name: str
    severity: Severity
    threshold: str
    why: str
    # None for the built-ins (fired by the text and panel checks).
    check: Check | None = None
    # The protocols whose results ``check`` reads; empty: every protocol's.
    protocols: tuple[str, ...] = ()

    def reads(self, protocol: str) -> bool:
        """Whether ``check`` runs on a result of ``protocol``."""
        return not self.protocols or protocol in self.protocols


# Thresholds the checks read (text.py, panel.py): named once, quoted in the table.
DIGIT_RUN_NUMBERS = 5  # "1.2.1.1.1": five numbers chained by one separator
REPETITION_MIN_TOKENS = 12
REPETITION_MAX_DISTINCT = 0.5  # distinct share of word trigrams
ECHO_MIN_TOKENS = 6
ECHO_SHARE = 0.8  # share of a text's word 4-grams found in the prompts
EMPTY_MAX_WORDS = 1
EMPTY_MAX_CJK_CHARS = 2
# Share of a quote's words found in the debate: a third, so a paraphrase passes.
QUOTE_MIN_FOUND = 1 / 3
STANCE_SIMILARITY = 0.9
# Share of a debate's citations of its sources that do not check out (an unknown
# passage id, or a quote not in the passage cited) from which the result is doubtful.
UNFOUND_CITATION_SHARE = 1 / 3
REPEATED_ITEM_TIMES = 3  # one item this many times in one list

BUILTIN_RULES: tuple[Rule, ...] = (
    Rule("degenerate_text.digit_run", "doubtful",
         f"{DIGIT_RUN_NUMBERS} or more numbers chained by one separator (1.2.1.1.1)",
         "a small model under a grammar loops on outline numbering; no sentence holds it"),
    Rule("degenerate_text.repetition", "doubtful",
         f"at least {REPETITION_MIN_TOKENS} words and fewer than "
         f"{REPETITION_MAX_DISTINCT:.0%} of their word trigrams distinct",
         "a text that keeps saying the same few words says nothing new"),
    Rule("degenerate_text.echo", "doubtful",
         "the whole text is a schema field name or enum value (in a short label: written "
         "as the identifier, remaining_risks), or the question, or "
         f"{ECHO_SHARE:.0%} of its word 4-grams (at least {ECHO_MIN_TOKENS} words) are "
         "the prompt's own",
         "a model that copies its instructions or the schema answered nothing"),
    Rule("empty_content.one_word", "doubtful",
         f"a prose field (a persona's background, a stance, a summary...) of "
         f"{EMPTY_MAX_WORDS} word, or {EMPTY_MAX_CJK_CHARS} CJK characters, or none; one "
         "that names one of the debate's options (\"lease\" as a stance) is an answer",
         "valid in form, empty of content: \"Backere\" is no background"),
    Rule("agents.placeholder_name", "doubtful",
         "a composed persona named like a placeholder (Name, Namen, Agent, Persona...) "
         "or two personas with the same name",
         "a panel of \"Namen\", \"Namen (2)\" was never composed"),
    Rule("confidence.extreme", "doubtful",
         "every confidence of every agent (2 or more), in every round, is 0 or 1",
         "a panel that is always certain or always clueless is not weighing anything"),
    Rule("confidence.frozen", "doubtful",
         "every agent (2 or more) gave the same confidence in every round (1 or more)",
         "confidences that never move and never differ are not a measurement"),
    Rule("stances.identical", "doubtful",
         f"every agent's (2 or more) stance the same text (word similarity >= "
         f"{STANCE_SIMILARITY}; stances of stop words alone, \"Against\" and \"For\", "
         "only when equal)",
         "independent agents writing one sentence copied it, they did not agree"),
    Rule("evidence.unfound_quote", "doubtful",
         "a quote cited as evidence (a verifier's quote, a workflow citation) of which "
         "under a third of the words (stemmed, stop words left out) appear in the "
         "debate, its question or its sources",
         "a citation of something nobody said supports nothing"),
    Rule("evidence.unfound_citation", "doubtful",
         f"at least {UNFOUND_CITATION_SHARE:.0%} of the citations of the debate's sources "
         "(and at least one) name no passage of them or quote words not in the passage "
         "cited",
         "a quote the source does not hold, cited as if it did, is an invented source; "
         "one slip among many real quotes is not a pattern, a third is"),
    Rule("decision.missing", "unusable",
         "the synthesis wrote neither a recommendation nor a divergence report",
         "a result without either has no decision at all, whatever else it says"),
    Rule("text.cut", "doubtful",
         "a text field of a turn that reached the bound the server was sent without "
         "ending its sentence (the engine ends it with \"…\"; one reason per turn, "
         "naming its fields)",
         "a sentence cut at a bound may have lost what qualifies it (\"... is no longer "
         "efficient and could\"): read it as cut, not as said; the rest of the turn "
         "stands, so doubtful, not unusable"),
    Rule("consensus.hollow", "doubtful",
         "every agent (2 or more) ends on one verdict after its verdicts moved or its "
         "mean confidence rose, while no round of cross-examination brought a new "
         "point, a passage found in the sources or a concession",
         "agreement reached without a new reason, a source or a concession is agreement "
         "by repetition (herding), not by argument"),
    Rule("stances.contradict_verdict", "doubtful",
         "a stance that is an option, or opens with one (\"Against: ...\"), other than "
         "the verdict given with it",
         "an agent that says \"Against\" and votes for cannot be read either way"),
    Rule("agents.unknown_credit", "doubtful",
         "a view or camp of the synthesis credited to a name no agent of the panel bears",
         "points credited to someone who does not exist were not raised by the panel"),
    Rule("degenerate_text.repeated_items", "doubtful",
         f"one item {REPEATED_ITEM_TIMES} or more times in one list of a turn (case, "
         "spacing and punctuation aside)",
         "a list that says one sentence again and again holds one item, not many"),
    Rule("counts.contradict", "doubtful",
         "a critic's claimed_counts differ from the issues it listed",
         "the critic's own words and its figures cannot both be right"),
    Rule("counts.false_convergence", "unusable",
         "the critique the debate converged on lists no issue while its counts claim some",
         "convergence read from an empty list the critic itself contradicts is not "
         "convergence"),
    Rule("contracts.none_met", "doubtful",
         "no workflow role met its phase 2 contract",
         "the discussion the convergence rests on did not take place"),
    Rule("judge.poor", "doubtful",
         "the optional judge model graded the synthesis poor",
         "a second reader found the synthesis empty or incoherent"),
    Rule("degenerate_decision", "unusable",
         "any text rule fires on the decision itself (recommendation, final solution, "
         "a version of the adversarial proposal, workflow summary)",
         "a recommendation made of noise must never read as one"),
)

_RULES: dict[str, Rule] = {}


def register_rule(rule: Rule) -> None:
    """The plugins' ``register`` for content rules; a name is one rule."""
    known = _RULES.get(rule.name)
    if known is not None and known != rule:
        raise ValueError(f"another content rule named {rule.name!r} is already registered")
    _RULES[rule.name] = rule


def all_rules() -> dict[str, Rule]:
    """Every registered rule by name, the built-ins first."""
    plugins_needed()
    return dict(_RULES)


def reason_severity(rule: str) -> Severity:
    plugins_needed()
    return _RULES[rule].severity
