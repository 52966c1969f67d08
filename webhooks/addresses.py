"""Which URLs a webhook may be sent to: http(s) only, and never to an address inside
the site's own network (private, loopback, link-local, reserved), which would let a
team owner probe or poke services behind the firewall. The host is resolved and every
address it has is checked, when the endpoint is saved and again before each attempt,
and the attempt connects to an address that passed (docs/integrations.md, "Webhooks")."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from webhooks.models import MAX_URL

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class UnsafeUrl(ValueError):
    """A URL a webhook may not go to; the message is meant for the user."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query
    addresses: tuple[str, ...]


def _is_public(address: Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def _parts(url: str) -> tuple[str, str, int, str]:
    if len(url) > MAX_URL:
        raise UnsafeUrl(f"The URL is longer than {MAX_URL:,} characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeUrl(f"Not a valid URL ({exc}).") from None
    if parts.scheme not in ("http", "https"):
        raise UnsafeUrl("The URL must start with http:// or https://.")
    if not parts.hostname:
        raise UnsafeUrl("The URL names no host.")
    if parts.username is not None or parts.password is not None:
        raise UnsafeUrl("The URL may not carry a user name or password.")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path


def _resolve(host: str, port: int) -> tuple[str, ...]:
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UnsafeUrl(f"The host {host} does not resolve.") from None
    return tuple(dict.fromkeys(str(info[4][0]) for info in found))


def check_url(url: str) -> Target:
    """The URL's parts and resolved addresses, or ``UnsafeUrl`` saying what is wrong.
    Every address of the host must be public unless COUNCIL_WEBHOOKS_ALLOW_PRIVATE."""
    scheme, host, port, path = _parts(url.strip())
    addresses = _resolve(host, port)
    if not settings.COUNCIL_WEBHOOKS_ALLOW_PRIVATE:
        inside = [a for a in addresses if not _is_public(ipaddress.ip_address(a.split("%")[0]))]
        if inside:
            raise UnsafeUrl(
                f"The host {host} resolves to an address that is private, loopback, "
                f"link-local or reserved ({inside[0]}); webhooks go to public addresses only.")
    return Target(scheme, host, port, path, addresses)
