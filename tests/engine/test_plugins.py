"""The engine's plugins: the built-ins register through the same hooks a third-party
plugin uses, in the order the plugins module lists them, and the simulator answers a
schema with the generator its protocol registered for that class."""

from __future__ import annotations

import types
from typing import Any

import pytest
from pydantic import BaseModel

from debates.engine import plugins
from debates.engine.protocols import known_protocols
from debates.engine.protocols.adversarial.schemas import Critique
from debates.engine.protocols.adversarial.simulated import GENERATORS as ADVERSARIAL
from debates.engine.schemas import SimulatorOptions
from debates.engine.sim import generate as sim_generate
from debates.engine.sim.generate import CallContext, generate, register_generator


def call(schema: str, **hints: Any) -> CallContext:
    return CallContext(model="sim/default", schema=schema, phase="critique", round=1,
                       agent=1, agent_name="critic", hints=hints,
                       options=SimulatorOptions(seed=3), call_seed=7,
                       question="Should we ship the new billing API?", language="en",
                       phrases=["billing API"])


def test_the_built_in_protocols_register_in_the_listed_order():
    assert [p.__name__.rsplit(".", 1)[-1] for p in plugins.BUILTIN_PLUGINS] == \
        ["council", "adversarial", "workflow", "sim"]
    assert known_protocols()[:3] == ["council", "adversarial", "workflow"]


def test_a_protocols_schema_gets_the_generator_its_plugin_registered():
    answer = generate(call("Critique", focus_areas=["latency"], open_issues=[]))
    Critique.model_validate(answer)
    assert answer == ADVERSARIAL[Critique](call("Critique", focus_areas=["latency"],
                                                open_issues=[]))


def test_a_third_party_plugin_uses_the_same_hooks(monkeypatch):
    monkeypatch.setattr(sim_generate, "_GENERATORS", dict(sim_generate._GENERATORS))

    class Verdict(BaseModel):
        ruling: str

    plugin = types.SimpleNamespace(register_sim_generators=lambda register: register(
        Verdict, lambda ctx: {"ruling": "ship it"}))
    plugins.load_plugin(plugin)
    assert generate(call("Verdict")) == {"ruling": "ship it"}


def test_two_different_schemas_of_one_name_are_refused(monkeypatch):
    monkeypatch.setattr(sim_generate, "_GENERATORS", dict(sim_generate._GENERATORS))

    class Critique(BaseModel):  # not the adversarial protocol's Critique
        note: str

    with pytest.raises(ValueError, match="another schema named 'Critique'"):
        register_generator(Critique, lambda ctx: {"note": "x"})
