"""Generated sets: seeded, and every answer right (recomputed here from the text alone)."""

from __future__ import annotations

import re

import pytest

from debates.engine.evaluation.sets import (
    MAX_GENERATED,
    NO,
    YES,
    Question,
    canonical_number,
    generate,
)


@pytest.mark.parametrize("name", ["arithmetic", "compare", "chain"])
def test_the_same_seed_gives_the_same_questions_and_another_seed_others(name):
    assert generate(name, 20, seed=7) == generate(name, 20, seed=7)
    assert generate(name, 20, seed=7).questions != generate(name, 20, seed=8).questions


@pytest.mark.parametrize("name", ["arithmetic", "compare", "chain"])
def test_ids_are_unique_and_name_the_set_and_seed(name):
    ids = [q.id for q in generate(name, 50, seed=3).questions]
    assert len(set(ids)) == 50
    assert ids[0] == f"{name}-3-1"


def test_arithmetic_answers_are_the_expressions_value():
    for question in generate("arithmetic", 200, seed=1).questions:
        expression = re.fullmatch(r"What is the result of ([\d+*\-]+)\?", question.text)
        assert expression, question.text
        assert re.fullmatch(r"\d+\+\d+\*\d+\+\d+-\d+\*\d+", expression[1])
        # Python's own precedence is the independent reference.
        assert question.answer == str(eval(expression[1]))  # digits and + * - only
        assert question.options is None and question.is_numeric


def test_compare_answers_the_comparison_and_is_balanced():
    questions = generate("compare", 11, seed=5).questions
    for question in questions:
        parts = re.fullmatch(r"Is (\d+)×(\d+) greater than (\d+)\?", question.text)
        assert parts, question.text
        x, y, threshold = map(int, parts.groups())
        assert x * y != threshold
        assert question.answer == (YES if x * y > threshold else NO)
        assert question.options == (YES, NO)
    assert [q.answer for q in questions].count(YES) == 6  # 11 questions: one more yes


def test_compare_on_an_even_size_has_as_many_yes_as_no():
    answers = [q.answer for q in generate("compare", 100, seed=9).questions]
    assert answers.count(YES) == answers.count(NO) == 50


def _apply_chain(text: str) -> int:
    value = int(re.match(r"Start with (\d+)\.", text)[1])  # type: ignore[index]
    steps = re.findall(r"(add|subtract|multiply by) (\d+)", text)
    assert 3 <= len(steps) <= 4
    for verb, k in steps:
        value = {"add": value + int(k), "subtract": value - int(k),
                 "multiply by": value * int(k)}[verb]
    return value


def test_chain_answers_follow_the_steps_in_order():
    for question in generate("chain", 200, seed=2).questions:
        assert question.answer == str(_apply_chain(question.text))


def test_a_chain_by_hand():
    # Seed 1's second question: 7, subtract 9, add 6, multiply by 7 -> 28.
    question = generate("chain", 2, seed=1).questions[1]
    assert question.text == ("Start with 7. In order: subtract 9, then add 6, then "
                             "multiply by 7. What is the result?")
    assert question.answer == "28"


@pytest.mark.parametrize("name, n", [("nope", 5), ("compare", 0),
                                     ("compare", MAX_GENERATED + 1)])
def test_unknown_set_or_size_out_of_range_is_refused(name, n):
    with pytest.raises(ValueError):
        generate(name, n, seed=1)


@pytest.mark.parametrize("text, canonical", [
    ("42", "42"), ("042", "42"), ("42.0", "42"), (" -7 ", "-7"), ("-0", "0"),
    ("2.50", "2.5"), ("420", "420"), ("1e3", "1000"), ("0.001", "0.001"),
    ("many", None), ("inf", None), ("NaN", None),
])
def test_one_spelling_per_number(text, canonical):
    assert canonical_number(text) == canonical


def test_is_right_by_value_or_by_option():
    number = Question("n", "6*7?", None, "42")
    assert number.is_right("42.0") and number.is_right(" 042")
    assert not number.is_right("43") and not number.is_right("forty-two")
    assert not number.is_right(None)
    yes_no = Question("c", "Is it?", (YES, NO), YES)
    assert yes_no.is_right(" Yes") and not yes_no.is_right("no")
    assert not yes_no.is_right("maybe") and not yes_no.is_right(None)


def test_a_reply_in_the_answers_own_spelling():
    assert Question("n", "?", None, "42").canonical(" 42.0 ") == "42"
    assert Question("n", "?", None, "42").canonical(" about 42 ") == "42"
    assert Question("n", "?", None, "42").canonical(" about forty ") == "about forty"
    options = Question("o", "?", ("SQS", "Kafka"), "SQS")
    assert options.canonical(" sqs") == "SQS"
    assert options.canonical("Rabbit ") == "Rabbit"
    assert options.canonical(None) is None


@pytest.mark.parametrize("reply, read", [
    ("The result is 42.", "42"),
    ("42", "42"),
    ("The result is -12.", "-12"),
    ("It comes to −7 (a minus sign).", "-7"),
    ("The answer is 2.50 exactly.", "2.5"),
    ("In all 1,234 items.", "1234"),
    # The question's own numbers echoed before the result: the last number is read.
    ("12+3*4+5-6*7 = 12+12+5-42 = -13", "-13"),
    ("Start with 5, add 3 (8), multiply by 2: 16.", "16"),
    ("5-3 leaves 2", "2"),  # a subtraction, not a negative 3
    ("(3+4)-2 gives 5", "5"),
    ("v2 of the sum is 9", "9"),  # a digit inside a word is no number
])
def test_a_free_number_is_read_as_the_texts_last_number(reply, read):
    question = Question("n", "What is it?", None, read)
    assert question.canonical(reply) == read and question.is_right(reply)


def test_text_without_a_number_is_not_a_number():
    question = Question("n", "What is it?", None, "42")
    assert question.canonical("I cannot tell.") == "I cannot tell."
    assert not question.is_right("I cannot tell.")
    # An option's reply is never read as a number.
    assert Question("c", "Is it?", (YES, NO), YES).canonical("yes, 42") == "yes, 42"
