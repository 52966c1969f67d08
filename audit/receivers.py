"""Events no service call makes: a refused sign-in (Django's ``user_login_failed``)."""

from __future__ import annotations

from typing import Any

from audit.services import record


def login_failed(sender: Any, credentials: dict[str, Any], request: Any = None,
                 **kwargs: Any) -> None:
    username = str(credentials.get("username") or "")[:150]
    record("login.failed", kind="user", code=username, data={"username": username})
