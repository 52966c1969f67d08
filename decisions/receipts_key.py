"""The site's receipt signing key (docs/teams.md, "Decision receipts"): an Ed25519
private key in PEM at ``COUNCIL_RECEIPT_KEY_FILE``. The embedded configuration names
``var/receipt_key.pem`` and generates the key there on first use, as it does its secret
key (council_site/env.py); the scale-out configuration has to give one file shared by
every machine, else receipts are refused (503) rather than signed by many keys.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings

from view_kit.key_files import write_once


class NoReceiptKey(RuntimeError):
    """Receipts cannot be signed here; the message says what to configure."""


def receipt_key() -> Ed25519PrivateKey:
    """The site's signing key, generated on first use where the setting allows it."""
    path = settings.COUNCIL_RECEIPT_KEY_FILE
    if not path:
        raise NoReceiptKey(
            "Decision receipts are not configured: set COUNCIL_RECEIPT_KEY_FILE to an "
            "Ed25519 private key in PEM shared by every machine (docs/configuration.md).")
    return _load(str(path), generate=bool(settings.COUNCIL_RECEIPT_KEY_GENERATE))


@lru_cache(maxsize=4)
def _load(path: str, *, generate: bool) -> Ed25519PrivateKey:
    file = Path(path)
    if generate and not file.exists():
        _generate(file)
    try:
        key = serialization.load_pem_private_key(file.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise NoReceiptKey(f"COUNCIL_RECEIPT_KEY_FILE ({path}) holds no usable private key: "
                           f"{exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise NoReceiptKey(f"COUNCIL_RECEIPT_KEY_FILE ({path}) is not an Ed25519 key.")
    return key


def _generate(path: Path) -> None:
    """A new key at ``path`` (mode 0600); processes racing on first use all keep the
    one that won."""
    write_once(path, Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
