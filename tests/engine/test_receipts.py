"""The receipt format and ``council verify-receipt`` alone (debates/engine/receipts.py;
docs/teams.md, "Decision receipts"): no Django, no database. A receipt that holds exits
0; one character changed in its decision, a source's hash or its signature exits 1 and
says which part fails; a file that is not a receipt exits 2."""

from __future__ import annotations

import base64
import copy
import io
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from debates.engine import receipt_public_key_b64, receipt_public_key_pem, sign_receipt
from debates.engine.cli import main as council_main
from debates.engine.receipts import canonical

KEY = Ed25519PrivateKey.generate()
DOCUMENT = {
    "site": "https://council.example", "issued_at": "2026-12-04T04:00:00Z", "team": "Core",
    "debate": {"code": "0b6f", "question": "Kafka or SQS?", "options": ["Kafka", "SQS"]},
    "decision": {"code": "9a1c", "version": 1, "decision": "SQS", "option": "SQS",
                 "choice": None, "rationale": "Cheaper.", "decided_by": "ana",
                 "decided_at": "2026-12-03T10:00:00Z", "review_on": None,
                 "result_quality": "sound"},
    "result": {"protocol": "council", "quality": "sound", "recommendation": "SQS",
               "final_vote": {"majority": "SQS", "verdicts": [
                   {"agent": 0, "name": "A", "verdict": "SQS", "confidence": 0.8}]}},
    "sources": [{"id": "S1", "title": "Costs", "sha256": "ab" * 32},
                {"id": "S2", "title": "Ops", "sha256": "cd" * 32}],
    "models": {"settings": {"mode": "quick", "threshold": 0.85}, "panel": []},
    "history": [{"version": 1, "decision": "SQS", "decided_by": "ana",
                 "decided_at": "2026-12-03T10:00:00Z"}],
}


def write(tmp_path: Path, envelope: object, name: str = "receipt.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(envelope, indent=2) if not isinstance(envelope, str)
                    else envelope)
    return path


def verify(path: Path, *extra: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = council_main(["verify-receipt", str(path), *extra], stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def one_char(text: str) -> str:
    return ("X" if text[0] != "X" else "Y") + text[1:]


@pytest.fixture
def envelope() -> dict:
    return copy.deepcopy(sign_receipt(DOCUMENT, KEY))


def test_a_signed_receipt_verifies_and_says_what_was_decided(tmp_path, envelope):
    code, said = verify(write(tmp_path, envelope))
    assert code == 0, said
    for expected in ("Kafka or SQS?", "SQS (version 1)", "ana", "2026-12-03T10:00:00Z",
                     "OK: the digest and the signature hold.",
                     "NOT checked against the site's published key"):
        assert expected in said


def test_the_signature_covers_the_canonical_bytes_whatever_the_layout(tmp_path, envelope):
    """Key order and whitespace are not part of what is signed (RFC 8785)."""
    shuffled = {k: envelope[k] for k in reversed(list(envelope))}
    shuffled["receipt"] = {k: DOCUMENT[k] for k in reversed(list(DOCUMENT))}
    path = tmp_path / "compact.json"
    path.write_text(json.dumps(shuffled, separators=(",", ":"), ensure_ascii=False))
    assert verify(path)[0] == 0
    assert canonical({"b": 1, "a": [1.0, "é"]}) == '{"a":[1,"é"],"b":1}'.encode()


@pytest.mark.parametrize("change, part", [
    (lambda d: d["decision"].update(decision=one_char(d["decision"]["decision"])),
     "decision.decision"),
    (lambda d: d["decision"].update(rationale=one_char(d["decision"]["rationale"])),
     "decision.rationale"),
    (lambda d: d["sources"][1].update(sha256=one_char(d["sources"][1]["sha256"])),
     "sources[1].sha256"),
])
def test_one_changed_character_in_the_document_fails_the_digest_and_the_signature(
        tmp_path, envelope, change, part):
    change(envelope["receipt"])
    code, said = verify(write(tmp_path, envelope))
    assert code == 1
    assert f"FAILED: the document was changed: digest mismatch (changed: {part})" in said
    assert "FAILED: the signature does not verify" in said
    assert "OK:" not in said


def test_a_changed_signature_fails_the_signature_only(tmp_path, envelope):
    signature = base64.b64decode(envelope["signature"])
    envelope["signature"] = base64.b64encode(bytes([signature[0] ^ 1]) + signature[1:]).decode()
    code, said = verify(write(tmp_path, envelope))
    assert code == 1 and "FAILED: the signature does not verify" in said
    assert "digest" not in said.split("FAILED", 1)[1]
    envelope["signature"] = one_char(sign_receipt(DOCUMENT, KEY)["signature"])
    code, said = verify(write(tmp_path, envelope))
    assert code == 1 and "FAILED: the signature does not verify" in said


def test_a_changed_digest_field_is_named_as_such(tmp_path, envelope):
    envelope["digest"] = "sha256:" + one_char(envelope["digest"].removeprefix("sha256:"))
    code, said = verify(write(tmp_path, envelope))
    assert code == 1 and "FAILED: the digest does not match the document" in said
    assert "signature does not verify" not in said


def test_a_document_resigned_with_another_key_fails_against_the_sites_key(tmp_path):
    forged = sign_receipt({**DOCUMENT, "team": "Someone else"}, Ed25519PrivateKey.generate())
    path = write(tmp_path, forged)
    assert verify(path)[0] == 0  # consistent with the key it carries...
    site_key = write(tmp_path, receipt_public_key_pem(KEY.public_key()), "site.pem")
    code, said = verify(path, "--key", str(site_key))  # ...not with the site's
    assert code == 1 and "FAILED: the key is not the one given" in said
    assert "FAILED: the signature does not verify" in said


def test_the_sites_key_in_base64_or_pem_checks_a_good_receipt(tmp_path, envelope):
    path = write(tmp_path, envelope)
    code, said = verify(path, "--key", receipt_public_key_b64(KEY.public_key()))
    assert code == 0 and "the key given with --key" in said and "NOT checked" not in said


@pytest.mark.parametrize("text, why", [
    ("", "not JSON"),
    ("{\"format\": \"council-receipt/1\", \"receipt\": {", "not JSON"),
    ("[1, 2]", "not an object"),
    ("{\"format\": \"council-receipt/1\"}", "missing receipt, digest"),
    ("{\"format\": \"other/1\", \"receipt\": {}, \"digest\": \"\", \"signature\": \"\", "
     "\"key_id\": \"\", \"public_key\": \"\"}", "not a receipt of format"),
])
def test_what_is_not_a_receipt_exits_2(tmp_path, text, why):
    code, said = verify(write(tmp_path, text))
    assert code == 2 and why in said, said


def test_a_key_given_twice_is_not_a_receipt(tmp_path, envelope):
    """Readers keeping the first or the last of two "decision" keys would disagree."""
    text = json.dumps(envelope).replace(
        '"decision": {', '"decision": {"decision": "Kafka"}, "decision": {', 1)
    code, said = verify(write(tmp_path, text))
    assert code == 2 and "a key given twice" in said, said


def test_a_truncated_receipt_exits_2(tmp_path, envelope):
    text = json.dumps(envelope, indent=2)
    code, said = verify(write(tmp_path, text[: len(text) // 2]))
    assert code == 2 and "not JSON" in said


def test_a_missing_file_or_a_bad_key_exits_2(tmp_path, envelope):
    assert verify(tmp_path / "nothing.json")[0] == 2
    code, said = verify(write(tmp_path, envelope), "--key", "not a key")
    assert code == 2 and "--key" in said
