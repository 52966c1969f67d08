"""The engine's plugins: the built-ins register through the same pluggy hooks a
third-party plugin uses, in the order the plugins module lists them, the first time a
registry is asked (not when the engine is imported), once per process however many
threads ask; the simulator answers a schema with the generator its protocol registered
for that class."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from debates.engine import hookimpl, plugins
from debates.engine.protocols import known_protocols
from debates.engine.protocols.adversarial.schemas import Critique
from debates.engine.protocols.adversarial.simulated import GENERATORS as ADVERSARIAL
from debates.engine.schemas import SimulatorOptions
from debates.engine.sim import generate as sim_generate
from debates.engine.sim.generate import CallContext, generate, register_generator

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def loaded() -> None:
    """The registries these tests copy or read directly are full (a registry asked for
    the first time loads the plugins; these reach past that)."""
    plugins.load_plugins()


def call(schema: str, **hints: Any) -> CallContext:
    return CallContext(model="sim/default", schema=schema, phase="critique", round=1,
                       agent=1, agent_name="critic", hints=hints,
                       options=SimulatorOptions(seed=3), call_seed=7,
                       question="Should we ship the new billing API?", language="en",
                       phrases=["billing API"])


def test_the_built_in_protocols_register_in_the_listed_order():
    assert [p.__name__.rsplit(".", 1)[-1] for p in plugins.BUILTIN_PLUGINS] == \
        ["council", "adversarial", "workflow", "sim", "quality"]
    assert known_protocols()[:3] == ["council", "adversarial", "workflow"]


# Run in a fresh interpreter: this test process loaded the plugins long ago.
LAZY = """
import threading
import debates.engine
from debates.engine import plugins
from debates.engine.protocols import registry
from debates.engine.quality import rules
from debates.engine.sim import generate

before = (len(registry._REGISTRY), len(generate._GENERATORS), len(rules._RULES))
loads = []
build = plugins._loaded_manager
plugins._loaded_manager = lambda: loads.append(1) or build()
threads = [threading.Thread(target=debates.engine.known_protocols) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(before, len(loads), debates.engine.known_protocols())
"""


def test_importing_the_engine_loads_no_plugin_and_the_first_ask_loads_them_once():
    run = subprocess.run([sys.executable, "-c", LAZY], cwd=ROOT, capture_output=True,
                         text=True, timeout=300, check=True)
    assert run.stdout.strip() == "(0, 0, 0) 1 ['council', 'adversarial', 'workflow']"


def test_a_protocols_schema_gets_the_generator_its_plugin_registered():
    answer = generate(call("Critique", focus_areas=["latency"], open_issues=[]))
    Critique.model_validate(answer)
    assert answer == ADVERSARIAL[Critique](call("Critique", focus_areas=["latency"],
                                                open_issues=[]))


def test_a_third_party_plugin_uses_the_same_hooks(monkeypatch):
    monkeypatch.setattr(sim_generate, "_GENERATORS", dict(sim_generate._GENERATORS))

    class Verdict(BaseModel):
        ruling: str

    @hookimpl
    def register_sim_generators(register):
        register(Verdict, lambda ctx: {"ruling": "ship it"})

    plugin = types.SimpleNamespace(register_sim_generators=register_sim_generators)
    plugins.load_plugin(plugin)
    try:
        assert generate(call("Verdict")) == {"ruling": "ship it"}
    finally:
        assert plugins._manager is not None
        plugins._manager.unregister(plugin)


def test_two_different_schemas_of_one_name_are_refused(monkeypatch):
    monkeypatch.setattr(sim_generate, "_GENERATORS", dict(sim_generate._GENERATORS))

    class Critique(BaseModel):  # not the adversarial protocol's Critique
        note: str

    with pytest.raises(ValueError, match="another schema named 'Critique'"):
        register_generator(Critique, lambda ctx: {"note": "x"})
