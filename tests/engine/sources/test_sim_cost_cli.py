"""Points 4-6: the simulated model cites what it was shown; cached prompt tokens on the
call record and Anthropic's cache marker; the CLI's --source."""

from __future__ import annotations

import io
import json
import random
from types import SimpleNamespace

from debates.engine.cli import EXIT_BAD_INPUT, main
from debates.engine.llm.capabilities import capabilities
from debates.engine.llm.cost import cached_tokens
from debates.engine.llm.request import AttemptRequest, StructuredCall, request_kwargs
from debates.engine.llm.usage import usage_from_calls
from debates.engine.schemas import CallRecord, CallTag, Phase, VerifierReport
from debates.engine.sim.citing import cite
from debates.engine.sources.citations import citations_in, quote_found

from .helpers import run, sources

PASSAGES = [{"id": "S1.1", "text": "Kafka needs three brokers and an on-call rota for them."},
            {"id": "S1.2", "text": "SQS costs forty cents per million requests in our region."}]


def test_the_simulator_cites_offered_passages_mostly_with_exact_quotes():
    right = wrong = 0
    for seed in range(60):
        payload = cite({"reasoning": ["[D1] one point", "another point"], "verdict": "for"},
                       PASSAGES, random.Random(seed))
        assert payload["verdict"] == "for"
        for item in payload["reasoning"]:
            for c in citations_in(item):
                text = next(p["text"] for p in PASSAGES if p["id"] == c.passage)
                right += quote_found(c.quote, text)
                wrong += not quote_found(c.quote, text)
            if "[D1]" in item:
                assert item.startswith("[D1] ")  # the point's id stays first
    assert right > 3 * wrong > 0


def test_a_simulated_debate_with_sources_cites_only_what_each_agent_was_shown():
    for protocol in ("council", "adversarial", "workflow"):
        state, result = run(protocol, sources(), mode="quick")
        offered = {}
        for turn in state.turns.values():
            offered.setdefault(turn.agent, set()).update(turn.offered)
        cited = [(t.agent, c.passage) for t in state.turns.values() if t.payload
                 for c in citations_in(json.dumps(t.payload, ensure_ascii=False))]
        assert cited, protocol
        assert all(p in offered[a] for a, p in cited), protocol


def test_cached_tokens_are_read_from_either_provider_and_summed_in_the_usage():
    openai = SimpleNamespace(usage=SimpleNamespace(prompt_tokens=2000,
                                                   prompt_tokens_details={"cached_tokens": 1536}))
    anthropic = SimpleNamespace(usage=SimpleNamespace(prompt_tokens=2000,
                                                      prompt_tokens_details=None,
                                                      cache_read_input_tokens=1800))
    assert cached_tokens(openai) == 1536 and cached_tokens(anthropic) == 1800
    assert cached_tokens(SimpleNamespace()) == 0
    records = [CallRecord(phase=Phase.SYNTHESIS, attempt=1, model="m", prompt_tokens=2000,
                          cached_prompt_tokens=n, ok=True) for n in (1536, 0)]
    assert CallRecord(phase=Phase.SYNTHESIS, attempt=1, model="m", ok=True
                      ).cached_prompt_tokens == 0
    assert usage_from_calls(records).cached_prompt_tokens == 1536


def test_cached_tokens_are_priced_lower_by_litellm():
    from debates.engine import imported_litellm

    litellm = imported_litellm()

    def reply(cached):
        return litellm.ModelResponse(
            model="gpt-4o-mini", choices=[{"message": {"role": "assistant", "content": "x"}}],
            usage={"prompt_tokens": 10000, "completion_tokens": 10, "total_tokens": 10010,
                   "prompt_tokens_details": {"cached_tokens": cached}})

    full = litellm.completion_cost(completion_response=reply(0), model="gpt-4o-mini")
    cached = litellm.completion_cost(completion_response=reply(9000), model="gpt-4o-mini")
    assert cached < full * 0.6


def _kwargs(model):
    call = StructuredCall(VerifierReport, [{"role": "system", "content": "shared"},
                                           {"role": "user", "content": "own"}],
                          CallTag(phase=Phase.VERIFY))
    return request_kwargs(call, model, capabilities(model),
                          AttemptRequest(call.messages, "json_object", 10.0, 100), None)


def test_anthropic_models_mark_the_shared_prefix_for_its_cache():
    marked = _kwargs("anthropic/claude-haiku-4-5-20251001")
    assert marked["cache_control_injection_points"] == [{"location": "message",
                                                         "role": "system"}]
    assert "cache_control_injection_points" not in _kwargs("openai/gpt-4o-mini")


def test_the_cli_reads_sources_in_order_and_the_report_shows_their_evidence(tmp_path):
    first, second = tmp_path / "review.md", tmp_path / "costs.txt"
    first.write_text("# Review\n\nKafka lost no messages in the load test.\n")
    second.write_text("SQS costs forty cents per million requests.\n")
    out, err = io.StringIO(), io.StringIO()
    code = main(["Should we adopt Kafka or SQS?", "--mode", "quick", "--format", "json",
                 "--source", str(first), "--source", str(second)], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    evidence = json.loads(out.getvalue())["evidence"]
    assert evidence["sources"] == ["S1: review.md", "S2: costs.txt"]


def test_an_unreadable_source_is_bad_input_and_calls_no_model(tmp_path, monkeypatch):
    called = []
    monkeypatch.setattr("debates.engine.cli.run_here", lambda *a: called.append(a))
    for path, says in ((tmp_path / "missing.md", "No such file"),
                       (tmp_path / "deck.pptx", "is not read")):
        if path.suffix == ".pptx":
            path.write_bytes(b"PK\x03\x04")
        err = io.StringIO()
        code = main(["Should we?", "--source", str(path)], stdout=io.StringIO(), stderr=err)
        assert code == EXIT_BAD_INPUT and says in err.getvalue() and str(path) in err.getvalue()
    assert not called
