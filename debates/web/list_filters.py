"""The debate list's query string: search words, filters, sort and page, checked.

A bad value is dropped (the list shows everything it would without it) rather than
answered with an error page: the query string is often hand-edited or stale.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy

from debates.models import DebateStatus
from debates.page_words import PageWords
from debates.selectors import SORTS, DebateFilters
from view_kit.site_words import ui_lazy

PAGE_SIZE = 25
# In the request's language when the form renders (view_kit.site_words, the pages' words).
_status_word = lazy(lambda value: PageWords()(f"status.{value}"), str)
YES_NO = [("", ui_lazy("site.filter.any")), ("yes", ui_lazy("site.filter.yes")),
          ("no", ui_lazy("site.filter.no"))]
SORT_CHOICES = [(key, ui_lazy(f"site.sort.{key}"))
                for key in ("newest", "oldest", "cost", "question", "relevance")]
assert {k for k, _ in SORT_CHOICES} == {*SORTS, "relevance"}


class DebateFilterForm(forms.Form):
    q = forms.CharField(required=False, max_length=200, label="Search")
    status = forms.ChoiceField(required=False,
                               choices=[("", ui_lazy("site.filter.any_status")),
                                        *((v, _status_word(v)) for v in DebateStatus.values)])
    stop_reason = forms.CharField(required=False, max_length=30, label="Stop reason")
    protocol = forms.CharField(required=False, max_length=20)
    author = forms.CharField(required=False, max_length=150, label="Started by")
    persona = forms.CharField(required=False, max_length=200)
    library = forms.UUIDField(required=False)
    created_from = forms.DateField(required=False, label="From",
                                   widget=forms.DateInput(attrs={"type": "date"}))
    created_to = forms.DateField(required=False, label="To",
                                 widget=forms.DateInput(attrs={"type": "date"}))
    degraded = forms.ChoiceField(required=False, choices=YES_NO)
    simulated = forms.ChoiceField(required=False, choices=YES_NO)
    sort = forms.ChoiceField(required=False, choices=SORT_CHOICES)

    def filters(self) -> DebateFilters:
        """The valid fields as a DebateFilters; invalid ones count as empty."""
        self.is_valid()
        data: dict[str, Any] = {k: v for k, v in self.cleaned_data.items()
                                if k not in self.errors}
        for key in ("degraded", "simulated"):
            data[key] = {"yes": True, "no": False}.get(data.get(key) or "")
        data["sort"] = data.get("sort") or ("relevance" if data.get("q") else "newest")
        return DebateFilters(**{k: v for k, v in data.items() if v not in (None, "")
                                or k in ("degraded", "simulated")})

    @property
    def active(self) -> bool:
        """Whether anything narrows the list (the empty state says so)."""
        return any(v not in (None, "") for k, v in self.cleaned_data.items()
                   if k != "sort" and k not in self.errors)
