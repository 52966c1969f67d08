"""A decision's receipt: what the team decided on a debate, on what evidence, signed by
the site so that anyone outside Council can check it (docs/teams.md, "Decision
receipts"). The document is built from the stored records (the decision's versions,
the debate's settings, panel and result, its sources' versions) and signed by the
engine's receipt format (RFC 8785 canonical JSON, SHA-256, Ed25519), which
``council verify-receipt`` checks offline.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from pydantic import BaseModel

from api_kit.timestamps import rfc3339
from audit.selectors import debate_trail, decision_recorded_at, receipt_entry
from debates.engine import (
    RECEIPT_FORMAT,
    DebateForecasts,
    get_protocol,
    receipt_key_id,
    receipt_public_key_b64,
    receipt_public_key_pem,
    sign_receipt,
)
from debates.models import Debate, Synthesis
from debates.selectors import debate_options, debate_result, earlier_result, earlier_syntheses
from decisions import selectors
from decisions.models import Decision, DecisionVersion
from decisions.receipts_key import receipt_key
from sources.selectors import debate_links


def _moment(value: datetime | None) -> str | None:
    return rfc3339(value) if value is not None else None


def _who(version: Decision | DecisionVersion) -> str | None:
    """Who recorded it (their username); None for a member whose account is gone."""
    return version.decided_by.get_username() if version.decided_by else None


def _version(version: Decision | DecisionVersion) -> dict[str, Any]:
    return {
        "version": version.version,
        "decision": version.label,
        "option": version.option or None,
        "choice": version.choice or None,
        "rationale": version.rationale,
        "decided_by": _who(version),
        "decided_at": _moment(version.decided_at),
        "review_on": version.review_on.isoformat() if version.review_on else None,
    }


def _votes(forecasts: DebateForecasts, *, first: bool) -> dict[str, Any]:
    """The panel's vote at its first positions (independent) or at the end."""
    return {
        "majority": forecasts.initial_majority if first else forecasts.final_majority,
        "verdicts": [{
            "agent": a.agent, "name": a.name,
            "verdict": a.initial_verdict if first else a.final_verdict,
            "confidence": a.initial_confidence if first else a.final_confidence,
        } for a in forecasts.agents],
    }


def _result_when_decided(debate: Debate, decided_at: datetime
                         ) -> tuple[BaseModel, datetime] | None:
    """The result the team read when it decided (and when it was written): the current
    synthesis, or the earlier one that "One more round" replaced after the decision."""
    try:
        current: Synthesis | None = debate.synthesis
    except Synthesis.DoesNotExist:
        current = None
    if current is not None and current.created_at <= decided_at:
        result = debate_result(debate=debate)
        return (result, current.created_at) if result is not None else None
    for earlier in earlier_syntheses(debate=debate):  # newest first
        if earlier.created_at <= decided_at:
            found = earlier_result(debate=debate, code=earlier.code)
            return (found[1], earlier.created_at) if found is not None else None
    return None


def _result(debate: Debate, decided_at: datetime) -> dict[str, Any] | None:
    """The result's digest, read through the protocol (any protocol): how it ended,
    what it recommends, its quality, the independent and the final vote."""
    found = _result_when_decided(debate, decided_at)
    if found is None:
        return None
    result, written_at = found
    summary = getattr(result, "summary", None)
    forecasts = get_protocol(debate.protocol).forecasts(result)
    digest: dict[str, Any] = {"protocol": debate.protocol, "written_at": rfc3339(written_at)}
    if summary is not None:
        digest.update({
            "quality": str(summary.quality),
            "quality_rules": [r.rule for r in summary.quality_reasons],
            "stop_reason": summary.stop_reason,
            "recommendation": summary.decision,
            "divergence": summary.divergence,
            "degraded": summary.degraded,
            "simulated": summary.simulated,
        })
    # A synthesis (or another answer) that lacked its decision got one repair call:
    # the receipt says so (left out when none was made, as receipts were before).
    repairs = getattr(result, "repairs", None)
    if repairs:
        digest["repairs"] = [r.model_dump(mode="json") for r in repairs]
    if forecasts.agents:
        digest["options"] = list(forecasts.options)
        digest["independent_vote"] = _votes(forecasts, first=True)
        digest["final_vote"] = _votes(forecasts, first=False)
    return digest


def _sources(debate: Debate) -> list[dict[str, Any]]:
    """Each source the debate read, with the SHA-256 of the file as uploaded (what an
    outsider holding the document can check); a source deleted since has none."""
    found = []
    for link in debate_links(debate=debate):
        version = link.version
        found.append({
            "id": link.source_id, "title": link.title,
            "filename": version.filename if version else None,
            "version": version.number if version else None,
            "size": version.size if version else None,
            "sha256": version.sha256 if version else None,
        })
    return found


def _models(debate: Debate) -> dict[str, Any]:
    return {
        "settings": debate.settings,
        "panel": [{"agent": a.index, "name": a.name, "model": a.model}
                  for a in debate.agents.order_by("index")],
        "prompt_version": debate.prompt_version,
        "simulated": debate.simulated,
    }


def receipt_document(decision: Decision, *, issued_at: datetime | None = None
                     ) -> dict[str, Any]:
    """The receipt's document for the decision as it stands (its current version)."""
    debate = decision.debate
    versions = selectors.decision_versions(decision=decision)
    return {
        "site": settings.COUNCIL_SITE_URL,
        "issued_at": rfc3339(issued_at or timezone.now()),
        "team": debate.team.name,
        "debate": {
            "code": str(debate.code), "question": debate.question, "context": debate.context,
            "protocol": debate.protocol, "mode": debate.mode,
            "options": debate_options(debate),
            "created_at": _moment(debate.created_at),
            "finished_at": _moment(debate.finished_at),
        },
        "decision": {"code": str(decision.code), **_version(decision),
                     "result_quality": decision.result_quality},
        "result": _result(debate, decision.decided_at),
        "sources": _sources(debate),
        "models": _models(debate),
        # Every version, oldest first: who recorded or changed the decision, when and
        # why; and the audit events that led to it (docs/teams.md, "Audit log").
        "history": [_version(v) for v in reversed(versions)],
        "audit_events": _audit_events(decision),
    }


def _audit_events(decision: Decision) -> list[dict[str, Any]]:
    """What was done on the debate up to this version of the decision (its own
    ``decision.record`` event included), oldest first."""
    recorded = decision_recorded_at(decision_code=decision.code, version=decision.version)
    return [{**entry, "at": rfc3339(entry["at"])} for entry in map(
        receipt_entry, debate_trail(debate_code=decision.debate.code,
                                    until=recorded or decision.decided_at))]


def decision_receipt(decision: Decision) -> dict[str, Any]:
    """The signed receipt (the envelope ``council verify-receipt`` checks). Raises
    NoReceiptKey when the site has no signing key."""
    return sign_receipt(receipt_document(decision), receipt_key())


def receipt_filename(decision: Decision) -> str:
    return f"council-receipt-{str(decision.debate.code)[:8]}-v{decision.version}.json"


def published_key() -> dict[str, str]:
    """The site's public key as ``/.well-known/council-receipt-key`` serves it."""
    public = receipt_key().public_key()
    return {"format": RECEIPT_FORMAT, "algorithm": "Ed25519",
            "key_id": receipt_key_id(public), "public_key": receipt_public_key_b64(public),
            "public_key_pem": receipt_public_key_pem(public)}
