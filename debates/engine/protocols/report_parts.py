"""The parts the adversarial and workflow reports share: the unverified claims and
the usage line. Untrusted text goes through ``markdown`` like every report's."""

from __future__ import annotations

from collections.abc import Callable

from ..markdown import inline
from ..schemas import ProtocolResult, UnverifiedClaim


def claims_section(t: Callable[..., str], claims: list[UnverifiedClaim], ok: bool) -> list[str]:
    out = [f"## {t('common.unverified')}", ""]
    if not ok:
        out.append(t("common.verifier_failed"))
    out += [f"- \"{inline(c.quote)}\" ({c.type.value}): {inline(c.why)}" for c in claims]
    if ok and not claims:
        out.append(f"- {t('common.none')}")
    return [*out, ""]


def usage_line(result: ProtocolResult) -> str:
    u = result.usage
    cost = f"${u.cost_usd:.4f}" if u.cost_known else "cost unknown"
    return (f"*{u.calls} calls ({u.failed_calls} failed), {u.prompt_tokens} + "
            f"{u.completion_tokens} tokens, {cost}, {u.wall_time_s:.1f} s · prompts "
            f"{result.prompt_version} · synthesis model {inline(result.synthesis_model)}*")
