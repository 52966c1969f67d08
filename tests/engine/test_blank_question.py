"""A question of only invisible characters is blank: zero-width spaces, joiners, the
byte-order mark or Hangul fillers leave the panel nothing to debate (issue 27)."""

from __future__ import annotations

import pytest

from debates.engine.inputs import InputError, clean_question

INVISIBLE = ["\u200b\u200b\u200b", "\ufeff", " \u200d\u2060 ", "\u200e\u200f", "\u3164",
             "\u2800\n\u200b"]


@pytest.mark.parametrize("question", INVISIBLE, ids=[repr(q) for q in INVISIBLE])
def test_a_question_of_only_invisible_characters_is_empty(question):
    with pytest.raises(InputError, match="the question is empty"):
        clean_question(question)


def test_invisible_characters_inside_a_real_question_stay():
    assert clean_question(" Should we\u200b go? ") == "Should we\u200b go?"


def test_the_api_refuses_an_invisible_question_and_saves_nothing(member_client):
    from debates.models import Debate

    response = member_client.post("/api/debates/", {"question": "\u200b\u200b\u200b"},
                                  content_type="application/json")
    assert response.status_code == 400, response.content
    assert "the question is empty" in response.json()["message"]
    assert not Debate.objects.exists()
