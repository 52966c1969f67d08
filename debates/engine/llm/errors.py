"""What a failed call is: the gateway's own exceptions, and how a provider's error is
classified (transient or not, a lost server, a rejected output mode) and described
for the ledger and the user."""

from __future__ import annotations

import asyncio
import re
from functools import lru_cache
from typing import Literal

from debates.engine.llm.loader import litellm_module as _litellm


class CallFailed(Exception):
    """A call failed on every model tried; ``message`` is the provider's own text."""

    def __init__(self, *, error_class: str, message: str, attempts: int, model: str) -> None:
        super().__init__(f"{model}: {error_class}: {message}")
        self.error_class = error_class
        self.message = message
        self.attempts = attempts
        self.model = model


class ContextTooLong(Exception):
    """The prompt does not fit ``model``'s context window (minus the answer reserve)."""

    def __init__(self, *, tokens: int, limit: int, model: str) -> None:
        super().__init__(
            f"prompt of {tokens} tokens does not fit {model}: at most {limit} tokens "
            f"leave room for the answer"
        )
        self.tokens = tokens
        self.limit = limit
        self.model = model


class Cancelled(Exception):
    """The debate was cancelled; raised before an attempt is started."""


# litellm (and openai, httpx, aiohttp under it) is imported at the first call, not with
# this module: pages that only read debates import the engine too (see llm/loader.py).
@lru_cache(maxsize=1)
def transient_errors() -> tuple[type[BaseException], ...]:
    litellm = _litellm()
    return (
        litellm.Timeout,
        litellm.RateLimitError,
        litellm.APIConnectionError,
        litellm.InternalServerError,
        litellm.ServiceUnavailableError,
        litellm.BadGatewayError,
        asyncio.TimeoutError,
        TimeoutError,
    )


@lru_cache(maxsize=1)
def _network_errors() -> tuple[type[BaseException], ...]:
    import httpx
    import openai

    errors: list[type[BaseException]] = [OSError, asyncio.TimeoutError, openai.APIError]
    errors.append(httpx.TransportError)
    try:
        import aiohttp

        errors.append(aiohttp.ClientError)
    except ImportError:  # pragma: no cover - aiohttp is optional for litellm
        pass
    return tuple(errors)


def unmapped_error(exc: BaseException) -> BaseException | None:
    """The original exception when litellm wrapped a non-network error as a connection error.

    litellm turns any exception it cannot map (a bug in a provider adapter, a custom
    provider raising ValueError ...) into ``APIConnectionError``, which would otherwise
    look transient and be retried, and whose text is a traceback plus a bug-report link.
    """
    if type(exc) is not _litellm().APIConnectionError:
        return None
    inner = exc.__cause__ or exc.__context__
    if inner is None or isinstance(inner, _network_errors()):
        return None
    return inner


def is_transient(exc: BaseException) -> bool:
    if unmapped_error(exc) is not None:
        return False
    if isinstance(exc, transient_errors()):
        return True
    # Some providers surface 5xx as a generic APIError.
    status = getattr(exc, "status_code", None)
    return isinstance(exc, _litellm().APIError) and isinstance(status, int) and status >= 500


def is_retryable(exc: BaseException) -> bool:
    """Transient, and a server answered: where nothing listens, retries (or other output
    modes) would only delay the failure, once per turn of the debate."""
    return lost_connection(exc) != "unreachable" and is_transient(exc)


def _is_own_timeout(exc: BaseException) -> bool:
    """The gateway's hard timeout fired, not litellm's (more informative) Timeout."""
    return isinstance(exc, asyncio.TimeoutError | TimeoutError) and not isinstance(
        exc, _litellm().Timeout
    )


def error_class_of(exc: BaseException) -> str:
    inner = unmapped_error(exc)
    if inner is not None:
        return type(inner).__name__
    if _is_own_timeout(exc):
        return "Timeout"
    return type(exc).__name__


def describe_error(
    exc: BaseException, model: str, timeout: float, api_base: str | None
) -> tuple[str, str]:
    """(error class, message) of a failed attempt, as the ledger and the user see them."""
    error_class = error_class_of(exc)
    message = str(unmapped_error(exc) or exc) or error_class
    if _is_own_timeout(exc):
        message = f"no reply from {model} within {timeout:g} s"
    lost = lost_connection(exc)
    if lost is not None:
        error_class = "ServerUnreachable" if lost == "unreachable" else "ConnectionLost"
        server = f"the model server at {api_base}" if api_base else f"{model}'s provider"
        message = lost_connection_message(lost, server, message)
    return error_class, message


# "grammar": llama.cpp turns the schema into a grammar ("failed to parse grammar").
_FORMAT_REJECTION = re.compile(r"response_format|json_schema|json_object|tool|grammar", re.I)


def is_format_rejection(exc: BaseException) -> bool:
    """A 400 or 422, or a server error, whose text names the structured-output request
    (or the grammar made of it): try the next mode. A lost connection names nothing."""
    if unmapped_error(exc) is not None or lost_connection(exc) is not None:
        return False
    status = getattr(exc, "status_code", None)
    litellm = _litellm()
    rejected = status in (400, 422) or isinstance(
        exc, litellm.BadRequestError | litellm.UnprocessableEntityError
    )
    failed = (isinstance(status, int) and status >= 500) or isinstance(
        exc, litellm.InternalServerError | litellm.ServiceUnavailableError
    )
    return (rejected or failed) and bool(_FORMAT_REJECTION.search(str(exc)))


Lost = Literal["unreachable", "dropped"]


@lru_cache(maxsize=1)
def _connection_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(no connection was made, the connection closed without a reply), as the HTTP
    clients under litellm raise them."""
    import httpx

    unreachable: list[type[BaseException]] = [ConnectionRefusedError, httpx.ConnectError]
    dropped: list[type[BaseException]] = [
        ConnectionResetError, BrokenPipeError, httpx.RemoteProtocolError, httpx.ReadError]
    try:
        import aiohttp

        unreachable.append(aiohttp.ClientConnectorError)
        dropped.append(aiohttp.ServerDisconnectedError)
    except ImportError:  # pragma: no cover - aiohttp is optional for litellm
        pass
    return tuple(unreachable), tuple(dropped)


def lost_connection(exc: BaseException) -> Lost | None:
    """Whether the call failed for want of a server rather than with its answer:
    litellm reports both as a generic "Connection error." (an InternalServerError), the
    cause is further down the exception chain."""
    unreachable, dropped = _connection_errors()
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, unreachable):
            return "unreachable"
        if isinstance(current, dropped):
            return "dropped"
        current = current.__cause__ or current.__context__
    return None


def lost_connection_message(lost: Lost, server: str, message: str) -> str:
    if lost == "unreachable":
        return f"{server} cannot be reached (is it running?): {message}"
    return f"{server} closed the connection without a reply (did it stop?): {message}"
