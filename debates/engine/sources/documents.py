"""One source as the engine reads it: plain text with a stable id.

The id is ``S<n>`` in the order the debate lists its sources (S1, S2...), so a passage
``S2.14`` names the same words on every page, in every export and in every re-read of
the stored debate.
"""

from __future__ import annotations

from pydantic import Field

from ..schemas import Strict


class SourceDocument(Strict):
    id: str = Field(pattern=r"^S[1-9][0-9]*$")
    title: str = Field(min_length=1, max_length=300)
    text: str
