"""The simulator answers in the question's language, as a real model does: a whole
quick debate's text in Japanese, Korean, French or German for a question in it."""

from __future__ import annotations

import asyncio

import pytest

from debates.engine import run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.language import detect_language
from debates.engine.protocols.council.schemas import DebateResult
from debates.engine.protocols.council.synthesis import build_result
from debates.engine.schemas import Usage
from debates.engine.state import DebateState

QUESTIONS = {
    "ja": "請求サービスを来四半期にMySQLからPostgreSQLへ移行すべきですか？",
    "ko": "다음 분기에 결제 서비스를 MySQL에서 PostgreSQL로 옮겨야 할까요?",
    "fr": "Devrions-nous migrer notre service de facturation de MySQL vers PostgreSQL ?",
    "de": "Sollten wir unseren Abrechnungsdienst von MySQL auf PostgreSQL umstellen?",
}


def debate(question: str, seed: int) -> DebateResult:
    config = resolve_config(mode="quick", model="sim/default", seed=seed)
    state = DebateState(question=question, config=config)
    asyncio.run(run_protocol(state, EngineHooks()))
    return build_result(state, Usage())


def texts_of(result: DebateResult) -> dict[str, list[str]]:
    """The model-written text of a result, by where it appears."""
    path = result.recommended_path
    divergence = result.divergence_report
    return {
        "personas": [f"{a.persona.background} {a.persona.approach} {a.persona.bias}"
                     for a in result.agents],
        "stances": [a.final_stance or "" for a in result.agents],
        "assumptions": [" ".join(a.key_assumptions) for a in result.agents],
        "premortem risks": [r.text for r in result.pre_positional_risks],
        "concerns": [c.text for c in result.post_positional_concerns],
        "synthesis": [
            path.recommendation if path else divergence.summary if divergence else "",
            " ".join(result.consensus_points),
        ],
    }


@pytest.mark.parametrize("language", sorted(QUESTIONS))
def test_a_debate_is_written_in_the_questions_language(language: str) -> None:
    for seed in (1,):
        result = debate(QUESTIONS[language], seed)
        assert result.language == language
        for where, texts in texts_of(result).items():
            written = [t for t in texts if t.strip()]
            assert written, where
            # Each piece on its own: a single English template would show up here.
            detected = {detect_language(t) for t in written}
            assert detected == {language}, (where, detected, written)


def test_japanese_personas_get_japanese_names() -> None:
    result = debate(QUESTIONS["ja"], 3)
    for agent in result.agents:
        assert detect_language(agent.persona.name + "さん") == "ja"
        assert not agent.persona.name.isascii()
