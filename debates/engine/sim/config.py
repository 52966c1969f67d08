"""Simulator settings: fault rates, environment defaults and trajectory scripts.

Kept apart from ``simulator.py`` (the litellm provider) so that building a debate's
settings, in a web request or the CLI, does not import litellm.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from debates.engine.schemas import Phase, SimulatorOptions


def stable_hash(*parts: Any) -> int:
    """A process-independent hash: Python's ``hash()`` is salted per process."""
    data = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return int.from_bytes(hashlib.sha256(data.encode("utf-8")).digest()[:8], "big")


def seeded_rng(*parts: Any) -> random.Random:
    """A random generator seeded by ``stable_hash(*parts)``: same parts, same draws."""
    return random.Random(stable_hash(*parts))


FAULT_KINDS: tuple[str, ...] = (
    "timeout",
    "rate_limit",
    "server_error",
    "malformed_json",
    "schema_invalid",
    "empty",
)
DOWN_MESSAGE = "sim/down: service unavailable (simulated outage)"

ENV_LATENCY = "COUNCIL_SIM_LATENCY_MS"
ENV_FAULTS = "COUNCIL_SIM_FAULTS"
ENV_SCRIPT = "COUNCIL_SIM_SCRIPT"
ENV_SEED = "COUNCIL_SIM_SEED"



def parse_faults(text: str) -> dict[str, float]:
    """Parse ``"timeout=0.1,rate_limit=0.05"`` into per-kind rates (0..1)."""
    faults: dict[str, float] = {}
    for chunk in text.split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        kind, sep, value = chunk.partition("=")
        kind = kind.strip()
        if not sep:
            raise ValueError(f"fault entry {chunk!r} must look like kind=rate")
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; known kinds: {', '.join(FAULT_KINDS)}")
        try:
            rate = float(value)
        except ValueError:
            raise ValueError(
                f"fault rate for {kind!r} is not a number: {value.strip()!r}"
            ) from None
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"fault rate for {kind!r} must be between 0 and 1, got {rate}")
        faults[kind] = rate
    return faults


def _env_values(env: Mapping[str, str]) -> dict[str, Any]:
    """The option values given by ``COUNCIL_SIM_*``: only those actually set."""
    values: dict[str, Any] = {}
    latency = env.get(ENV_LATENCY, "").strip()
    if latency:
        try:
            values["latency_ms"] = int(latency)
        except ValueError:
            raise ValueError(
                f"{ENV_LATENCY} must be an integer (milliseconds), got {latency!r}"
            ) from None
        if values["latency_ms"] < 0:
            raise ValueError(f"{ENV_LATENCY} must not be negative, got {latency}")
    seed = env.get(ENV_SEED, "").strip()
    if seed:
        try:
            values["seed"] = int(seed)
        except ValueError:
            raise ValueError(f"{ENV_SEED} must be an integer, got {seed!r}") from None
    faults = env.get(ENV_FAULTS, "").strip()
    if faults:
        try:
            values["faults"] = parse_faults(faults)
        except ValueError as exc:
            raise ValueError(f"{ENV_FAULTS}: {exc}") from None
    script_path = env.get(ENV_SCRIPT, "").strip()
    if script_path:
        values["script"] = load_sim_script(script_path)
    return values


def simulator_options_from_env(
    env: Mapping[str, str] | None = None, **overrides: Any
) -> SimulatorOptions:
    """Options from ``COUNCIL_SIM_*``, then ``overrides`` (``None`` values ignored).

    Use it where a debate's configuration is built, so the environment's settings are
    recorded with the debate. Raises ValueError on a bad environment value.
    """
    values = _env_values(os.environ if env is None else env)
    values.update({key: value for key, value in overrides.items() if value is not None})
    return SimulatorOptions(**values)


_env_cache: dict[tuple[Any, ...], dict[str, Any]] = {}


def _cached_env_values() -> dict[str, Any]:
    """``_env_values(os.environ)``, re-read only when a variable or the script changes."""
    names = (ENV_LATENCY, ENV_FAULTS, ENV_SCRIPT, ENV_SEED)
    raw = tuple(os.environ.get(name, "") for name in names)
    script_path = raw[2].strip()
    mtime = None
    if script_path:
        try:
            mtime = os.stat(script_path).st_mtime_ns
        except OSError:
            mtime = None
    key = (*raw, mtime)
    if key not in _env_cache:
        values = _env_values(os.environ)
        _env_cache.clear()
        _env_cache[key] = values
    return _env_cache[key]


def effective_options(given: Mapping[str, Any] | None) -> SimulatorOptions:
    """Options of one call: those the call carries, the environment for the rest."""
    return SimulatorOptions.model_validate({**_cached_env_values(), **(given or {})})


# =========================================================================== script

_ScriptText = Annotated[str, Field(min_length=1)]
_ScriptConfidence = Annotated[float, Field(ge=0.0, le=1.0)]


class _ScriptModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SimScriptRound(_ScriptModel):
    updated_confidence: _ScriptConfidence | None = None
    updated_verdict: str | None = None  # one of the debate's options; null = unchanged
    updated_position: str | None = None
    reflection: str | None = None
    concessions: list[_ScriptText] = Field(default_factory=list)
    remaining_disagreements: list[_ScriptText] = Field(default_factory=list)
    new_evidence_needed: list[_ScriptText] = Field(default_factory=list)


class SimScriptChallenge(_ScriptModel):
    """An agent's answer to deep mode's challenge (docs/protocols.md 1.7a)."""

    verdict: str | None = None  # one of the debate's options; null = holds its verdict
    confidence: _ScriptConfidence | None = None  # null = keeps its confidence
    concession: str | None = None  # what convinced it, when it moves


class SimScriptAgent(_ScriptModel):
    name: _ScriptText
    position_confidence: _ScriptConfidence | None = None
    # The round-0 verdict. A scripted agent without one takes the debate's first option,
    # so scripts that pin only confidences share one verdict and stop as before.
    position_verdict: str | None = None
    # The round-0 stance, word for word (an evaluation's free-number answer, read from
    # it); None: the simulator writes one.
    position_stance: str | None = None
    fail_in: list[str] = Field(default_factory=list)
    rounds: list[SimScriptRound] = Field(default_factory=list)
    # Its answer to a challenge; None: the simulator holds its verdict.
    challenge: SimScriptChallenge | None = None

    @field_validator("fail_in")
    @classmethod
    def _known_phases(cls, value: list[str]) -> list[str]:
        for entry in value:
            phase, sep, rnd = entry.partition(":")
            known = sorted(Phase.registered())
            if phase not in known:
                raise ValueError(
                    f"fail_in entry {entry!r}: unknown phase {phase!r} "
                    f"(known: {', '.join(known)})"
                )
            if sep and not rnd.strip().isdigit():
                raise ValueError(f"fail_in entry {entry!r}: round must be a whole number")
        return value

    def fails_in(self, phase: str, round_: int) -> bool:
        for entry in self.fail_in:
            name, sep, rnd = entry.partition(":")
            if name == phase and (not sep or int(rnd) == round_):
                return True
        return False


class SimScript(_ScriptModel):
    agents: list[SimScriptAgent] = Field(min_length=1)
    # The synthesis's recommendation, word for word (an evaluation reads its answer
    # from it); None: the simulator writes one.
    recommendation: str | None = None
    # A synthesis that names no decision (recommended_path and divergence_report both
    # null, as the 0.5B run wrote): "first" in the first answer only, so the engine's one
    # repair gets one; "always" in the repair's answer too (docs/simulator.md).
    synthesis_without_decision: Literal["first", "always"] | None = None

    @field_validator("agents")
    @classmethod
    def _unique_names(cls, value: list[SimScriptAgent]) -> list[SimScriptAgent]:
        seen: set[str] = set()
        for agent in value:
            if agent.name in seen:
                raise ValueError(f"agent name {agent.name!r} appears more than once")
            seen.add(agent.name)
        return value

    def agent(self, name: str | None) -> SimScriptAgent | None:
        return next((a for a in self.agents if a.name == name), None) if name else None


def _format_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ""
        for item in err["loc"]:
            loc += f"[{item}]" if isinstance(item, int) else (f".{item}" if loc else str(item))
        parts.append(f"{loc or '(top level)'}: {err['msg']}")
    return "; ".join(parts)


def load_sim_script(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and validate a simulator script (YAML or JSON) into a plain dict.

    Raises ValueError naming the file and what is wrong with it.
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(
            f"simulator script {file}: cannot read file ({exc.strerror or exc})"
        ) from None
    is_json = file.suffix.lower() == ".json"
    try:
        data = json.loads(text) if is_json else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        kind = "JSON" if is_json else "YAML"
        raise ValueError(f"simulator script {file}: not valid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(
            f"simulator script {file}: the top level must be a mapping with an 'agents' list"
        )
    try:
        script = SimScript.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"simulator script {file}: {_format_validation_error(exc)}") from None
    return script.model_dump(mode="json")


_script_cache: dict[int, SimScript] = {}


def _parse_script(raw: dict[str, Any] | None) -> SimScript | None:
    if not raw:
        return None
    key = stable_hash(raw)
    if key not in _script_cache:
        try:
            _script_cache[key] = SimScript.model_validate(raw)
        except ValidationError as exc:
            raise ValueError(f"invalid simulator script: {_format_validation_error(exc)}") from None
    return _script_cache[key]
