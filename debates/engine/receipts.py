"""Signed decision receipts: the format, signing and the offline check (docs/teams.md,
"Decision receipts").

A receipt is a JSON envelope around one document (what a team decided, on what
evidence): the document canonicalised with RFC 8785 (JSON Canonicalization Scheme),
its SHA-256 digest, and an Ed25519 signature of the canonical bytes. Anyone holding
the envelope and the site's public key can check it with this module alone: plain
Python, no Django, no database, no network.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

FORMAT = "council-receipt/1"
ENVELOPE_FIELDS = ("format", "receipt", "digest", "signature", "key_id", "public_key")
# How deep the envelope's unsigned ``parts`` map names the document's fields
# ("sources[0].sha256" is depth 3): enough to say which field of a changed receipt differs.
PARTS_DEPTH = 3

DIGEST_MISMATCH = "the document was changed: digest mismatch"
DIGEST_FIELD_CHANGED = "the digest does not match the document"
BAD_SIGNATURE = "the signature does not verify"
OTHER_KEY = "the key is not the one given"
KEY_ID_MISMATCH = "the key_id is not the embedded public key's"


class NotAReceipt(ValueError):
    """The input is not a receipt at all (not JSON, truncated, missing fields)."""


class BadKey(ValueError):
    """A public key that is not an Ed25519 key in a form this module reads."""


def canonical(document: Any) -> bytes:
    """The RFC 8785 bytes of ``document``: what is hashed and signed."""
    return rfc8785.dumps(document)


def digest_of(document: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical(document)).hexdigest()


def raw_public_key(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id_of(key: Ed25519PublicKey) -> str:
    """A short name for a public key: the start of the SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(raw_public_key(key)).hexdigest()[:16]


def public_key_b64(key: Ed25519PublicKey) -> str:
    return base64.b64encode(raw_public_key(key)).decode("ascii")


def public_key_pem(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.PEM,
                            serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")


def _walk(value: Any, path: str, depth: int) -> Iterator[tuple[str, Any]]:
    """(path, value) of ``value`` and of its members down to ``depth`` levels."""
    if path:
        yield path, value
    if depth == 0:
        return
    if isinstance(value, Mapping):
        for key, member in value.items():
            yield from _walk(member, f"{path}.{key}" if path else str(key), depth - 1)
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from _walk(member, f"{path}[{index}]", depth - 1)


def part_digests(document: Mapping[str, Any]) -> dict[str, str]:
    """The digest of each field of ``document`` down to PARTS_DEPTH, by path: the
    envelope carries them (unsigned) so that a checker can name which field of a
    changed document differs. They prove nothing; the signature does."""
    return {path: hashlib.sha256(canonical(value)).hexdigest()[:16]
            for path, value in _walk(document, "", PARTS_DEPTH)}


def sign(document: Mapping[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """The receipt envelope of ``document``, signed with ``key``."""
    data = canonical(document)
    public = key.public_key()
    return {
        "format": FORMAT,
        "receipt": document,
        "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
        "signature": base64.b64encode(key.sign(data)).decode("ascii"),
        "key_id": key_id_of(public),
        "public_key": public_key_b64(public),
        "parts": part_digests(document),
    }


def load_public_key(text: str) -> Ed25519PublicKey:
    """An Ed25519 public key from a PEM block, the site's published JSON
    (``/.well-known/council-receipt-key``) or the 32 raw bytes in base64."""
    text = text.strip()
    if text.startswith("{"):
        try:
            published = json.loads(text)
        except ValueError as exc:
            raise BadKey(f"not JSON: {exc}") from None
        text = str(published.get("public_key", "")) if isinstance(published, dict) else ""
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(text.encode("ascii"))
            if not isinstance(key, Ed25519PublicKey):
                raise BadKey("the PEM key is not an Ed25519 key")
            return key
        return Ed25519PublicKey.from_public_bytes(base64.b64decode(text, validate=True))
    except (ValueError, binascii.Error, UnicodeEncodeError) as exc:
        raise BadKey(f"not an Ed25519 public key (PEM or 32 bytes in base64): {exc}") from None


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once: with a key given twice, readers that
    keep the first and readers that keep the last would see two documents."""
    found = dict(pairs)
    if len(found) != len(pairs):
        repeated = sorted({k for k, _ in pairs if [p for p, _ in pairs].count(k) > 1})
        raise NotAReceipt(f"not a receipt: a key given twice in one object: {repeated}")
    return found


def parse_envelope(text: str) -> dict[str, Any]:
    """The envelope in ``text``; NotAReceipt when it is not one."""
    try:
        envelope = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except NotAReceipt:
        raise
    except ValueError as exc:
        raise NotAReceipt(f"not JSON (truncated?): {exc}") from None
    if not isinstance(envelope, dict):
        raise NotAReceipt("not a receipt: the JSON is not an object")
    missing = [name for name in ENVELOPE_FIELDS if name not in envelope]
    if missing:
        raise NotAReceipt(f"not a receipt: missing {', '.join(missing)}")
    if envelope["format"] != FORMAT:
        raise NotAReceipt(f"not a receipt of format {FORMAT}: {envelope['format']!r}")
    if not isinstance(envelope["receipt"], dict):
        raise NotAReceipt("not a receipt: its document is not a JSON object")
    for name in ("digest", "signature", "key_id", "public_key"):
        if not isinstance(envelope[name], str):
            raise NotAReceipt(f"not a receipt: {name} is not a string")
    try:
        canonical(envelope["receipt"])
    except rfc8785.CanonicalizationError as exc:
        raise NotAReceipt(f"not a receipt: its document has no canonical form: {exc}") from None
    return envelope


@dataclass(frozen=True)
class Verification:
    """What checking a receipt found: ``failures`` empty when it holds."""

    document: dict[str, Any]
    key_id: str
    key_checked: bool  # checked against a key the caller gave, not only the embedded one
    failures: list[str] = field(default_factory=list)

    @property
    def holds(self) -> bool:
        return not self.failures


def _signature_holds(key: Ed25519PublicKey, signature: str, data: bytes) -> bool:
    try:
        key.verify(base64.b64decode(signature, validate=True), data)
    except (InvalidSignature, ValueError, binascii.Error):
        return False
    return True


def _changed_parts(envelope: Mapping[str, Any]) -> list[str]:
    """The fields whose digest differs from the envelope's (unsigned) ``parts``: the
    deepest ones named, so "decision.option" rather than "decision" too."""
    listed = envelope.get("parts")
    if not isinstance(listed, dict):
        return []
    now = part_digests(envelope["receipt"])
    changed = sorted(path for path in set(listed) | set(now) if listed.get(path) != now.get(path))
    return [p for p in changed
            if not any(o != p and (o.startswith(p + ".") or o.startswith(p + "["))
                       for o in changed)]


def verify(envelope: Mapping[str, Any], *, given_key: Ed25519PublicKey | None = None
           ) -> Verification:
    """Checks ``envelope`` (``parse_envelope``'s): its digest against its document, its
    signature with ``given_key`` (the site's published key) or, without one, with the
    key embedded in it. Every failure is named."""
    failures: list[str] = []
    try:
        embedded: Ed25519PublicKey | None = load_public_key(envelope["public_key"])
    except BadKey:
        embedded = None
        failures.append("the embedded public key is not an Ed25519 key")
    if embedded is not None and key_id_of(embedded) != envelope["key_id"]:
        failures.append(KEY_ID_MISMATCH)
    if given_key is not None and (embedded is None
                                  or raw_public_key(embedded) != raw_public_key(given_key)):
        failures.append(OTHER_KEY)
    key = given_key or embedded
    data = canonical(envelope["receipt"])
    signed = key is not None and _signature_holds(key, envelope["signature"], data)
    if "sha256:" + hashlib.sha256(data).hexdigest() != envelope["digest"]:
        if signed:
            failures.append(DIGEST_FIELD_CHANGED)
        else:
            changed = _changed_parts(envelope)
            where = f" (changed: {', '.join(changed)})" if changed else ""
            failures.append(DIGEST_MISMATCH + where)
    if not signed:
        failures.append(BAD_SIGNATURE)
    return Verification(document=dict(envelope["receipt"]),
                        key_id=key_id_of(key) if key is not None else envelope["key_id"],
                        key_checked=given_key is not None, failures=failures)
