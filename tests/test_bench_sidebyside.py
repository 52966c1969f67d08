"""The side-by-side bench's pieces, on recorded request bodies: which of Agent Council's
requests is a cross-examination of which round and which its synthesis, the counts taken
from them, the table assembled from two runs, and the skip when Agent Council is not
installed; the stub's long answers. No debate runs and nothing is timed."""

from __future__ import annotations

import json
import random
from io import StringIO

from bench.model_stub import answer_seed, varied_instance
from bench.prompts import CROSS_EXAM, SYNTHESIS, request_tokens, sizes_of
from bench.run import main as bench_main
from bench.sidebyside import SideRun, ac_prompt_kind, side_by_side_table

SCHEMA = {"type": "object", "properties": {"reflection": {"type": "string"}},
          "required": ["reflection"], "title": "CrossExamination"}


def ac_body(system: str, user: str = "Should we split the monolith?") -> dict:
    """A request as Agent Council's pydantic-ai sends it: system, user, an output tool."""
    return {"model": "stub-model",
            "messages": [{"role": "system", "content": system},
                         {"role": "user", "content": user}],
            "tools": [{"type": "function", "function": {"name": "final_result",
                                                        "parameters": SCHEMA}}]}


def ac_cross_exam(name: str, recalled_rounds: int) -> dict:
    context = "".join(f"Round {n} — your reflection: fine.\n"
                      for n in range(1, recalled_rounds + 1))
    return ac_body(f"You are {name}.\nBackground: CFO.\n\nYou are in a structured debate. "
                   "You have read every other agent's position on the question.\n\n"
                   f"Other agents' positions:\n--- Kenji ---\nStance: wait\n"
                   f"{'Previous round context:' if context else ''}\n{context}\nRespond.")


AC_DEBATE = [
    ac_body("You are Dana Reyes.\nBackground: CFO.\n\nImagine it failed."),  # premortem
    ac_cross_exam("Dana Reyes", 0), ac_cross_exam("Kenji Watanabe", 0),
    ac_cross_exam("Dana Reyes", 1), ac_cross_exam("Kenji Watanabe", 1),
    ac_cross_exam("Dana Reyes", 2),
    {"model": "stub-model", "messages": [
        {"role": "system", "content": "You are a senior decision analyst. Synthesize."},
        {"role": "user", "content": "# Debate: Should we split?\n"}]},
    ac_body("You are a verification quality-assurance agent. Check the synthesis."),
]


def test_agent_council_cross_examinations_are_told_apart_by_the_rounds_they_recall():
    kinds = [ac_prompt_kind(body) for body in AC_DEBATE]
    assert kinds == [None, (CROSS_EXAM, 1), (CROSS_EXAM, 1), (CROSS_EXAM, 2), (CROSS_EXAM, 2),
                     (CROSS_EXAM, 3), (SYNTHESIS, 0), None]


def test_agent_council_sizes_count_every_request_and_each_kind_of_prompt():
    sizes = sizes_of(AC_DEBATE, ac_prompt_kind)
    assert sizes.calls == len(AC_DEBATE)
    assert sizes.tokens == sum(request_tokens(body) for body in AC_DEBATE)
    assert sorted(sizes.cross_exam_chars) == [1, 2, 3]
    assert len(sizes.cross_exam_chars[2]) == 2
    synthesis = AC_DEBATE[6]["messages"]
    assert sizes.synthesis_chars == sum(len(m["content"]) for m in synthesis)


def test_the_stub_answers_agent_council_per_persona_and_round_so_its_debate_goes_on():
    seeds = {answer_seed(body, SCHEMA) for body in AC_DEBATE[1:6]}
    assert len(seeds) == 5


def test_the_table_sets_each_figure_of_the_two_runs_side_by_side():
    sizes = sizes_of(AC_DEBATE, ac_prompt_kind)
    timings = {"wall_s": 14.0, "overhead_s": 10.0, "to_first_call_s": 9.0,
               "after_last_reply_s": 1.0}
    ac = SideRun(sizes, timings, 0.5)
    council = SideRun(sizes, {**timings, "wall_s": 12.0}, 0.5)
    table = side_by_side_table(ac, council, "test").markdown
    assert table[0] == "| same run | AC | Council |"
    cells = [[cell.strip() for cell in line.strip("|").split("|")] for line in table[2:]]
    rows = {what: values for what, *values in cells}
    assert rows["prompt tokens per debate"][0] == f"{sizes.tokens / 1000:.1f}k (8 calls)"
    cross = " → ".join(f"{sizes.mean_cross_exam(r) / 1000:.1f}k" for r in (1, 2, 3))
    assert rows["cross-examination prompt, rounds 1 → 4 (chars)"][0] == cross
    # 3 rounds + premortem, position, synthesis, verifier = 7 steps of 0.5 s.
    assert rows["first call → last reply / critical path"][0] == "1.14× (of 3.5 s)"
    assert rows["whole process / critical path"] == ["4.00× (of 3.5 s)", "3.43× (of 3.5 s)"]
    assert rows["start → first call, last reply → exit"][0] == "9.00 s, 1.00 s"


def test_without_agent_council_the_area_is_skipped_with_how_to_install_it(monkeypatch):
    monkeypatch.delenv("COUNCIL_BENCH_AC_PYTHON", raising=False)
    out = StringIO()
    assert bench_main(["--only", "sidebyside"], stdout=out, stderr=StringIO()) == 0
    assert "sidebyside: skipped, Agent Council is not installed" in out.getvalue()
    assert "docs/performance.md" in out.getvalue()


POSITION = {"type": "object", "title": "Position", "properties": {
    "stance": {"type": "string", "maxLength": 150},
    "verdict": {"enum": ["for", "against", "conditional"], "type": "string"},
    "reasoning": {"type": "array", "items": {"type": "string", "maxLength": 150}},
    "confidence": {"type": "number", "minimum": 0.0, "maximum": 1.0},
    "key_assumptions": {"type": "array", "items": {"type": "string", "maxLength": 150}}}}


def test_long_answers_are_one_sentence_a_field_about_720_characters_a_position():
    seed = answer_seed(ac_cross_exam("Dana Reyes", 0), POSITION)
    short = varied_instance(POSITION, random.Random(seed), "short")
    long = varied_instance(POSITION, random.Random(seed), "long")
    assert len(json.dumps(short)) < 400
    assert 700 <= len(json.dumps(long)) <= 740
    texts = [long["stance"], *long["reasoning"], *long["key_assumptions"]]
    # One sentence each, within the default text bound a local model's schema carries.
    assert all(text.count(".") == 1 and text.endswith(".") and len(text) <= 150
               for text in texts)
    # The same draws start each field: a long answer extends the short one.
    assert long["stance"].startswith(short["stance"][:-1])
