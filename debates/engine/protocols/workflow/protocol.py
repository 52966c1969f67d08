"""The workflow protocol (docs/protocols.md 3): researcher, critic, synthesizer.

Steps, derived from the stored turns: ``analysis`` (phase 1, the three roles in
parallel), ``discussion 1`` (phase 2, in parallel), ``convergence 1`` (one judging
call over the three key recommendations), in deep mode ``discussion 2`` (phase 2b)
and ``convergence 2`` when the first check did not converge, then ``synthesis``
(phase 3, its own model phase) and ``verify``.

Phase 2's contract (>= 2 citations naming another role, >= 1 acknowledged missed
point, one key recommendation) is checked here in code and recorded with the result;
the schema accepts a reply that breaks it, so a breach is reported, never hidden by
a silent retry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from ... import prompts
from ...i18n import translator
from ...llm.capabilities import uses_simulator
from ...schemas import (
    DebateConfig,
    Mode,
    Phase,
    TurnStatus,
    Usage,
    VerifierReport,
)
from ...state import DebateState, Step
from ..base import (
    PANEL,
    Ask,
    DebateProtocol,
    Fact,
    PageAnswer,
    PageStep,
    Participant,
    PlannedCall,
    Request,
    ResultPart,
    ask_model,
    role_persona,
)
from ..evidence import EvidenceRules, evidence_report
from ..judge import judge_ask, judge_note, judge_request, judge_step
from ..report_parts import mark_unfound
from ..sourced import sourced_messages
from . import estimate, pages
from .content import with_quality
from .contracts import QUORUM, ROLES, check_discussion
from .labels import labels
from .phases import WorkflowPhase
from .report import workflow_markdown
from .schemas import (
    CONVERGED_BASES,
    Basis,
    ContractCheck,
    ConvergenceCheck,
    ConvergenceLabel,
    ConvergenceStatus,
    Discussion,
    DiscussionEntry,
    Rebuttal,
    RolePerspective,
    WorkflowResult,
    WorkflowSynthesis,
)

PROMPTS = prompts.beside(__file__)  # its own templates, in ./prompts


class WorkflowProtocol(DebateProtocol):
    name = "workflow"
    label = "Workflow"
    description = "researcher, critic, synthesizer: analysis → discussion → synthesis"
    result_model = WorkflowResult
    phases = (WorkflowPhase.ANALYSIS, WorkflowPhase.DISCUSSION, WorkflowPhase.CONVERGENCE,
              Phase.SYNTHESIS, Phase.VERIFY, Phase.JUDGE)
    partials = {"live": "debates/protocols/_workflow_live.html",
                "result": "debates/protocols/_workflow_result.html",
                "summary": "debates/protocols/_workflow_summary.html"}
    participants_title = "Roles"
    fixed_panel = "a researcher, a critic and a synthesizer"

    def check_options(self, options: dict[str, Any]) -> None:
        if options:
            raise ValueError("the workflow protocol takes no protocol_options "
                             "(deep mode is --mode deep)")

    def prepare(self, state: DebateState) -> None:
        if state.given_personas:
            return
        state.given_personas = [role_persona(r.label, r.label, r.focus, r.must_not)
                                for r in ROLES]
        state.changed()

    def deep(self, state: DebateState) -> bool:
        return state.config.mode is Mode.DEEP

    # ------------------------------------------------------------------ derived state

    def _failed_before(self, state: DebateState, agent: int, step: Step) -> bool:
        order = _order(step)
        return any(t.agent == agent and t.status is TurnStatus.FAILED and _order(
            Step(t.phase, t.round)) < order for t in state.turns.values())

    def active(self, state: DebateState, step: Step) -> list[int]:
        return [i for i in range(len(ROLES)) if not self._failed_before(state, i, step)]

    def ok(self, state: DebateState, step: Step) -> list[int]:
        return [i for i in self.active(state, step)
                if state.ok_payload(step.phase, step.round, i) is not None]

    def complete(self, state: DebateState, step: Step) -> bool:
        return all(state.turn(step.phase, step.round, i) is not None
                   for i in self.active(state, step))

    def check(self, state: DebateState, round_number: int) -> ConvergenceCheck | None:
        payload = state.ok_payload(WorkflowPhase.CONVERGENCE, round_number, PANEL)
        return ConvergenceCheck.model_validate(payload) if payload else None

    def converged(self, state: DebateState, round_number: int) -> bool:
        """Unclear, or a failed check, counts as not converged (docs/protocols.md 3)."""
        check = self.check(state, round_number)
        return check is not None and check.basis in CONVERGED_BASES

    def needs_phase_2b(self, state: DebateState) -> bool:
        return (self.deep(state) and state.turn(WorkflowPhase.CONVERGENCE, 1) is not None
                and not self.converged(state, 1))

    def discussion_rounds(self, state: DebateState) -> int:
        discussion = WorkflowPhase.DISCUSSION.value
        return 2 if any(k[0] == discussion and k[1] == 2 for k in state.turns) else 1

    # ------------------------------------------------------------------ steps

    def failure(self, state: DebateState) -> str | None:
        synthesis = state.turn(Phase.SYNTHESIS)
        if synthesis is not None and synthesis.status is TurnStatus.FAILED:
            return f"the synthesis failed: {synthesis.error}"
        for step in (Step(WorkflowPhase.ANALYSIS), Step(WorkflowPhase.DISCUSSION, 1),
                     Step(WorkflowPhase.DISCUSSION, 2)):
            if not any(k[0] == step.phase.value and k[1] == step.round for k in state.turns):
                continue
            if self.complete(state, step) and len(self.ok(state, step)) < QUORUM:
                failed = [f"{ROLES[t.agent].label} ({t.error})" for t in state.turns.values()
                          if t.status is TurnStatus.FAILED and t.agent >= 0]
                return (f"below quorum in {self.step_label(step)}: "
                        f"{len(self.ok(state, step))} of {len(ROLES)} roles remain (at least "
                        f"{QUORUM} needed); failed: {'; '.join(failed)}")
        return None

    def next_step(self, state: DebateState) -> Step | None:
        if self.failure(state) is not None:
            return None
        for step in (Step(WorkflowPhase.ANALYSIS), Step(WorkflowPhase.DISCUSSION, 1)):
            if not self.complete(state, step):
                return step
        if state.turn(WorkflowPhase.CONVERGENCE, 1) is None:
            return Step(WorkflowPhase.CONVERGENCE, 1)
        if self.needs_phase_2b(state):
            if not self.complete(state, Step(WorkflowPhase.DISCUSSION, 2)):
                return Step(WorkflowPhase.DISCUSSION, 2)
            if state.turn(WorkflowPhase.CONVERGENCE, 2) is None:
                return Step(WorkflowPhase.CONVERGENCE, 2)
        if state.turn(Phase.SYNTHESIS) is None:
            return Step(Phase.SYNTHESIS)
        if state.turn(Phase.VERIFY) is None:
            return Step(Phase.VERIFY)
        return judge_step(state)

    def step_label(self, step: Step) -> str:
        if step.phase is WorkflowPhase.ANALYSIS:
            return "phase 1"
        if step.phase is WorkflowPhase.DISCUSSION:
            return "phase 2" if step.round == 1 else "phase 2b"
        return super().step_label(step)

    def asks(self, state: DebateState, step: Step) -> list[Ask]:
        if step.phase is WorkflowPhase.ANALYSIS:
            return [Ask(i, ROLES[i].label, ROLES[i].schema, "phase1", "analysis")
                    for i in self.active(state, step)]
        if step.phase is WorkflowPhase.DISCUSSION:
            schema, prompt = ((Discussion, "phase2") if step.round == 1
                              else (Rebuttal, "phase2b"))
            return [Ask(i, ROLES[i].label, schema, prompt, "discussion")
                    for i in self.active(state, step)]
        if step.phase is WorkflowPhase.CONVERGENCE:
            return [Ask(PANEL, "convergence check", ConvergenceCheck, "convergence",
                        "convergence")]
        if step.phase is Phase.JUDGE:
            return [judge_ask()]
        if step.phase is Phase.SYNTHESIS:
            return [Ask(PANEL, "Synthesizer", WorkflowSynthesis, "synthesis", "synthesis",
                        fallback=True)]
        return [Ask(PANEL, "verifier", VerifierReport, "verifier", "verify", fallback=True)]

    def _analysis_text(self, state: DebateState, agent: int) -> str:
        payload = state.ok_payload(WorkflowPhase.ANALYSIS, 0, agent)
        return _flatten(payload) if payload else "(failed)"

    def _recommendations(self, state: DebateState) -> tuple[str, list[str]]:
        latest = 2 if any(k[0] == WorkflowPhase.DISCUSSION.value and k[1] == 2
                          for k in state.turns) else 1
        lines, texts = [], []
        for i in self.ok(state, Step(WorkflowPhase.DISCUSSION, 1)):
            payload = (state.ok_payload(WorkflowPhase.DISCUSSION, latest, i)
                       or state.ok_payload(WorkflowPhase.DISCUSSION, 1, i))
            assert payload is not None
            text = str(payload.get("key_recommendation") or "(none)")
            texts.append(text)
            lines.append(f"- {ROLES[i].label}: {text}")
        return "\n".join(lines), texts

    def request(self, state: DebateState, step: Step, ask: Ask) -> Request:
        if step.phase is Phase.JUDGE:
            return judge_request(state, _flatten(state.ok_payload(Phase.SYNTHESIS, 0, PANEL)))
        lang = state.language
        hints: dict[str, Any] = {"question": state.question, "language": lang,
                                 "round": step.round}
        own = ""
        if ask.agent >= 0 or step.phase is Phase.SYNTHESIS:
            role = ROLES[ask.agent] if ask.agent >= 0 else ROLES[2]
            own = PROMPTS.render("role", role=role.label, focus=role.focus,
                                 must_not=role.must_not)
            hints["role"] = role.key
        focus = ""
        if step.phase is WorkflowPhase.ANALYSIS:
            user = PROMPTS.render(ask.prompt)
        elif step.phase is WorkflowPhase.DISCUSSION and step.round == 1:
            others = [i for i in self.ok(state, Step(WorkflowPhase.ANALYSIS)) if i != ask.agent]
            user = PROMPTS.render(
                ask.prompt, own=self._analysis_text(state, ask.agent),
                others="\n\n".join(f"### {ROLES[i].label}\n{self._analysis_text(state, i)}"
                                   for i in others),
                roles=", ".join(ROLES[i].key for i in others))
            hints["other_roles"] = [ROLES[i].key for i in others]
            hints["claims"] = {ROLES[i].key: _claims(state.ok_payload(WorkflowPhase.ANALYSIS, 0, i))
                               for i in others}
        elif step.phase is WorkflowPhase.DISCUSSION:
            check = self.check(state, 1)
            recommendations, _ = self._recommendations(state)
            disagreement = (check.disagreement or check.remaining_tension if check
                            else "the convergence check could not be made")
            user = PROMPTS.render(ask.prompt, recommendations=recommendations,
                                  disagreement=disagreement or "(not stated)")
            focus = disagreement or ""
        elif step.phase is WorkflowPhase.CONVERGENCE:
            recommendations, texts = self._recommendations(state)
            user = PROMPTS.render(ask.prompt, recommendations=recommendations)
            hints["recommendations"] = texts
        elif step.phase is Phase.SYNTHESIS:
            user = PROMPTS.render(
                ask.prompt, analyses="\n\n".join(
                    f"### {ROLES[i].label}\n{self._analysis_text(state, i)}"
                    for i in self.ok(state, Step(WorkflowPhase.ANALYSIS))),
                discussion=self._discussion_text(state),
                convergence=self._convergence_text(state))
            focus = self._convergence_text(state)
        else:
            payload = state.ok_payload(Phase.SYNTHESIS, 0, PANEL)
            assert payload is not None
            text = _flatten(payload)
            hints["text"] = text
            return Request(prompts.messages(
                system=prompts.system_prompt(lang, own),
                user=PROMPTS.render("verifier", text=text), schema=ask.schema), hints)
        return Request(sourced_messages(state, ask_model(state, ask), own=own, user=user,
                                        schema=ask.schema, hints=hints, focus=focus), hints)

    def _discussion_text(self, state: DebateState) -> str:
        parts = []
        for r in (1, 2):
            for i in range(len(ROLES)):
                payload = state.ok_payload(WorkflowPhase.DISCUSSION, r, i)
                if payload:
                    label = self.step_label(Step(WorkflowPhase.DISCUSSION, r))
                    parts.append(f"### {ROLES[i].label} ({label})\n{_flatten(payload)}")
        return "\n\n".join(parts) or "(none)"

    def _convergence_text(self, state: DebateState) -> str:
        status = self.status(state)
        return (f"{status.status} after {status.rounds} discussion round(s); key agreement: "
                f"{status.key_agreement}; remaining tension: {status.remaining_tension or '-'}")

    def status(self, state: DebateState) -> ConvergenceStatus:
        rounds = self.discussion_rounds(state)
        checks = [c for c in (self.check(state, 1), self.check(state, 2)) if c is not None]
        last = self.check(state, rounds)
        label: ConvergenceLabel
        unmet = self.no_contract_met(state)
        if unmet:
            # An agreement over a discussion no role held to its contract is none.
            label = "divergent"
        elif last is not None and last.basis is Basis.SAME_DIRECTION:
            label = "converged"
        elif last is not None and last.basis in CONVERGED_BASES:
            label = "partially_converged"
        else:
            label = "divergent"
        return ConvergenceStatus(
            rounds=rounds, status=label,
            key_agreement=last.key_agreement if last else "",
            remaining_tension=(labels(state.language)("wf.no_contract_met") if unmet
                               else last.remaining_tension if last else
                               labels(state.language)("wf.check_failed")),
            checks=checks)

    def step_data(self, state: DebateState, step: Step) -> dict[str, Any]:
        if step.phase is WorkflowPhase.DISCUSSION and step.round == 1:
            checks = self.contract_checks(state)
            failed = [c for c in checks if not c.passed]
            line = f"contract {len(checks) - len(failed)}/{len(checks)} met"
            if failed:
                line += " (" + "; ".join(f"{c.role}: {', '.join(c.problems)}" for c in failed) + ")"
            return {"status_line": line}
        if step.phase is WorkflowPhase.CONVERGENCE:
            check = self.check(state, step.round)
            basis = check.basis.value if check else "check failed"
            verdict = "converged" if self.converged(state, step.round) else "not converged"
            return {"status_line": f"{basis} → {verdict}"}
        return {}

    def live_view(self, state: DebateState) -> dict[str, Any]:
        """Perspectives, phase 2 as it arrives with its contract check, the convergence
        status once checked, and the synthesis once written."""
        perspectives = []
        name = _field_names(state.language)
        for i, role in enumerate(ROLES):
            turn = state.turn(WorkflowPhase.ANALYSIS, 0, i)
            perspectives.append({
                "role": role.key, "label": role.label, "focus": role.focus,
                "summary": (turn.payload or {}).get("summary", "") if turn else "",
                "body": _flatten(turn.payload, name=name) if turn and turn.payload else "",
                "failed": turn.error if turn and turn.status is TurnStatus.FAILED else "",
                "pending": turn is None})
        discussion = []
        for r in (1, 2):
            for i, role in enumerate(ROLES):
                turn = state.turn(WorkflowPhase.DISCUSSION, r, i)
                if turn is None:
                    continue
                entry: dict[str, Any] = {
                    "phase": self.step_label(Step(WorkflowPhase.DISCUSSION, r)),
                    "label": role.label,
                    "role": role.key,
                    "failed": turn.error if turn.status is TurnStatus.FAILED else "",
                    "body": _flatten(turn.payload, name=name) if turn.payload else "",
                    "recommendation": (turn.payload or {}).get("key_recommendation", ""),
                    "contract": None}
                if r == 1 and turn.payload:
                    entry["contract"] = check_discussion(
                        role.key, Discussion.model_validate(turn.payload),
                        language=state.language).model_dump()
                discussion.append(entry)
        checked = state.turn(WorkflowPhase.CONVERGENCE, 1) is not None
        synthesis = state.ok_payload(Phase.SYNTHESIS, 0, PANEL)
        return {
            "deep": self.deep(state), "perspectives": perspectives, "discussion": discussion,
            "convergence": self.status(state).model_dump() if checked else None,
            "synthesis": (WorkflowSynthesis.model_validate(synthesis).model_dump()
                          if synthesis else None),
        }

    def page_steps(self, state: DebateState, running: str = "") -> list[PageStep]:
        """Phase 1, phase 2, the convergence check, phase 2b (deep mode, unless the first
        check converged), then the synthesis."""
        steps = [
            PageStep("phase-1", "phase 1", self.complete(state, Step(WorkflowPhase.ANALYSIS))),
            PageStep("phase-2", "phase 2", self.complete(state, Step(WorkflowPhase.DISCUSSION, 1))),
            PageStep("convergence", "convergence check",
                     state.turn(WorkflowPhase.CONVERGENCE, 1) is not None),
        ]
        if self.deep(state) and (state.turn(WorkflowPhase.CONVERGENCE, 1) is None
                                 or self.needs_phase_2b(state)):
            steps.append(PageStep("phase-2b", "phase 2b",
                                  state.turn(WorkflowPhase.CONVERGENCE, 2) is not None))
        steps.append(PageStep("synthesis", "synthesis", state.turn(Phase.VERIFY) is not None))
        return steps

    def describe(self, state: DebateState, card: Participant) -> None:
        """Phase 1 done or not, the phase 2 contract (citations, acknowledged points)
        and the role's latest key recommendation (phase 2b's when it ran)."""
        if card.index >= len(ROLES):
            return
        role = ROLES[card.index]
        t = labels(state.language)  # the card's fixed words in the debate's language
        card.role = t(f"page.focus.{role.key}")  # the name stays as the log and transcript say it
        card.facts.append(Fact(t("fact.must_not"), t(f"page.must_not.{role.key}")))
        analysis = state.ok_payload(WorkflowPhase.ANALYSIS, 0, card.index)
        if analysis:
            card.latest, card.latest_label = str(analysis.get("summary", "")), t("fact.phase1")
        discussion = state.ok_payload(WorkflowPhase.DISCUSSION, 1, card.index)
        if discussion:
            check = check_discussion(role.key, Discussion.model_validate(discussion),
                                     language=state.language)
            card.facts.append(Fact(t("fact.contract"),
                                   t("wf.contract_ok") if check.passed else t("page.not_met"),
                                   "ok" if check.passed else "error"))
            card.facts.append(Fact(t("fact.citations"), str(check.citations)))
            card.facts.append(Fact(t("fact.acknowledged"), str(check.acknowledged)))
        for r in (2, 1):
            payload = state.ok_payload(WorkflowPhase.DISCUSSION, r, card.index)
            if payload and payload.get("key_recommendation"):
                card.latest = str(payload["key_recommendation"])
                card.latest_label = (t("fact.key_recommendation") if r == 1 else
                                     t("fact.key_recommendation_2b", stance=payload["stance"]))
                break

    def summary_line(self, state: DebateState) -> str:
        t = labels(state.language)
        mode = t("page.wf_mode.deep") if self.deep(state) else t("page.wf_mode.standard")
        return t("page.wf_summary", mode=mode, model=state.config.model,
                 synthesis=state.config.model_for("synthesis"))

    def no_contract_met(self, state: DebateState) -> bool:
        checks = self.contract_checks(state)
        return bool(checks) and not any(c.passed for c in checks)

    def contract_checks(self, state: DebateState) -> list[ContractCheck]:
        checks = []
        for i in self.ok(state, Step(WorkflowPhase.DISCUSSION, 1)):
            payload = state.ok_payload(WorkflowPhase.DISCUSSION, 1, i)
            assert payload is not None
            checks.append(check_discussion(ROLES[i].key, Discussion.model_validate(payload),
                                          language=state.language))
        return checks

    # ------------------------------------------------------------------ result

    def build_result(self, state: DebateState, usage: Usage) -> WorkflowResult:
        payload = state.ok_payload(Phase.SYNTHESIS, 0, PANEL)
        assert payload is not None, "no synthesis"
        notes: list[str] = []
        perspectives = []
        for i, role in enumerate(ROLES):
            turn = state.turn(WorkflowPhase.ANALYSIS, 0, i)
            failed = turn.error if turn is not None and turn.status is TurnStatus.FAILED else None
            if failed:
                notes.append(f"{role.label} failed in phase 1: {failed}")
            perspectives.append(RolePerspective(
                role=role.key, label=role.label, focus=role.focus, must_not=role.must_not,
                analysis=state.ok_payload(WorkflowPhase.ANALYSIS, 0, i), failed=failed))
        checks = {c.role: c for c in self.contract_checks(state)}
        entries = []
        for r in (1, 2):
            for i, role in enumerate(ROLES):
                turn = state.turn(WorkflowPhase.DISCUSSION, r, i)
                if turn is None:
                    continue
                entry = DiscussionEntry(round=r, role=role.key, label=role.label)
                if turn.status is TurnStatus.FAILED:
                    entry.failed = turn.error
                    label = self.step_label(Step(WorkflowPhase.DISCUSSION, r))
                    notes.append(f"{role.label} failed in {label}: {turn.error}")
                elif r == 1:
                    entry.discussion = Discussion.model_validate(turn.payload)
                    entry.contract = checks.get(role.key)
                else:
                    entry.rebuttal = Rebuttal.model_validate(turn.payload)
                entries.append(entry)
        for r in (1, 2):
            turn = state.turn(WorkflowPhase.CONVERGENCE, r)
            if turn is not None and turn.status is TurnStatus.FAILED:
                notes.append(f"the convergence check {r} failed (treated as not converged): "
                             f"{turn.error}")
        verify = state.turn(Phase.VERIFY)
        verifier_ok = verify is not None and verify.status is TurnStatus.OK
        if not verifier_ok:
            notes.append(f"the verifier failed: {verify.error if verify else 'not run'}")
        notes += judge_note(state)
        claims = (VerifierReport.model_validate(verify.payload).claims
                  if verify is not None and verifier_ok and verify.payload else [])
        synthesis_turn = state.turn(Phase.SYNTHESIS)
        contract_checks = list(checks.values())
        if contract_checks and not any(c.passed for c in contract_checks):
            notes.append(labels(state.language)("wf.no_contract_met"))
        return with_quality(state, WorkflowResult(
            question=state.question, language=state.language, protocol=self.name,
            config=state.config, prompt_version=prompts.PROMPT_VERSION,
            simulated=uses_simulator(state.config), deep=self.deep(state),
            perspectives=perspectives, discussion=entries, contract_checks=contract_checks,
            contract_failures=sum(1 for c in contract_checks if not c.passed),
            convergence=self.status(state),
            synthesis=WorkflowSynthesis.model_validate(payload),
            options=state.options,
            unverified_claims=claims, verifier_ok=verifier_ok, degraded=bool(notes),
            degraded_notes=notes,
            synthesis_model=(synthesis_turn.model if synthesis_turn and synthesis_turn.model
                             else state.config.model_for("synthesis")),
            usage=usage,
            # Sides are the three roles; a passage cited in a challenge is contested.
            evidence=evidence_report(state, EvidenceRules(
                step_label=self.step_label,
                side=lambda agent: str(agent) if agent >= 0 else None,
                disputed=frozenset({"tensions", "challenged_assumption"}),
                claims=_synthesis_claims(WorkflowSynthesis.model_validate(payload)))),
        ), self.step_label)

    def render_markdown(self, result: BaseModel) -> str:
        assert isinstance(result, WorkflowResult)
        # Citations that do not check out marked where they stand (docs/engine.md,
        # "Sources").
        return mark_unfound(workflow_markdown(result), result)

    def render_transcript(self, state: DebateState) -> str:
        t = labels(state.language)
        out = ["", f"# {t('wf.discussion')} (transcript)", ""]
        for step in (Step(WorkflowPhase.ANALYSIS), Step(WorkflowPhase.DISCUSSION, 1),
                     Step(WorkflowPhase.DISCUSSION, 2)):
            for i, role in enumerate(ROLES):
                turn = state.turn(step.phase, step.round, i)
                if turn is None:
                    continue
                body = (_flatten(turn.payload) if turn.payload
                        else f"*failed: {turn.error}*")
                out += [f"## {self.step_label(step)} · {role.label}", "", body, ""]
        return "\n".join(out) + "\n"

    # ------------------------------------------------------------------ estimate

    def planned_calls(self, config: DebateConfig, *, agents_given: int,
                      question_tokens: int) -> list[PlannedCall]:
        return estimate.planned_calls(config, agents_given=agents_given,
                                      question_tokens=question_tokens)

    # ------------------------------------------------------------------ page methods
    # (pages.py: what the site's pages and comments read of the protocol)

    def result_parts(self, result: BaseModel) -> list[ResultPart]:
        return pages.result_parts(result)

    def page_answer(self, result: BaseModel, words: Callable[..., str]) -> PageAnswer:
        return pages.page_answer(result, words)



_STEP_ORDER = {WorkflowPhase.ANALYSIS: 0, WorkflowPhase.DISCUSSION: 1, WorkflowPhase.CONVERGENCE: 1,
               Phase.SYNTHESIS: 3, Phase.VERIFY: 4, Phase.JUDGE: 5}


def _order(step: Step) -> tuple[int, int]:
    return (_STEP_ORDER.get(step.phase, 9), step.round)


def _flatten(payload: dict[str, Any] | None, indent: str = "",
             name: Callable[[str], str] = str) -> str:
    """A typed payload as readable lines (prompts and the transcript); ``name`` says a
    field's name (the pages': in the debate's language)."""
    lines = []
    for key, value in (payload or {}).items():
        if isinstance(value, list):
            lines.append(f"{indent}- {name(key)}:")
            for item in value:
                text = "; ".join(f"{name(k)}: {v}" for k, v in item.items()) if isinstance(
                    item, dict) else str(item)
                lines.append(f"{indent}  - {text}")
        else:
            lines.append(f"{indent}- {name(key)}: {value}")
    return "\n".join(lines)


def _field_names(language: str) -> Callable[[str], str]:
    """Field names for the pages: the payload's own in English (as always shown), the
    catalogue's in a language that has one."""
    t = translator(language)
    if not t.has_translation:
        return str
    return lambda key: t(f"field.{key}") if f"field.{key}" in t else key


def _claims(payload: dict[str, Any] | None) -> list[str]:
    """Short claims of a phase 1 analysis the simulator can cite."""
    if not payload:
        return []
    claims = [str(payload.get("summary") or "")]
    for key in ("findings", "risks", "patterns", "evidence_gaps", "options"):
        for item in payload.get(key) or []:
            claims.append(str(item.get("claim") or item.get("risk") or "")
                          if isinstance(item, dict) else str(item))
    return [c for c in claims if c][:6]


def _synthesis_claims(synthesis: WorkflowSynthesis) -> list[str]:
    """The synthesis's claims a reader may ask the evidence of."""
    return [synthesis.summary, *synthesis.consensus, *synthesis.tensions]
