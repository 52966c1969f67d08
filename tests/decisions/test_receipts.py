"""Decision receipts (docs/teams.md, "Decision receipts"): the API downloads a signed
receipt of the team's decision, the site publishes its key, and the offline verifier
(``council verify-receipt``, no database) accepts it and names what a change breaks."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from debates.engine.cli import main as council_main
from decisions.services import decision_record
from tests.decisions.conftest import finish
from tests.factories import make_debate
from tests.sources.test_evidence_pages import TEXT, sourced_debate

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def receipt_key_file(settings, tmp_path):
    """A key of this test's own, generated on first use as the embedded site does."""
    settings.COUNCIL_RECEIPT_KEY_FILE = str(tmp_path / "receipt_key.pem")
    settings.COUNCIL_RECEIPT_KEY_GENERATE = True
    return tmp_path / "receipt_key.pem"


def receipt_url(debate) -> str:
    return f"/api/debates/{debate.code}/decision/receipt"


def verify(path: Path, *extra: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = council_main(["verify-receipt", str(path), *extra], stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def download(client, debate, tmp_path: Path) -> tuple[dict, Path]:
    response = client.get(receipt_url(debate))
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment; filename=\"council-receipt-")
    path = tmp_path / "receipt.json"
    path.write_bytes(response.content)
    return json.loads(response.content), path


@pytest.fixture
def decided(team, owner, member):
    """A debate run on the simulated model with one source, decided twice (two versions
    by two people)."""
    debate = sourced_debate(team, owner)
    option = debate.synthesis.result["options"][0] if debate.synthesis.result.get("options") \
        else None
    kwargs = {"option": option} if option else {"choice": "Use SQS"}
    decision_record(debate=debate, user=owner, rationale="Cheaper to run.", **kwargs,
                    confirm_quality=True)
    decision_record(debate=debate, user=member, rationale="Cheaper, and no brokers.",
                    **kwargs, confirm_quality=True)
    return debate


def test_a_downloaded_receipt_holds_what_was_decided_on_what_evidence(
        member_client, decided, tmp_path):
    envelope, path = download(member_client, decided, tmp_path)
    assert envelope["format"] == "council-receipt/1"
    assert envelope["digest"].startswith("sha256:")
    doc = envelope["receipt"]
    assert doc["debate"]["question"] == decided.question and doc["team"] == decided.team.name
    assert doc["decision"]["rationale"] == "Cheaper, and no brokers."
    assert doc["decision"]["decided_by"] == "member" and doc["decision"]["version"] == 2
    assert doc["decision"]["decided_at"].endswith("Z")
    assert [(v["version"], v["decided_by"]) for v in doc["history"]] == [
        (1, "owner"), (2, "member")]
    [source] = doc["sources"]
    import hashlib
    assert source["id"] == "S1" and source["sha256"] == hashlib.sha256(TEXT.encode()).hexdigest()
    result = doc["result"]
    assert result["protocol"] == "council" and result["quality"] in {"sound", "doubtful",
                                                                       "unusable"}
    assert {"stop_reason", "recommendation", "independent_vote", "final_vote"} <= set(result)
    assert result["final_vote"]["verdicts"], "each agent's final verdict"
    assert doc["models"]["settings"] == decided.settings and doc["models"]["panel"]

    code, said = verify(path)
    assert code == 0, said
    assert "OK: the digest and the signature hold." in said
    assert "Cheaper" not in said and "member" in said and doc["decision"]["decision"] in said
    assert "NOT checked against the site's published key" in said


def test_a_receipt_carries_the_audit_events_that_led_to_its_decision(
        member_client, decided, tmp_path):
    """Who created the debate and who recorded each version, oldest first, up to the
    version the receipt is of; no address or browser (docs/teams.md, "Audit log")."""
    envelope, path = download(member_client, decided, tmp_path)
    events = envelope["receipt"]["audit_events"]
    said = [(e["action"], e["actor"]) for e in events]
    assert said[0][0] == "debate.create"
    assert said[-2:] == [("decision.record", "owner"), ("decision.record", "member")]
    assert all(e["at"].endswith("Z") and "ip" not in e for e in events)
    envelope["receipt"]["audit_events"][-1]["actor"] = "owner"  # a changed trail fails
    path.write_text(json.dumps(envelope), encoding="utf-8")
    assert verify(path)[0] == 1


def test_two_downloads_of_one_version_differ_only_in_when_they_were_signed(
        member_client, decided, tmp_path):
    first, _ = download(member_client, decided, tmp_path)
    second, _ = download(member_client, decided, tmp_path)
    first["receipt"].pop("issued_at"), second["receipt"].pop("issued_at")
    assert first["receipt"] == second["receipt"]


def test_the_published_key_checks_the_receipt_and_another_key_does_not(
        client, member_client, decided, tmp_path):
    _, path = download(member_client, decided, tmp_path)
    published = client.get("/.well-known/council-receipt-key")  # no sign-in
    assert published.status_code == 200
    key = published.json()
    assert key["algorithm"] == "Ed25519" and len(base64.b64decode(key["public_key"])) == 32
    key_file = tmp_path / "site-key.json"
    key_file.write_bytes(published.content)
    code, said = verify(path, "--key", str(key_file))
    assert code == 0 and "the key given with --key" in said, said
    pem_file = tmp_path / "site-key.pem"
    pem_file.write_text(key["public_key_pem"])
    assert verify(path, "--key", str(pem_file))[0] == 0

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from debates.engine import receipt_public_key_b64
    other = receipt_public_key_b64(Ed25519PrivateKey.generate().public_key())
    code, said = verify(path, "--key", other)
    assert code == 1 and "the key is not the one given" in said, said


def test_a_changed_decision_fails_naming_the_digest(member_client, decided, tmp_path):
    envelope, path = download(member_client, decided, tmp_path)
    envelope["receipt"]["decision"]["rationale"] = "Xheaper, and no brokers."
    path.write_text(json.dumps(envelope))
    code, said = verify(path)
    assert code == 1
    assert "the document was changed: digest mismatch" in said
    assert "decision.rationale" in said and "the signature does not verify" in said


def test_the_verifier_runs_as_a_process_without_the_site(member_client, decided, tmp_path):
    _, path = download(member_client, decided, tmp_path)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # no Django settings, no database
    done = subprocess.run([sys.executable, "-m", "debates.engine", "verify-receipt", str(path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK: the digest and the signature hold." in done.stdout
    path.write_text(path.read_text()[:-40])  # truncated
    done = subprocess.run([sys.executable, "-m", "debates.engine", "verify-receipt", str(path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "not JSON" in done.stderr, done.stdout + done.stderr


def test_who_may_download_a_receipt(client, viewer_client, outsider_client, team, owner):
    debate = finish(make_debate(team, owner))
    assert viewer_client.get(receipt_url(debate)).json()["code"] == "no_decision"
    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky now.")
    assert viewer_client.get(receipt_url(debate)).status_code == 200
    assert outsider_client.get(receipt_url(debate)).status_code == 404
    assert client.get(receipt_url(debate)).status_code == 401


def test_the_key_is_generated_once_and_kept(client, receipt_key_file):
    assert not receipt_key_file.exists()
    first = client.get("/.well-known/council-receipt-key").json()
    assert receipt_key_file.exists() and receipt_key_file.stat().st_mode & 0o077 == 0
    assert client.get("/.well-known/council-receipt-key").json() == first


def test_without_a_key_receipts_are_refused(settings, viewer_client, client, team, owner):
    settings.COUNCIL_RECEIPT_KEY_FILE = ""
    settings.COUNCIL_RECEIPT_KEY_GENERATE = False
    debate = finish(make_debate(team, owner))
    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky now.")
    response = viewer_client.get(receipt_url(debate))
    assert response.status_code == 503 and response.json()["code"] == "receipts_not_configured"
    assert client.get("/.well-known/council-receipt-key").status_code == 503


def test_the_decision_pages_link_the_receipt(viewer_client, team, owner):
    debate = finish(make_debate(team, owner))
    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky now.")
    for page in (f"/debates/{debate.code}/", f"/debates/{debate.code}/decision/history"):
        assert receipt_url(debate) in viewer_client.get(page).content.decode(), page


def test_the_documented_python_check_holds_without_council(client, member_client, decided,
                                                            tmp_path):
    """docs/teams.md's snippet (rfc8785 + cryptography only) checks a real receipt."""
    import re
    _, path = download(member_client, decided, tmp_path)
    path.rename(tmp_path / "receipt.json")
    (tmp_path / "site-key.json").write_bytes(
        client.get("/.well-known/council-receipt-key").content)
    section = (ROOT / "docs" / "teams.md").read_text().split("## Decision receipts", 1)[1]
    [snippet] = re.findall(r"```python\n(.*?)```", section.split("\n## ", 1)[0], re.S)
    assert len(snippet.strip().splitlines()) <= 10
    done = subprocess.run([sys.executable, "-c", snippet], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("holds: "), done.stderr


def test_the_result_is_the_one_the_team_decided_on_after_one_more_round(
        viewer_client, team, owner, tmp_path):
    """"One more round" after the decision replaces the synthesis; the receipt keeps the
    result the decision was recorded on (the earlier synthesis), and says when it was
    written."""
    from debates.models import EarlierSynthesis, Synthesis
    from tests.factories import synthesis_result

    debate = finish(make_debate(team, owner))
    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky now.")
    old = Synthesis.objects.get(debate=debate)
    EarlierSynthesis.objects.create(debate=debate, result=old.result,
                                    created_at=old.created_at, rounds_completed=1)
    old.delete()
    newer = synthesis_result()
    newer["recommended_path"]["recommendation"] = "Stay after all"
    Synthesis.objects.create(debate=debate, result=newer)
    envelope, _ = download(viewer_client, debate, tmp_path)
    result = envelope["receipt"]["result"]
    assert result["recommendation"] == "Migrate in Q3"
    from datetime import datetime
    moment = datetime.fromisoformat
    assert moment(result["written_at"]) == old.created_at
    assert moment(result["written_at"]) <= moment(envelope["receipt"]["decision"]["decided_at"])


def test_the_receipt_says_a_content_repair_was_made(member_client, decided, tmp_path):
    # A synthesis that named no decision got one repair (docs/engine.md, "Content
    # checks"): the result lists it, and the receipt's result digest says so.
    envelope, _ = download(member_client, decided, tmp_path)
    assert "repairs" not in envelope["receipt"]["result"]  # none made: as before
    synthesis = decided.synthesis
    synthesis.result = {**synthesis.result, "repairs": [{"step": "synthesis", "taken": True}]}
    synthesis.save(update_fields=["result"])
    envelope, path = download(member_client, decided, tmp_path)
    assert envelope["receipt"]["result"]["repairs"] == [{"step": "synthesis", "taken": True}]
    code, said = verify(path)
    assert code == 0, said
