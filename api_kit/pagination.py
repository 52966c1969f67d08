"""Pagination for the API's lists (ninja's ``@paginate``): the total count and links to
the next and previous pages, so a script loops on ``next`` until it is null without
building URLs itself.

The links carry a ``cursor``: the position in the list and the list as it stood when
its first page was read (the largest row id then). Rows created while a script pages
through are left out of the pages that follow, so a row never appears twice and none
is skipped because of them (docs/api.md, "Lists: filters, sort, pages"). ``page``
still opens any page of the list as it is now.
"""

from __future__ import annotations

import base64
import binascii
import json
from math import ceil
from typing import Any

from django.db.models import Max, QuerySet
from django.http import HttpRequest
from ninja import Field, Schema
from ninja.pagination import PaginationBase
from pydantic import field_validator

DEFAULT_PAGE_SIZE = 25
MAX_PAGE_SIZE = 100
MAX_CURSOR_CHARS = 200


def encode_cursor(offset: int, snapshot: int) -> str:
    raw = json.dumps({"o": offset, "s": snapshot}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[int, int]:
    """(offset, snapshot) of a cursor this module wrote; ValueError for anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
        offset, snapshot = data["o"], data["s"]
    except (binascii.Error, ValueError, TypeError, KeyError, UnicodeDecodeError):
        raise ValueError("not a cursor this API gave: follow the next/previous links") from None
    if not (isinstance(offset, int) and isinstance(snapshot, int)) or offset < 0 or snapshot < 0:
        raise ValueError("not a cursor this API gave: follow the next/previous links")
    return offset, snapshot


class PagePagination(PaginationBase):
    class Input(Schema):
        page: int = Field(1, ge=1, le=1_000_000, description="1-based page number.")
        page_size: int = Field(DEFAULT_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE)
        cursor: str | None = Field(
            None, max_length=MAX_CURSOR_CHARS,
            description="From a next/previous link: that page of the list as it stood when "
                        "its first page was read (rows created since are left out). Takes "
                        "precedence over page.")

        @field_validator("cursor")
        @classmethod
        def _readable(cls, value: str | None) -> str | None:
            if value is not None:
                decode_cursor(value)
            return value

    class Output(Schema):
        items: list[Any]
        count: int = Field(description="Items on all pages together.")
        page: int
        pages: int = Field(description="Number of pages (0 when there is nothing).")
        next: str | None = Field(description="URL of the next page; null on the last.")
        previous: str | None = Field(description="URL of the previous page; null on the first.")

    def paginate_queryset(self, queryset: QuerySet[Any], pagination: Any,
                          request: HttpRequest, **params: Any) -> dict[str, Any]:
        size = pagination.page_size
        if pagination.cursor:
            offset, snapshot = decode_cursor(pagination.cursor)
        else:
            offset = (pagination.page - 1) * size
            snapshot = queryset.aggregate(last=Max("pk"))["last"] or 0
        queryset = queryset.filter(pk__lte=snapshot)
        count = self._items_count(queryset)
        pages = ceil(count / size)
        page = offset // size + 1
        return {
            "items": queryset[offset:offset + size], "count": count, "page": page,
            "pages": pages,
            "next": _page_url(request, offset + size, snapshot) if offset + size < count
            else None,
            "previous": _page_url(request, max(0, min(offset - size, (pages - 1) * size)),
                                  snapshot) if offset > 0 and pages else None,
        }


def _page_url(request: HttpRequest, offset: int, snapshot: int) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    query["cursor"] = encode_cursor(offset, snapshot)
    return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")
