"""The workflow's ``summary.stop_explanation`` is words in the question's language: the
outcome and the basis of the last convergence check, never their identifiers, even
when a model wrote an identifier where a sentence belonged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from debates.engine.protocols import get_protocol
from debates.engine.protocols.workflow.labels import labels
from debates.engine.protocols.workflow.schemas import (
    Basis,
    ConvergenceCheck,
    ConvergenceStatus,
    stop_explanation,
)

FIXTURES = Path(__file__).parents[1] / "fixtures"
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")  # two_agree_third_accepts, new_concerns


def echoed_identifiers() -> ConvergenceStatus:
    """What a weak model answered in the field test: identifiers, not sentences."""
    check = ConvergenceCheck(basis=Basis.TWO_AGREE_THIRD_ACCEPTS,
                             key_agreement="two_agree_third_accepts",
                             remaining_tension="new_concerns")
    return ConvergenceStatus(rounds=1, status="partially_converged",
                             key_agreement=check.key_agreement,
                             remaining_tension=check.remaining_tension, checks=[check])


def test_identifiers_become_english_words():
    assert stop_explanation(echoed_identifiers(), "en") == (
        "partially converged (two roles agree and the third accepts): two roles agree "
        "and the third accepts; remaining tension: new concerns came up")


@pytest.mark.parametrize("language", ["zh", "ja"])
def test_identifiers_become_words_of_the_questions_language(language):
    t = labels(language)
    text = stop_explanation(echoed_identifiers(), language)
    assert IDENTIFIER.search(text) is None, text
    assert re.search(r"[A-Za-z]", text) is None, text
    assert t("wf.basis.new_concerns") in text
    assert t("page.wf_status.partially_converged") in text


@pytest.mark.parametrize("stored", ["results/workflow.json", "results_pre_issue21/workflow.json"])
def test_a_stored_result_explains_itself_in_words(stored):
    result = get_protocol("workflow").parse_result(
        json.loads((FIXTURES / stored).read_text()))
    text = result.summary.stop_explanation
    assert IDENTIFIER.search(text) is None, text
    assert text.startswith(f"{result.convergence.status.replace('_', ' ')} (")
    assert result.convergence.key_agreement in text


def test_a_failed_last_check_says_there_was_none():
    status = ConvergenceStatus(rounds=2, status="divergent", key_agreement="",
                               remaining_tension="the convergence check failed",
                               checks=echoed_identifiers().checks)
    assert stop_explanation(status, "en").startswith("divergent (no convergence check): -;")
