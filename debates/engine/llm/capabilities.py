"""What the engine knows about a model before it calls it: one lookup for every provider.

The simulator is one provider among others: its facts sit in ``BUILTIN_PROVIDERS``
instead of being tested for with ``startswith("sim/")`` around the code. Facts about
real models come from litellm's own tables (``get_model_info``,
``supports_response_schema``, ``get_supported_openai_params``), overridden per model by
the operator's settings (``COUNCIL_MODELS`` / ``COUNCIL_MODELS_FILE``).

The cheap questions (``is_simulated``, ``cost_known``) do not import litellm, so pages
that only read debates never pay its import time.
"""

from __future__ import annotations

import ipaddress
import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, get_args
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..schemas import ModeSetting, OutputMode

if TYPE_CHECKING:
    from ..schemas import DebateConfig

# The order ``auto`` tries for a model litellm does not know: the most constraining first.
OUTPUT_MODES: tuple[OutputMode, ...] = get_args(OutputMode)

DEFAULT_CONTEXT_LIMIT = 8192
# Providers that run on the operator's own hardware: slow, often one request at a time.
LOCAL_PROVIDERS = frozenset(
    {"ollama", "ollama_chat", "lm_studio", "hosted_vllm", "vllm", "llamafile", "xinference"}
)


@dataclass(frozen=True)
class Capabilities:
    provider: str
    # None: not known before the first call (``auto`` probes for it).
    output_mode: OutputMode | None
    context_limit: int
    cost_known: bool
    simulated: bool
    local: bool
    # Sampling parameters the provider accepts; None when litellm does not know.
    params: frozenset[str] | None = None
    # Receives the call's schema, phase and hints as litellm metadata (the simulator
    # writes its answers from them; a real provider is never sent them).
    call_context: bool = False
    api_base: str | None = None
    api_key: str | None = None
    timeout_s: float | None = None
    max_text_chars: int | None = None
    # Whether each call's text bound is sized from the context left after its prompt
    # (``LLMGateway.text_bound``): a model litellm knows nothing about on a local server,
    # most likely a small model on a CPU, where a constrained decoder writes every string
    # up to its bound (SmolLM2-135M filled 1000-character fields and timed out) and a
    # fixed 150 cut every field of Qwen2.5-Coder-1.5B mid-sentence. A ``max_text_chars``
    # setting replaces it.
    context_text_bound: bool = False


# How long the probe of a local server's context size may take (``server_context_limit``):
# a server that answers at all answers at once; one that does not costs the debate this.
SERVER_PROBE_TIMEOUT_S = 2.0


BUILTIN_PROVIDERS: dict[str, Capabilities] = {
    "sim": Capabilities(
        provider="sim",
        output_mode="prompt",
        context_limit=32768,
        cost_known=True,
        simulated=True,
        local=True,
        params=frozenset({"temperature", "seed", "max_tokens"}),
        call_context=True,
    ),
}


class ModelSettings(BaseModel):
    """The operator's per-model overrides (a ``COUNCIL_MODELS`` entry)."""

    model_config = ConfigDict(extra="forbid")

    output_mode: ModeSetting = "auto"
    context_limit: Annotated[int, Field(ge=256)] | None = None
    api_base: str | None = None
    # The name of the environment variable that holds the key: settings files hold no secrets.
    api_key_env: str | None = None
    timeout_s: Annotated[float, Field(gt=0)] | None = None
    local: bool | None = None
    # Bounds every text field (and list) of the schema sent to the server, not the
    # validation: a server that constrains decoding then closes each string in time,
    # so a small model that rambles still finishes its JSON within ``max_tokens``.
    max_text_chars: Annotated[int, Field(ge=20)] | None = None


def parse_model_settings(data: Mapping[str, Any]) -> dict[str, ModelSettings]:
    """``{model: {...}}`` into settings; raises ValueError naming the model and field."""
    parsed: dict[str, ModelSettings] = {}
    for model, entry in data.items():
        try:
            parsed[str(model)] = ModelSettings.model_validate(entry)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise ValueError(f"model {model!r}: {where}: {err['msg']}") from None
    return parsed


def load_model_settings(environ: Mapping[str, str] | None = None) -> dict[str, ModelSettings]:
    """Per-model settings from ``COUNCIL_MODELS_FILE`` (TOML or JSON) and ``COUNCIL_MODELS``
    (JSON, wins per model). Raises ValueError naming the variable on a bad value."""
    env = os.environ if environ is None else environ
    merged: dict[str, ModelSettings] = {}
    path = (env.get("COUNCIL_MODELS_FILE") or "").strip()
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8")
            data = tomllib.loads(text) if path.endswith(".toml") else json.loads(text)
        except (OSError, ValueError) as exc:
            raise ValueError(f"COUNCIL_MODELS_FILE={path!r}: {exc}") from None
        try:
            merged.update(parse_model_settings(data.get("models", data)))
        except ValueError as exc:
            raise ValueError(f"COUNCIL_MODELS_FILE={path!r}: {exc}") from None
    raw = (env.get("COUNCIL_MODELS") or "").strip()
    if raw:
        try:
            merged.update(parse_model_settings(json.loads(raw)))
        except ValueError as exc:
            raise ValueError(f"COUNCIL_MODELS: {exc}") from None
    return merged


_settings: dict[str, ModelSettings] | None = None


def configure(settings: Mapping[str, ModelSettings] | None) -> None:
    """Set the per-model settings for this process (None: read them from the environment)."""
    global _settings
    _settings = dict(settings) if settings is not None else None
    capabilities.cache_clear()


def model_settings(model: str) -> ModelSettings:
    global _settings
    if _settings is None:
        _settings = load_model_settings()
    return _settings.get(model) or ModelSettings()


def provider_of(model: str) -> str:
    return model.split("/", 1)[0] if "/" in model else ""


def is_simulated(model: str) -> bool:
    builtin = BUILTIN_PROVIDERS.get(provider_of(model))
    return builtin is not None and builtin.simulated


def uses_simulator(config: DebateConfig) -> bool:
    """Whether any model of the debate (the main one or a phase's) is simulated."""
    return any(is_simulated(m) for m in (config.model, *config.phase_models.values()))


def cost_known(model: str) -> bool:
    """Whether a call without a price may count as free (only for simulated providers)."""
    builtin = BUILTIN_PROVIDERS.get(provider_of(model))
    return builtin is not None and builtin.cost_known


def _is_local_url(url: str | None) -> bool:
    if not url:
        return False
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".local"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private


@lru_cache(maxsize=256)
def capabilities(model: str, api_base: str | None = None) -> Capabilities:
    """The facts for ``model`` (behind ``api_base`` when given). Cached: some litellm
    lookups (e.g. Ollama's model info) make a network request."""
    settings = model_settings(model)
    base = settings.api_base or api_base
    key = os.environ.get(settings.api_key_env) if settings.api_key_env else None
    builtin = BUILTIN_PROVIDERS.get(provider_of(model))
    if builtin is not None:
        caps = builtin
    else:
        caps = _litellm_capabilities(model, base)
    forced: OutputMode | None = (
        None if settings.output_mode == "auto" else settings.output_mode
    )
    return replace(
        caps,
        output_mode=forced or caps.output_mode,
        context_limit=settings.context_limit or caps.context_limit,
        local=caps.local if settings.local is None else settings.local,
        api_base=base,
        api_key=key,
        timeout_s=settings.timeout_s,
        max_text_chars=settings.max_text_chars or caps.max_text_chars,
        context_text_bound=caps.context_text_bound and not settings.max_text_chars,
    )


def _litellm_capabilities(model: str, api_base: str | None) -> Capabilities:
    # Imported here: litellm takes seconds to import; the cheap checks above never need it.
    from .loader import imported_litellm

    litellm = imported_litellm()

    try:
        provider = litellm.get_llm_provider(model)[1]
    except Exception:
        provider = provider_of(model)
    info: Mapping[str, Any] | None
    try:
        info = litellm.get_model_info(model)
    except Exception:
        info = None
    try:
        params = litellm.get_supported_openai_params(model=model)
        supported = frozenset(params) if params is not None else None
    except Exception:
        supported = None
    raw_limit = info.get("max_input_tokens") if info else None
    limit = int(raw_limit) if raw_limit else None
    mode: OutputMode | None
    if info is None and api_base:
        # An unknown model behind the operator's own server (e.g. a llama.cpp model
        # name): what the server accepts is found on the first call.
        mode = None
    elif _flag(litellm.supports_response_schema, model):
        mode = "json_schema"
    elif _flag(litellm.supports_function_calling, model):
        mode = "tools"
    elif supported is not None and "response_format" in supported:
        mode = "json_object"
    else:
        mode = "prompt"
    local = provider in LOCAL_PROVIDERS or _is_local_url(api_base)
    if limit is None and api_base and local and not model_settings(model).context_limit:
        limit = server_context_limit(api_base)
    return Capabilities(
        provider=provider,
        output_mode=mode,
        context_limit=limit or DEFAULT_CONTEXT_LIMIT,
        cost_known=False,
        simulated=False,
        local=local,
        params=supported,
        context_text_bound=info is None and local,
    )


@lru_cache(maxsize=32)
def server_context_limit(api_base: str) -> int | None:
    """The context size an OpenAI-compatible local server says it runs with, asked once
    per process: llama.cpp's ``GET /props`` (``default_generation_settings.n_ctx``, or
    ``n_ctx``), else ``GET /v1/models`` (a model's ``meta.n_ctx`` or ``meta.n_ctx_train``);
    None when the server says neither (docs/models.md, "Text bounds from the context")."""
    base = api_base.rstrip("/")
    root = base[: -len("/v1")] if base.endswith("/v1") else base
    props = _get_json(f"{root}/props")
    if isinstance(props, dict):
        settings = props.get("default_generation_settings")
        for found in (settings.get("n_ctx") if isinstance(settings, dict) else None,
                      props.get("n_ctx")):
            if isinstance(found, int) and _positive(found):
                return found
    models = _get_json(f"{base}/models")
    data = models.get("data") if isinstance(models, dict) else None
    for entry in data if isinstance(data, list) else []:
        meta = entry.get("meta") if isinstance(entry, dict) else None
        if isinstance(meta, dict):
            for key in ("n_ctx", "n_ctx_train"):
                if _positive(meta.get(key)):
                    return int(meta[key])
    return None


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 256


def _get_json(url: str) -> Any:
    # Imported here: only a probe needs it, never a page that reads debates.
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=SERVER_PROBE_TIMEOUT_S) as response:
            return json.loads(response.read(1_000_000))
    except Exception:
        return None


def _flag(check: Any, model: str) -> bool:
    try:
        return bool(check(model=model))
    except Exception:
        return False
