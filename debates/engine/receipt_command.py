"""``council verify-receipt FILE [--key PUBKEY]``: checks a decision receipt offline
(docs/teams.md, "Decision receipts"); no database, no network.

Exit codes: 0 the digest and the signature hold, 1 something was changed (each failure
named), 2 the file is not a receipt (not JSON, truncated, fields missing, a key given
twice) or the key given is not one.
"""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from .receipts import BadKey, NotAReceipt, Verification, load_public_key, parse_envelope, verify

COMMAND = "verify-receipt"
EXIT_HOLDS, EXIT_CHANGED, EXIT_NOT_A_RECEIPT = 0, 1, 2


def build_parser(prog: str) -> ArgumentParser:
    parser = ArgumentParser(
        prog=f"{prog} {COMMAND}",
        description="Check a Council decision receipt: its digest and its Ed25519 "
                    "signature. Needs no database and no network.",
        epilog="exit codes: 0 the receipt holds, 1 it was changed (the failures are "
               "named), 2 not a receipt (or --key is not a key)")
    parser.add_argument("file", metavar="FILE", help="the receipt (JSON), - for stdin")
    parser.add_argument("--key", metavar="PUBKEY", help=(
        "the site's public key: a file (PEM, or the JSON of /.well-known/"
        "council-receipt-key) or the key itself in base64. Without it the key embedded "
        "in the receipt is used, which proves nothing about who signed."))
    return parser


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    return Path(name).read_text(encoding="utf-8")


def _key_text(value: str) -> str:
    """--key's value: a file's content when it names one, else the key itself."""
    path = Path(value)
    try:
        return path.read_text(encoding="utf-8") if path.is_file() else value
    except OSError:
        return value


def _summary(document: Mapping[str, Any]) -> list[str]:
    """What was decided, when and by whom, read from the document (which a changed
    receipt may have changed: the verdict follows)."""
    decision = document.get("decision")
    debate = document.get("debate")
    decision = decision if isinstance(decision, Mapping) else {}
    debate = debate if isinstance(debate, Mapping) else {}
    lines = [f"Question:   {debate.get('question', '?')}",
             f"Decided:    {decision.get('decision', '?')}"
             f" (version {decision.get('version', '?')})",
             f"By:         {decision.get('decided_by') or 'a former member'}"
             f", team {document.get('team', '?')}",
             f"When:       {decision.get('decided_at', '?')}"]
    sources = document.get("sources")
    if isinstance(sources, list):
        lines.append(f"Sources:    {len(sources)}, each with its sha256")
    lines.append(f"Issued:     {document.get('issued_at', '?')} by {document.get('site', '?')}")
    return lines


def report(verification: Verification, out: TextIO) -> int:
    """Prints the receipt and the verdict; returns the exit code."""
    for line in _summary(verification.document):
        out.write(line + "\n")
    if verification.key_checked:
        out.write(f"Key:        {verification.key_id} (the key given with --key)\n")
    else:
        out.write(f"Key:        {verification.key_id}, the key embedded in the receipt: NOT "
                  "checked against the site's published key (pass --key)\n")
    if verification.holds:
        out.write("OK: the digest and the signature hold.\n")
        return EXIT_HOLDS
    for failure in verification.failures:
        out.write(f"FAILED: {failure}\n")
    return EXIT_CHANGED


def main(argv: Sequence[str], *, prog: str = "council", stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """``verify-receipt`` with its own arguments (``argv`` after the command's name)."""
    out, err = stdout or sys.stdout, stderr or sys.stderr
    opts = build_parser(prog).parse_args(argv)
    try:
        given = load_public_key(_key_text(opts.key)) if opts.key else None
    except BadKey as exc:
        err.write(f"{prog} {COMMAND}: error: --key: {exc}\n")
        return EXIT_NOT_A_RECEIPT
    try:
        envelope = parse_envelope(_read(opts.file))
    except (OSError, UnicodeDecodeError, NotAReceipt) as exc:
        err.write(f"{prog} {COMMAND}: error: {opts.file}: {exc}\n")
        return EXIT_NOT_A_RECEIPT
    return report(verify(envelope, given_key=given), out)
