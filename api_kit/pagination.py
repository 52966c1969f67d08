"""Page-number pagination for the API's lists (ninja's ``@paginate``), with the total
count and links to the next and previous pages, so a script loops on ``next`` until
it is null without building URLs itself."""

from __future__ import annotations

from math import ceil
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Field, Schema
from ninja.pagination import PaginationBase

DEFAULT_PAGE_SIZE = 25
MAX_PAGE_SIZE = 100


class PagePagination(PaginationBase):
    class Input(Schema):
        page: int = Field(1, ge=1, le=1_000_000, description="1-based page number.")
        page_size: int = Field(DEFAULT_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE)

    class Output(Schema):
        items: list[Any]
        count: int = Field(description="Items on all pages together.")
        page: int
        pages: int = Field(description="Number of pages (0 when there is nothing).")
        next: str | None = Field(description="URL of the next page; null on the last.")
        previous: str | None = Field(description="URL of the previous page; null on the first.")

    def paginate_queryset(self, queryset: QuerySet[Any], pagination: Any,
                          request: HttpRequest, **params: Any) -> dict[str, Any]:
        size, page = pagination.page_size, pagination.page
        count = self._items_count(queryset)
        pages = ceil(count / size)
        offset = (page - 1) * size
        return {
            "items": queryset[offset:offset + size], "count": count, "page": page,
            "pages": pages,
            "next": _page_url(request, page + 1) if page < pages else None,
            "previous": _page_url(request, min(page - 1, pages)) if page > 1 and pages else None,
        }


def _page_url(request: HttpRequest, page: int) -> str:
    query = request.GET.copy()
    query["page"] = str(page)
    return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")
