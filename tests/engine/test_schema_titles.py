"""Sent schemas carry no titles below the root: the field names already say it."""

from __future__ import annotations

from pydantic import BaseModel

from debates.engine.protocols.council.schemas import SynthesisNarrative
from debates.engine.schema_titles import without_titles


class Note(BaseModel):
    title: str  # a field called "title" is data, not a keyword
    kind: str = "title"


class Page(BaseModel):
    notes: list[Note]


def test_titles_below_the_root_are_removed_and_the_roots_stays():
    schema = without_titles(SynthesisNarrative.model_json_schema())
    assert schema["title"] == "SynthesisNarrative"
    assert '"title"' not in str({k: v for k, v in schema.items() if k != "title"}).replace(
        "'", '"')


def test_a_field_named_title_and_data_values_are_kept():
    schema = without_titles(Page.model_json_schema())
    note = schema["$defs"]["Note"]
    assert set(note["properties"]) == {"title", "kind"}
    assert note["properties"]["kind"]["default"] == "title"
    assert note["required"] == ["title"]
    assert "title" not in note and "title" not in note["properties"]["title"]
