"""A team's own labelled questions, uploaded as JSONL or CSV, parsed and checked whole.

Each row holds ``question``, ``options`` and ``answer``:

- JSONL: one object a line, ``{"question": "...", "options": ["A", "B"], "answer": "A"}``;
  ``options`` null or left out for a free numeric answer (a number or a numeric string,
  stored in one spelling: "042" as "42").
- CSV: a header naming ``question``, ``options``, ``answer``; options separated by ``|``
  (``yes|no``), the cell empty for a free numeric answer.

Every problem is reported with its line (the file's own line numbers, the CSV header
being line 1), and a file with any problem is refused whole: nothing is half-accepted.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from typing import Any

from ..text_checks import character_problem, json_problem
from .sets import LabelledSet, Question, canonical_number

# The caps: an upload is a test set a team reads through, not a data dump.
MAX_BYTES = 1_000_000
MAX_ROWS = 1_000
MAX_QUESTION_CHARS = 2_000
MAX_OPTIONS = 10
MAX_OPTION_CHARS = 200
# Past this many, further problems add nothing the first ones did not say.
MAX_PROBLEMS_LISTED = 20
OPTION_SEPARATOR = "|"
FIELDS = ("question", "options", "answer")


@dataclass(frozen=True)
class Problem:
    line: int | None  # None: the file as a whole
    message: str

    def __str__(self) -> str:
        return self.message if self.line is None else f"line {self.line}: {self.message}"


class UploadError(ValueError):
    """The upload is refused; ``problems`` says where and why."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems[:MAX_PROBLEMS_LISTED]))


@dataclass(frozen=True)
class _Row:
    line: int
    fields: dict[str, Any]


def parse_upload(data: bytes, filename: str, set_name: str = "upload") -> LabelledSet:
    """The upload as a labelled set, or UploadError listing every problem found."""
    if len(data) > MAX_BYTES:
        raise UploadError([Problem(None, f"the file is over {MAX_BYTES:,} bytes")])
    text = _decode(data)
    kind = _kind(filename)
    rows, problems = _jsonl_rows(text) if kind == "jsonl" else _csv_rows(text)
    if problems:
        raise UploadError(problems)
    return _checked_set(rows, set_name)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UploadError([Problem(None, f"not UTF-8 text (byte {error.start})")]) from None


def _kind(filename: str) -> str:
    suffix = filename.lower().rsplit(".", 1)[-1]
    if suffix in ("jsonl", "csv"):
        return suffix
    raise UploadError([Problem(None, f"{filename!r} is neither .jsonl nor .csv")])


def _jsonl_rows(text: str) -> tuple[list[_Row], list[Problem]]:
    rows, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        # NUL, lone surrogates (escaped too) and nesting, before json.loads recurses
        # or a database sees the text (docs/engine.md, "Uploaded text").
        if found := json_problem(line, first_line=number):
            problems.append(Problem(found.line, found.message))
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            problems.append(Problem(number, f"not valid JSON ({error.msg})"))
            continue
        if not isinstance(value, dict):
            problems.append(Problem(number, "not a JSON object"))
            continue
        rows.append(_Row(number, value))
    return rows, problems


def _csv_rows(text: str) -> tuple[list[_Row], list[Problem]]:
    if found := character_problem(text):  # a CSV escapes nothing: only the literal
        return [], [Problem(found.line, found.message)]
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [name.strip() for name in reader.fieldnames or []]
    missing = [name for name in ("question", "answer") if name not in header]
    unknown = [name for name in header if name not in FIELDS]
    if missing or unknown:
        return [], [_header_problem(missing, unknown)]
    reader.fieldnames = header
    rows, problems = [], []
    try:
        for record in reader:
            if None in record:
                problems.append(Problem(reader.line_num, "more cells than the header has columns"))
                continue
            fields: dict[str, Any] = dict(record)
            fields["options"] = _csv_options(fields.get("options"))
            rows.append(_Row(reader.line_num, fields))
    except csv.Error as error:  # a cell past the csv module's own limit, a stray quote
        problems.append(Problem(reader.line_num + 1, f"not valid CSV ({error})"))
    return rows, problems


def _header_problem(missing: list[str], unknown: list[str]) -> Problem:
    if missing:
        return Problem(1, f"the header lacks the column {', '.join(missing)}")
    return Problem(1, f"unknown column {', '.join(unknown)} (expected {', '.join(FIELDS)})")


def _csv_options(cell: str | None) -> list[str] | None:
    if cell is None or not cell.strip():
        return None
    return [option.strip() for option in cell.split(OPTION_SEPARATOR)]


def _checked_set(rows: list[_Row], set_name: str) -> LabelledSet:
    if not rows:
        raise UploadError([Problem(None, "the file holds no question")])
    if len(rows) > MAX_ROWS:
        raise UploadError([Problem(None, f"{len(rows):,} rows; at most {MAX_ROWS:,}")])
    problems: list[Problem] = []
    questions: list[Question] = []
    first_line: dict[str, int] = {}
    for index, row in enumerate(rows, start=1):
        row_problems = _row_problems(row.fields)
        key = _normalised(str(row.fields.get("question") or ""))
        if key and key in first_line:
            row_problems.append(f"the same question as line {first_line[key]}")
        first_line.setdefault(key, row.line)
        problems.extend(Problem(row.line, message) for message in row_problems)
        if not row_problems:
            questions.append(_question(row.fields, f"{set_name}-{index}"))
    if problems:
        raise UploadError(problems)
    return LabelledSet(set_name, tuple(questions))


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _row_problems(fields: dict[Any, Any]) -> list[str]:
    unknown = sorted(str(k) for k in fields if k not in FIELDS)
    if unknown:
        return [f"unknown field {', '.join(unknown)} (expected {', '.join(FIELDS)})"]
    problems = _question_problems(fields.get("question"))
    options = fields.get("options")
    problems += _options_problems(options)
    if not problems:
        problems += _answer_problems(fields.get("answer"), options)
    return problems


def _question_problems(question: Any) -> list[str]:
    if question is None:
        return ["missing field question"]
    if not isinstance(question, str):
        return ["question is not text"]
    if not question.strip():
        return ["question is empty"]
    if len(question) > MAX_QUESTION_CHARS:
        return [f"question is over {MAX_QUESTION_CHARS:,} characters"]
    return []


def _options_problems(options: Any) -> list[str]:
    if options is None:
        return []
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        return ["options is not a list of texts"]
    cleaned = [o.strip() for o in options]
    if any(not o for o in cleaned):
        return ["an option is empty"]
    if not 2 <= len(cleaned) <= MAX_OPTIONS:
        return [f"{len(cleaned)} options; 2 to {MAX_OPTIONS} (or none for a number)"]
    if any(len(o) > MAX_OPTION_CHARS for o in cleaned):
        return [f"an option is over {MAX_OPTION_CHARS} characters"]
    if len(set(cleaned)) < len(cleaned):
        return ["the same option twice"]
    return []


def _answer_problems(answer: Any, options: list[str] | None) -> list[str]:
    if answer is None:
        return ["missing field answer"]
    text = _answer_text(answer)
    if text is None or not text:
        return ["answer is empty" if text == "" else "answer is not text or a number"]
    if options is None:
        return [] if canonical_number(text) else [f"answer {text!r} is not a number (no options)"]
    cleaned = [o.strip() for o in options]
    if text not in cleaned:
        return [f"answer {text!r} is not among the options {', '.join(cleaned)}"]
    return []


def _answer_text(answer: Any) -> str | None:
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int | float):
        return str(answer)
    return answer.strip() if isinstance(answer, str) else None


def _question(fields: dict[str, Any], question_id: str) -> Question:
    options = fields.get("options")
    answer = _answer_text(fields["answer"]) or ""
    if options is None:
        answer = canonical_number(answer) or answer
    return Question(
        question_id,
        fields["question"].strip(),
        None if options is None else tuple(o.strip() for o in options),
        answer,
    )
