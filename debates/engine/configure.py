"""Settings as a user gives them -> the ``DebateConfig`` a debate runs with.

``DebateConfig`` is plain data. Everything that needs the protocol registry or the
option parser happens here, once, where a debate is configured (the service that
starts debates and re-runs them, so the web form, the API and MCP; the CLI): the
protocol's name and its ``protocol_options`` are checked, the user's options parsed,
and the mode's defaults (or the protocol's own round cap) filled in. A stored config
is already resolved and loads without any of this.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict, field_validator, model_validator

from .options import parse_options
from .protocols import check_protocol, get_protocol, known_protocols
from .schemas import MODE_DEFAULTS, DebateConfig


class _Resolving(DebateConfig):
    """DebateConfig's fields with the checks and defaults that need the registry.
    Errors read exactly as DebateConfig's own (same title, fields and messages)."""

    model_config = ConfigDict(title="DebateConfig")

    @field_validator("protocol")
    @classmethod
    def _registered_protocol(cls, value: str) -> str:
        return check_protocol(value)

    @field_validator("options")
    @classmethod
    def _clean_options(cls, value: list[str] | None) -> list[str] | None:
        return parse_options(value) if value is not None else None

    @model_validator(mode="after")
    def _fill_from_mode(self) -> _Resolving:
        defaults = MODE_DEFAULTS[self.mode]
        protocol = get_protocol(self.protocol)
        if self.agents is None:
            self.agents = defaults.agents
        if self.threshold is None:
            self.threshold = defaults.threshold
        if self.max_rounds is None:
            # A protocol may fix its own round cap (adversarial: 5 whatever the mode).
            self.max_rounds = protocol.default_max_rounds or defaults.max_rounds
        protocol.check_options(self.protocol_options)
        check_decision_rule(self.protocol, self.decision_rule)
        return self


def check_agents(protocol: str, agents: int | None) -> None:
    """Raises ValueError when a number of agents is given for a protocol whose panel is
    fixed: every way in (form, API, MCP, CLI) refuses it the same way rather than run
    a panel other than the one asked for. ``protocol`` must be registered."""
    panel = get_protocol(protocol).fixed_panel
    if agents is None or not panel:
        return
    sized = [name for name in known_protocols() if not get_protocol(name).fixed_panel]
    raise ValueError(f"the {protocol} protocol always runs {panel}; a number of agents "
                     f"applies only to {' and '.join(sized)}: leave it blank")


def check_decision_rule(protocol: str, rule: object) -> None:
    """Raises ValueError when a decision rule is given for a protocol whose panel takes
    no vote (every way in refuses it alike, rather than ignore it). ``protocol`` must be
    registered."""
    if rule is None or get_protocol(protocol).votes:
        return
    voting = [name for name in known_protocols() if get_protocol(name).votes]
    raise ValueError(f"the {protocol} protocol's panel takes no vote: a decision rule "
                     f"applies only to {' and '.join(voting)}; leave it blank")


def resolve_config(given: Mapping[str, Any] | DebateConfig | None = None,
                   **settings: Any) -> DebateConfig:
    """The config a debate runs with, from settings as given (a mapping, a config
    built with blanks, or keyword arguments on top of either). Raises pydantic's
    ``ValidationError`` for bad input, with the messages DebateConfig always gave;
    resolving a resolved config changes nothing."""
    if isinstance(given, DebateConfig):
        # Only what was set: unset simulator fields keep following the environment.
        raw: dict[str, Any] = given.model_dump(exclude_unset=True)
    else:
        raw = dict(given or {})
    raw.update(settings)
    resolved = _Resolving.model_validate(raw)
    # Already validated: copied field for field, with the same fields marked as set.
    return DebateConfig.model_construct(_fields_set=resolved.model_fields_set, **dict(resolved))
