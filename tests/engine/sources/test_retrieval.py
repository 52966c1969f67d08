"""Point 1: what each call is shown of the sources, within its budget, chosen by BM25
over an in-memory FTS5 index, and recorded on the turn."""

from __future__ import annotations

from debates.engine.configure import resolve_config
from debates.engine.schemas import TurnStatus
from debates.engine.sources.documents import SourceDocument
from debates.engine.sources.offer import BUDGET_TOKENS, budget, offer
from debates.engine.sources.passages import split_passages
from debates.engine.sources.retrieval import library, passage_tokens, query_terms

from .helpers import QUESTION, long_text, run, sources


def test_passage_ids_are_stable_for_the_same_text():
    doc = SourceDocument(id="S2", title="t", text=long_text(30))
    first, again = split_passages(doc), split_passages(doc.model_copy())
    assert [p.id for p in first] == [f"S2.{i}" for i in range(1, len(first) + 1)]
    assert first == again


def test_bm25_ranks_the_passage_sharing_the_rarest_words_first():
    docs = [SourceDocument(id="S1", title="a", text="The cat sat.\n\n" + "x " * 700 +
                           "\n\nKafka brokers need an on-call rota and replication.")]
    books = library(docs)
    assert len(books.passages) >= 2
    best = books.ranked("who carries the on-call rota for Kafka brokers?")
    assert "on-call rota" in best[0].text


def test_query_terms_drop_stopwords_and_short_words():
    assert query_terms("Should we adopt Kafka or SQS for the order events?") == [
        "adopt", "kafka", "sqs", "order", "events"]


def test_small_sources_are_shown_whole_in_the_shared_part():
    config = resolve_config()
    docs = sources("Short review: Kafka lost no messages.")
    shown = offer(docs, config, config.model, question=QUESTION, focus="cost of brokers")
    assert shown.whole and not shown.focused
    assert shown.ids == [p.id for p in library(docs).passages]


def test_long_sources_are_cut_to_the_budget_and_the_focus_adds_other_passages():
    config = resolve_config()
    docs = sources()
    allowed = budget(config, config.model)
    assert allowed == min(BUDGET_TOKENS, 32768 // 2)
    shown = offer(docs, config, config.model, question=QUESTION,
                  focus="visibility timeout and dead-letter queue")
    assert not shown.whole
    spent = sum(passage_tokens(p) for p in (*shown.shared, *shown.focused))
    assert spent <= allowed
    assert not {p.id for p in shown.shared} & {p.id for p in shown.focused}
    assert all("visibility timeout" in p.text or "dead-letter" in p.text
               for p in shown.focused)
    # The shared part depends on the question alone: the same for any focus.
    other = offer(docs, config, config.model, question=QUESTION, focus="ordering")
    assert other.shared == shown.shared


def test_a_shortened_prompt_halves_the_budget():
    config = resolve_config()
    assert budget(config, config.model, 1) == budget(config, config.model) // 2
    assert resolve_config(context_limit_tokens=4000).model_dump()  # a small context
    assert budget(resolve_config(context_limit_tokens=4000), "sim/default") == 2000


def test_every_turn_records_the_passages_it_was_offered():
    state, result = run(docs=sources(), mode="quick")
    answered = [t for t in state.turns.values() if t.status is TurnStatus.OK]
    agents = [t for t in answered if t.agent >= 0]
    assert agents and all(t.offered for t in agents)
    known = {p.id for p in library(state.sources).passages}
    assert all(set(t.offered) <= known for t in answered)
    # The verifier and the judge read the report, not the sources.
    assert all(not t.offered for t in answered if t.phase.value in ("verify", "judge"))


def test_a_debate_without_sources_offers_nothing_and_its_result_has_no_evidence():
    state, result = run(mode="quick")
    assert all(not t.offered for t in state.turns.values())
    assert result.evidence is None
    assert "evidence" not in result.model_dump(mode="json")


def test_a_prompt_shortened_to_fit_shows_fewer_passages():
    from debates.engine.protocols import get_protocol
    from debates.engine.protocols.sourced import offered_ids
    from debates.engine.state import Step

    state, _ = run(docs=sources(), mode="quick")
    protocol = get_protocol("council")
    step = Step(next(t.phase for t in state.turns.values() if t.phase.value == "cross_exam"), 1)
    ask = protocol.asks(state, step)[0]
    full = offered_ids(protocol.request(state, step, ask).hints)
    shorter = offered_ids(protocol.shorter_request(state, step, ask, 2).hints)
    assert 0 < len(shorter) < len(full)


def test_a_chinese_question_finds_its_passage_by_character_trigrams():
    text = ("团队每周开会讨论进度。\n\n" + "无关内容。" * 300
            + "\n\n消息队列的运维成本每月上升百分之二十。")
    docs = [SourceDocument(id="S1", title="评审", text=text)]
    books = library(docs)
    best = books.ranked("我们应该采用哪种消息队列？运维成本如何？")
    assert best and "运维成本" in best[0].text
