"""Every content rule: its name, the severity it fires at, its threshold and why.

docs/engine.md ("Content checks") lists the same table; a test keeps them equal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["doubtful", "unusable"]


@dataclass(frozen=True)
class Rule:
    name: str
    severity: Severity
    threshold: str
    why: str


# Thresholds the checks read (text.py, panel.py): named once, quoted in the table.
DIGIT_RUN_NUMBERS = 5  # "1.2.1.1.1": five numbers chained by one separator
REPETITION_MIN_TOKENS = 12
REPETITION_MAX_DISTINCT = 0.5  # distinct share of word trigrams
ECHO_MIN_TOKENS = 6
ECHO_SHARE = 0.8  # share of a text's word 4-grams found in the prompts
EMPTY_MAX_WORDS = 1
EMPTY_MAX_CJK_CHARS = 2
QUOTE_MIN_FOUND = 0.5  # share of a quote's words found in the debate
STANCE_SIMILARITY = 0.9

RULES: dict[str, Rule] = {r.name: r for r in (
    Rule("degenerate_text.digit_run", "doubtful",
         f"{DIGIT_RUN_NUMBERS} or more numbers chained by one separator (1.2.1.1.1)",
         "a small model under a grammar loops on outline numbering; no sentence holds it"),
    Rule("degenerate_text.repetition", "doubtful",
         f"at least {REPETITION_MIN_TOKENS} words and fewer than "
         f"{REPETITION_MAX_DISTINCT:.0%} of their word trigrams distinct",
         "a text that keeps saying the same few words says nothing new"),
    Rule("degenerate_text.echo", "doubtful",
         "the whole text is a schema field name, an enum value or the question, or "
         f"{ECHO_SHARE:.0%} of its word 4-grams (at least {ECHO_MIN_TOKENS} words) are "
         "the prompt's own",
         "a model that copies its instructions or the schema answered nothing"),
    Rule("empty_content.one_word", "doubtful",
         f"a prose field (a persona's background, a stance, a summary...) of "
         f"{EMPTY_MAX_WORDS} word, or {EMPTY_MAX_CJK_CHARS} CJK characters, or none",
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
         f"{STANCE_SIMILARITY})",
         "independent agents writing one sentence copied it, they did not agree"),
    Rule("evidence.unfound_quote", "doubtful",
         f"a quote cited as evidence of which under {QUOTE_MIN_FOUND:.0%} of the words "
         "appear in the debate, its question or its sources",
         "a citation of something nobody said supports nothing"),
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
         "workflow summary)",
         "a recommendation made of noise must never read as one"),
)}


def reason_severity(rule: str) -> Severity:
    return RULES[rule].severity
