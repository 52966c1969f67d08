"""The answer language is the question's: script first, then vocabulary."""

from __future__ import annotations

import pytest

from debates.engine import prompts
from debates.engine.configure import resolve_config
from debates.engine.language import detect_language
from debates.engine.state import DebateState


@pytest.mark.parametrize(("text", "language"), [
    # Japanese is not Chinese because it uses kanji: kana decide.
    ("請求サービスを PostgreSQL に移行すべきでしょうか？", "ja"),
    ("新しい価格体系に移行すべきか", "ja"),
    ("我们的团队应该在十二个月内迁移到 PostgreSQL 吗？", "zh"),
    ("우리 팀은 1년 안에 PostgreSQL로 이전해야 할까요?", "ko"),
    ("Devrions-nous migrer notre service de facturation vers PostgreSQL ?", "fr"),
    ("Faut-il passer à la tarification à l'usage ?", "fr"),
    ("Sollten wir unseren Abrechnungsdienst auf PostgreSQL migrieren?", "de"),
    ("Sollen wir auf nutzungsbasierte Preise umstellen?", "de"),
    ("¿Deberíamos migrar nuestro servicio de facturación?", "es"),
    ("Should we split our Django monolith into microservices?", "en"),
    ("Стоит ли нам переходить на PostgreSQL?", "ru"),
])
def test_each_language_by_its_script_or_vocabulary(text, language):
    assert detect_language(text) == language


@pytest.mark.parametrize(("text", "language"), [
    # Product names in Latin letters do not make a Japanese or Chinese question English ...
    ("PostgreSQLとKubernetesとTerraformを使うべきですか", "ja"),
    ("我们应该用 Kubernetes 和 Terraform 吗", "zh"),
    # ... and a few quoted foreign words do not change an English sentence's language.
    ("Should we adopt 機械学習 for our fraud pipeline this year?", "en"),
    ("Is the French term « mise en production » clear to our team?", "en"),
])
def test_mixed_scripts(text, language):
    assert detect_language(text) == language


@pytest.mark.parametrize(("text", "language"), [
    ("Lohnt sich das?", "de"),
    ("Pourquoi ?", "fr"),
    ("移行？", "zh"),  # kanji alone cannot be told apart: Chinese
    ("いいですか", "ja"),
    ("Kubernetes?", "en"),
    ("42", "en"),
    ("", "en"),
])
def test_short_texts(text, language):
    assert detect_language(text) == language


@pytest.mark.parametrize(("question", "name"), [
    ("請求サービスを移行すべきでしょうか？", "Japanese"),
    ("우리 팀은 이전해야 할까요?", "Korean"),
    ("Devrions-nous migrer notre service ?", "French"),
])
def test_the_prompts_name_the_language(question, name):
    state = DebateState(question=question, config=resolve_config())
    system = prompts.system_prompt(state.language)
    assert f"language of the question ({name}" in system
