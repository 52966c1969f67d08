"""Text bounds sized from the model's context, and a text cut at its bound marked as cut
(issue 42, item 4): Qwen2.5-Coder-1.5B had every text field cut at 150 characters
mid-sentence ("... is no longer efficient and could"), silently."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from debates.engine.llm import capabilities as caps_module
from debates.engine.llm.capabilities import ModelSettings, capabilities, server_context_limit
from debates.engine.llm.gateway import LOCAL_TURN_CAP_S, LLMGateway
from debates.engine.llm.grammar_limits import GRAMMAR_MAX_REPEAT
from debates.engine.llm.output_format import (
    MIN_TEXT_CHARS,
    answer_shape,
    bounded_output_tokens,
    context_text_chars,
)
from debates.engine.llm.replies import CUT_MARK, ends_sentence, marked_cuts
from debates.engine.protocols.content import cut_reasons
from debates.engine.protocols.council.schemas import Position, Premortem, SynthesisNarrative
from debates.engine.quality import TurnText

LOCAL = "http://127.0.0.1:9/v1"  # nothing listens: the probe finds no context size


@pytest.fixture(autouse=True)
def _fresh_settings() -> Iterator[None]:
    caps_module.configure({})
    yield
    caps_module.configure(None)


# ------------------------------------------------------------------ the formula


def test_the_bound_shares_the_answer_s_room_among_its_text_fields() -> None:
    fields, other = answer_shape(Position)
    assert fields == 10  # stance, 4 reasoning, 4 assumptions... at 4 list items
    bound = context_text_chars(Position, 2048)
    assert bound == (2048 - other) // fields * 3
    # Every field at the bound and the rest of the answer fit the room.
    assert bounded_output_tokens(Position, bound) <= 2048
    assert context_text_chars(Position, 100_000) == GRAMMAR_MAX_REPEAT
    # A synthesis of 70-odd text fields in a small room keeps the floor.
    assert context_text_chars(SynthesisNarrative, 1000) == MIN_TEXT_CHARS


def test_an_unknown_local_model_s_bound_grows_with_its_context_setting() -> None:
    gateway = LLMGateway(api_base=LOCAL)
    caps_module.configure({"openai/small": ModelSettings(context_limit=2048)})
    small = gateway.text_bound(Position, "openai/small", 1300)
    caps_module.configure({"openai/small": ModelSettings(context_limit=32768)})
    large = gateway.text_bound(Position, "openai/small", 1300)
    assert small is not None and large is not None
    assert small == context_text_chars(Position, 2048 - 1300) < large
    # On a local server the room is what the slowest pace writes within the turn's cap.
    writable = int(LOCAL_TURN_CAP_S - 1300 / 20)
    assert large == context_text_chars(Position, writable)
    # A setting replaces the sized bound, and a known or remote model gets none.
    caps_module.configure({"openai/small": ModelSettings(max_text_chars=120)})
    assert gateway.text_bound(Position, "openai/small", 1300) == 120
    assert LLMGateway(api_base="https://models.example.com/v1").text_bound(
        Position, "openai/remote-small", 1300) is None
    assert gateway.text_bound(Position, "openai/gpt-4o-mini", 1300) is None


# ------------------------------------------------------------------ the server's word


class _Server:
    """A local server answering GET /props and /v1/models with what ``routes`` holds."""

    def __init__(self, routes: dict[str, Any]) -> None:
        self.routes = routes
        self.asked: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                server.asked.append(self.path)
                body = server.routes.get(self.path)
                data = json.dumps(body).encode()
                self.send_response(200 if body is not None else 404)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_llama_cpp_s_props_give_the_context_once_per_process() -> None:
    server = _Server({"/props": {"default_generation_settings": {"n_ctx": 4096}}})
    try:
        assert server_context_limit(server.api_base) == 4096
        assert capabilities("openai/qwen-gguf", server.api_base).context_limit == 4096
        assert server_context_limit(server.api_base) == 4096
        assert server.asked == ["/props"]  # cached: asked once
    finally:
        server.stop()


def test_the_models_list_s_meta_is_read_when_there_are_no_props() -> None:
    server = _Server({"/v1/models": {"data": [{"id": "m", "meta": {"n_ctx_train": 32768}}]}})
    try:
        assert server_context_limit(server.api_base) == 32768
        assert server.asked == ["/props", "/v1/models"]
    finally:
        server.stop()


def test_a_setting_wins_over_the_server_and_silence_gives_the_default() -> None:
    server = _Server({"/props": {"n_ctx": 4096}})
    try:
        caps_module.configure({"openai/set": ModelSettings(context_limit=2048)})
        assert capabilities("openai/set", server.api_base).context_limit == 2048
        assert server.asked == []  # a setting needs no probe
        assert capabilities("openai/other", LOCAL).context_limit == 8192
    finally:
        server.stop()


# ------------------------------------------------------------------ cut, and said so


def test_a_text_at_its_bound_without_a_sentence_end_is_marked_cut() -> None:
    value = Premortem(failure_scenario="The old system is no longer efficient and could",
                      root_causes=["Short.", "x" * 20], early_warning_signals=[])
    marked, cut = marked_cuts(Premortem, value, 20)
    assert marked.failure_scenario == "The old system is no longer efficient and could…"
    assert marked.root_causes == ["Short.", "x" * 20 + CUT_MARK]
    assert cut == ["failure_scenario", "root_causes[1]"]
    # A sentence that ends at its bound is whole.
    whole = Premortem(failure_scenario="The migration overran by a month.",
                      root_causes=["Nobody owned the cut-over."])
    assert marked_cuts(Premortem, whole, 20) == (whole, [])
    assert ends_sentence("It failed (twice).") and ends_sentence("「終わり。」")
    assert not ends_sentence("and could")


def test_a_cut_turn_is_a_doubtful_text_cut_naming_its_fields() -> None:
    turns = [TurnText(where="premortem · Ann", phase="premortem", round=0, agent=0,
                      payload={}, cut=("failure_scenario", "root_causes[1]")),
             TurnText(where="premortem · Bo", phase="premortem", round=0, agent=1,
                      payload={})]
    (reason,) = cut_reasons(turns)
    assert (reason.rule, reason.severity, reason.where) == (
        "text.cut", "doubtful", "premortem · Ann")
    assert reason.evidence == "failure_scenario, root_causes[1]"
    assert (reason.phase, reason.agent) == ("premortem", 0)


# ------------------------------------------------------------------ through a step, over HTTP


async def test_a_compose_cut_at_its_bound_is_stored_and_read_as_text_cut() -> None:
    # The small-model stub writes every text up to the bound sent, mid-sentence, as a
    # small model under a grammar does: each turn records its cut fields, the quality
    # reads them.
    from debates.engine import get_protocol, resolve_config
    from debates.engine.hooks import EngineHooks, make_gateway
    from debates.engine.protocols.content import read_turns
    from debates.engine.protocols.council.phases import CouncilPhase
    from debates.engine.protocols.council.state import step_label
    from debates.engine.state import DebateState, Step

    from .openai_stub import StubServer

    server = StubServer("small_model").start()
    try:
        config = resolve_config(mode="quick", model="openai/small", output_mode="json_object")
        state = DebateState(question="Should we migrate billing to PostgreSQL?", config=config)
        hooks = EngineHooks()
        gw = make_gateway(state, hooks, api_base=server.api_base, api_key="test")
        await get_protocol("council").run_step(state, Step(CouncilPhase.COMPOSE), hooks, gw)
    finally:
        server.stop()
    turn = state.turn(CouncilPhase.COMPOSE)
    assert turn is not None and turn.payload is not None
    assert "personas[0].background" in turn.cut
    background = turn.payload["personas"][0]["background"]
    assert background.endswith(CUT_MARK)
    (reason,) = cut_reasons(read_turns(state, step_label))
    assert reason.rule == "text.cut" and reason.where == "compose"
    assert reason.evidence.startswith("personas[0].")
