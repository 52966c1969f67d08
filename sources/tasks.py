"""Thin django-q2 tasks: take a code, call one service."""

from __future__ import annotations

from sources.services import extract_version


def extract_source(code: str) -> str:
    return extract_version(code)
