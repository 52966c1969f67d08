"""A date parameter read as its schema says, ``YYYY-MM-DD``, and nothing else.

pydantic's lax mode reads a number, or a string of digits, as a Unix time: the query
``created_to=0`` was accepted as 1970-01-01 where the OpenAPI document says ``format:
date`` (issue 39). ``IsoDate`` keeps the schema and refuses the rest with a field error
(docs/api.md, "Errors").
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated

from pydantic import BeforeValidator

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_only(value: object) -> object:
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not ISO_DATE.fullmatch(value):
        raise ValueError("a date is written YYYY-MM-DD")
    return value


IsoDate = Annotated[date, BeforeValidator(_iso_only)]
