"""Uploads: good files parsed, bad ones refused whole with the line and the problem."""

from __future__ import annotations

import json

import pytest

from debates.engine.evaluation import uploads
from debates.engine.evaluation.sets import Question
from debates.engine.evaluation.uploads import UploadError, parse_upload


def _jsonl(*rows: object) -> bytes:
    return "\n".join(json.dumps(r) for r in rows).encode()


def _problems(data: bytes, filename: str) -> list[str]:
    with pytest.raises(UploadError) as refused:
        parse_upload(data, filename)
    return [str(p) for p in refused.value.problems]


def test_a_jsonl_upload_with_options_and_a_free_number():
    data = _jsonl({"question": "Ship?", "options": ["yes", "no"], "answer": "no"},
                  {"question": "6*7?", "answer": 42},
                  {"question": "Half of 5?", "options": None, "answer": "2.50"})
    labelled = parse_upload(data, "team.jsonl", set_name="team")
    assert labelled.name == "team"
    assert labelled.questions == (
        Question("team-1", "Ship?", ("yes", "no"), "no"),
        Question("team-2", "6*7?", None, "42"),
        Question("team-3", "Half of 5?", None, "2.5"),
    )


def test_a_csv_upload_with_a_bom_and_options_split_on_bars():
    data = "\ufeffquestion,options,answer\nShip?,yes | no,yes\n\"3, plus 4?\",,7\n"
    labelled = parse_upload(data.encode(), "team.CSV")
    assert labelled.questions == (
        Question("upload-1", "Ship?", ("yes", "no"), "yes"),
        Question("upload-2", "3, plus 4?", None, "7"),
    )


@pytest.mark.parametrize("row, problem", [
    ({"options": ["a", "b"], "answer": "a"}, "line 2: missing field question"),
    ({"question": "Q?", "options": ["a", "b"]}, "line 2: missing field answer"),
    ({"question": "  ", "answer": "1"}, "line 2: question is empty"),
    ({"question": "Q?", "answer": " "}, "line 2: answer is empty"),
    ({"question": "Q?", "options": ["a", "b"], "answer": "c"},
     "line 2: answer 'c' is not among the options a, b"),
    ({"question": "Q?", "answer": "many"}, "line 2: answer 'many' is not a number (no options)"),
    ({"question": "Q?", "options": ["a"], "answer": "a"},
     "line 2: 1 options; 2 to 10 (or none for a number)"),
    ({"question": "Q?", "options": ["a", "a"], "answer": "a"}, "line 2: the same option twice"),
    ({"question": "Q?", "options": ["a", ""], "answer": "a"}, "line 2: an option is empty"),
    ({"question": "Q?", "answer": True}, "line 2: answer is not text or a number"),
    ({"question": "Q?", "answer": "1", "id": 3},
     "line 2: unknown field id (expected question, options, answer)"),
    ({"question": "x" * 2001, "answer": "1"}, "line 2: question is over 2,000 characters"),
])
def test_a_bad_jsonl_row_is_named_by_line_and_problem(row, problem):
    good = {"question": "Fine?", "options": ["yes", "no"], "answer": "yes"}
    assert _problems(_jsonl(good, row), "a.jsonl") == [problem]


def test_every_problem_is_listed_and_nothing_is_accepted():
    data = b'{"question": "A?", "answer": 1}\nnot json\n\n[1]\n{"question": "a? ", "answer": 2}\n'
    assert _problems(data, "a.jsonl") == [
        "line 2: not valid JSON (Expecting value)",
        "line 4: not a JSON object",
    ]
    data = _jsonl({"question": "A  b?", "answer": 1}, {"question": "Q?", "answer": "x"},
                  {"question": "a b?", "answer": 2})
    assert _problems(data, "a.jsonl") == [
        "line 2: answer 'x' is not a number (no options)",
        "line 3: the same question as line 1",
    ]


@pytest.mark.parametrize("text, problem", [
    ("question,answer\n", "the file holds no question"),
    ("", "line 1: the header lacks the column question, answer"),
    ("question,choices,answer\nQ?,a,1\n",
     "line 1: unknown column choices (expected question, options, answer)"),
    ("question,answer\nQ?,1,extra\n", "line 2: more cells than the header has columns"),
    ("question,options,answer\nQ?,yes|no,maybe\n",
     "line 2: answer 'maybe' is not among the options yes, no"),
])
def test_a_bad_csv_is_refused_with_its_line(text, problem):
    assert _problems(text.encode(), "a.csv") == [problem]


def test_the_caps_refuse_a_file_too_large_or_too_long(monkeypatch):
    assert _problems(b"x" * (uploads.MAX_BYTES + 1), "a.csv") == [
        "the file is over 1,000,000 bytes"]
    monkeypatch.setattr(uploads, "MAX_ROWS", 2)
    rows = [{"question": f"Q{i}?", "answer": i} for i in range(3)]
    assert _problems(_jsonl(*rows), "a.jsonl") == ["3 rows; at most 2"]


def test_a_file_neither_jsonl_nor_csv_nor_utf8_is_refused():
    assert _problems(b"{}", "a.json") == ["'a.json' is neither .jsonl nor .csv"]
    assert _problems(b"question,answer\n\xff,1\n", "a.csv") == ["not UTF-8 text (byte 16)"]
    assert _problems(b"\n\n", "a.jsonl") == ["the file holds no question"]


def test_a_csv_the_csv_module_cannot_read_is_refused_with_its_line():
    data = ("question,answer\nQ?,1\n" + "x" * 140_000 + ",1\n").encode()
    assert _problems(data, "a.csv") == [
        "line 3: not valid CSV (field larger than field limit (131072))"]
