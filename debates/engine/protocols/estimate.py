"""What every protocol's plan of calls ends with (``DebateProtocol.planned_calls``;
docs/teams.md, "Cost"): its synthesis, the verifier that checks it and, when a judge
model is set, the judge that grades it (docs/engine.md, "Content checks"). Token counts
are rough averages of real runs, there to tell a dollar from a hundred dollars."""

from __future__ import annotations

from ..schemas import DebateConfig, Phase
from .base import PlannedCall

# (prompt, completion) before the synthesis they read is added.
VERIFY = (400, 200)
JUDGE = (400, 200)
# The words a content repair adds to the prompt it repeats, besides the reply it shows.
REPAIR_REQUEST = 80


def closing_calls(config: DebateConfig, *, synthesis_prompt: int,
                  synthesis_completion: int, decision_repair: bool = False
                  ) -> list[PlannedCall]:
    """The synthesis (``synthesis_prompt`` and ``synthesis_completion`` tokens, the
    protocol's own), the verifier and the judge (each reads the synthesis) in the order
    the protocols run them. ``decision_repair``: the protocol's synthesis is checked for
    its decision (``DebateProtocol.answer_check``), so its worst case includes the one
    repair, the prompt again with the reply shown: priced in the synthesis's tokens,
    not counted as a call of its own (as a validation repair is not)."""
    prompt, completion = synthesis_prompt, synthesis_completion
    if decision_repair:
        prompt += synthesis_prompt + synthesis_completion + REPAIR_REQUEST
        completion += synthesis_completion
    calls = [PlannedCall(Phase.SYNTHESIS, prompt, completion),
             PlannedCall(Phase.VERIFY, VERIFY[0] + synthesis_completion, VERIFY[1])]
    if config.judge_model:
        calls.append(PlannedCall(Phase.JUDGE, JUDGE[0] + synthesis_completion, JUDGE[1]))
    return calls
