"""Debate protocols: what a protocol is (``base``), the registry that finds one by
name (``registry``), the shared parts of their reports, and one package per built-in
protocol (``council``, ``adversarial``, ``workflow``: its schemas, steps, stopping
rule, report and simulated answers). The built-ins are registered by
``debates.engine.plugins``, never by importing this package."""

from __future__ import annotations

from .base import (
    PANEL,
    AgentForecast,
    AnswerFact,
    Ask,
    DebateForecasts,
    DebateProtocol,
    Fact,
    PageAnswer,
    PageStep,
    Participant,
    PlannedCall,
    Request,
    ResultPart,
    run_protocol,
)
from .registry import (
    UnknownProtocol,
    check_protocol,
    choices,
    get_protocol,
    known_protocols,
    register,
    result_models,
)

__all__ = [
    "PANEL", "AgentForecast", "AnswerFact", "Ask", "DebateForecasts", "DebateProtocol",
    "Fact", "PageAnswer", "PageStep", "Participant", "PlannedCall", "Request", "ResultPart",
    "UnknownProtocol", "check_protocol",
    "choices", "get_protocol", "known_protocols", "register", "result_models", "run_protocol",
]
