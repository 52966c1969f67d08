"""The adversarial protocol (docs/protocols.md 2): a proposer and a critic, context-isolated.

Steps, all derived from the stored turns: ``propose n`` (agent 0), ``critique n``
(agent 1) for n = 1, 2, ... until the orchestrator's rule stops, then ``synthesis``
and ``verify``. The rule reads the issue ledger (``issues.py``), rebuilt from the
stored critiques, never the critic's own counts.

Isolation: the proposer sees the input, its previous version and the last critique
(presented as "review feedback"); the critic sees the input, the current version and
its own earlier issues. Neither prompt mentions the other agent.
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
    Phase,
    StopReason,
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
from ..reading import PanelReading
from ..report_parts import mark_unfound
from ..sourced import sourced_messages
from . import estimate, pages
from .content import with_quality
from .domains import DetectedDomain, detect_domain, localized, team_domains
from .issues import IssueLedger, RoundTally
from .labels import labels
from .phases import AdversarialPhase
from .report import adversarial_markdown, adversarial_rounds
from .schemas import (
    AdversarialResult,
    AdversarialRound,
    AdversarialSynthesis,
    AskedCritique,
    Critique,
    Proposal,
)
from .stopping import DEFAULT_MAX_ROUNDS, converged, status_line

PROMPTS = prompts.beside(__file__)  # its own templates, in ./prompts

PROPOSER, CRITIC = 0, 1


class AdversarialProtocol(DebateProtocol):
    name = "adversarial"
    label = "Adversarial"
    description = "proposer vs critic, red/yellow/green issues by id → synthesis"
    result_model = AdversarialResult
    phases = (AdversarialPhase.PROPOSE, AdversarialPhase.CRITIQUE, Phase.SYNTHESIS,
              Phase.VERIFY, Phase.JUDGE)
    partials = {"chart": "debates/protocols/_adversarial_tally.html",
                "live": "debates/protocols/_adversarial_live.html",
                "result": "debates/protocols/_adversarial_result.html",
                "summary": "debates/protocols/_adversarial_summary.html"}
    participants_title = "Proposer and critic"
    default_max_rounds = DEFAULT_MAX_ROUNDS
    fixed_panel = "a proposer and a critic"

    def page_filters(self) -> dict[str, Callable[..., Any]]:
        return {"domain": shown_domain}

    def check_options(self, options: dict[str, Any]) -> None:
        unknown = set(options) - {"domains", "domain"}
        if unknown:
            raise ValueError(f"unknown adversarial option(s): {', '.join(sorted(unknown))}")
        team_domains(options)
        if options.get("domain"):
            detect_domain("", options)  # an unknown named domain fails here, before running

    # ------------------------------------------------------------------ derived state

    def domain(self, state: DebateState) -> DetectedDomain:
        return detect_domain(state.question, state.config.protocol_options)

    def prepare(self, state: DebateState) -> None:
        if state.given_personas:
            return
        # The personas are what pages show of the roles: in the debate's language.
        d = localized(self.domain(state), state.language).domain
        t = labels(state.language)
        focus = ", ".join(d.focus_areas)
        state.given_personas = [
            role_persona(t("adv.proposer_name", role=d.proposer_role), d.proposer_role, focus),
            role_persona(t("adv.critic_name", role=d.critic_role), d.critic_role, focus),
        ]
        state.changed()

    def proposal(self, state: DebateState, round_number: int) -> Proposal | None:
        payload = state.ok_payload(AdversarialPhase.PROPOSE, round_number, PROPOSER)
        return Proposal.model_validate(payload) if payload else None

    def critique(self, state: DebateState, round_number: int) -> Critique | None:
        payload = state.ok_payload(AdversarialPhase.CRITIQUE, round_number, CRITIC)
        return Critique.model_validate(payload) if payload else None

    def rounds_done(self, state: DebateState) -> int:
        r = 0
        while self.critique(state, r + 1) is not None:
            r += 1
        return r

    def ledger(self, state: DebateState, up_to: int | None = None) -> IssueLedger:
        last = self.rounds_done(state) if up_to is None else up_to
        rounds = []
        for r in range(1, last + 1):
            critique = self.critique(state, r)
            assert critique is not None
            rounds.append((r, critique.issues, critique.resolutions, critique.claimed_counts))
        return IssueLedger.replay(rounds, state.config.novelty_threshold)

    def decision(self, state: DebateState, tally: RoundTally) -> tuple[StopReason | None, str]:
        cap = state.config.round_cap
        c, t = tally.counts, labels(state.language)
        if converged(c):
            return StopReason.CONVERGED, t("adv.explain.converged", round=tally.round,
                                           red=c.red, yellow=c.yellow)
        if tally.round >= cap:
            return StopReason.MAX_ROUNDS, t("adv.explain.max_rounds", round=tally.round,
                                            cap=cap, red=c.red, yellow=c.yellow)
        return None, ""

    def stop(self, state: DebateState) -> tuple[StopReason, str] | None:
        ledger = self.ledger(state)
        for tally in ledger.tallies:
            reason, explanation = self.decision(state, tally)
            if reason is not None:
                return reason, explanation
        if state.stop_requested and ledger.tallies:
            return StopReason.STOPPED_BY_USER, translator(state.language)(
                "explain.stopped_by_user", n=len(ledger.tallies))
        return None

    # ------------------------------------------------------------------ steps

    def failure(self, state: DebateState) -> str | None:
        for turn in sorted(state.turns.values(), key=lambda t: (t.round, t.agent)):
            if turn.status is not TurnStatus.FAILED or turn.phase in (Phase.VERIFY,
                                                                       Phase.JUDGE):
                continue
            if turn.phase is Phase.SYNTHESIS:
                return f"the synthesis failed: {turn.error}"
            role = "proposer" if turn.phase is AdversarialPhase.PROPOSE else "critic"
            return (f"the {role} failed in round {turn.round}: {turn.error} (the adversarial "
                    "protocol needs both roles)")
        return None

    def next_step(self, state: DebateState) -> Step | None:
        if self.failure(state) is not None:
            return None
        if self.stop(state) is None:
            n = self.rounds_done(state) + 1
            if state.turn(AdversarialPhase.PROPOSE, n, PROPOSER) is None:
                return Step(AdversarialPhase.PROPOSE, n)
            return Step(AdversarialPhase.CRITIQUE, n)
        if state.turn(Phase.SYNTHESIS) is None:
            return Step(Phase.SYNTHESIS)
        if state.turn(Phase.VERIFY) is None:
            return Step(Phase.VERIFY)
        return judge_step(state)

    def asks(self, state: DebateState, step: Step) -> list[Ask]:
        d = self.domain(state).domain
        if step.phase is AdversarialPhase.PROPOSE:
            prompt = "propose_first" if step.round == 1 else "propose_next"
            return [Ask(PROPOSER, d.proposer_role, Proposal, prompt, "propose")]
        if step.phase is AdversarialPhase.CRITIQUE:
            return [Ask(CRITIC, d.critic_role, AskedCritique, "critique", "critique")]
        if step.phase is Phase.JUDGE:
            return [judge_ask()]
        if step.phase is Phase.SYNTHESIS:
            return [Ask(PANEL, "synthesizer", AdversarialSynthesis, "synthesis",
                        "synthesis", fallback=True)]
        return [Ask(PANEL, "verifier", VerifierReport, "verifier", "verify", fallback=True)]

    def request(self, state: DebateState, step: Step, ask: Ask) -> Request:
        d = self.domain(state).domain
        lang = state.language
        hints: dict[str, Any] = {"question": state.question, "language": lang,
                                 "round": step.round, "focus_areas": d.focus_areas}
        focus = ", ".join(d.focus_areas)
        model = ask_model(state, ask)
        if step.phase is AdversarialPhase.PROPOSE:
            own = PROMPTS.render("proposer_role", role=d.proposer_role, focus=focus)
            issues = ""
            if step.round == 1:
                user = PROMPTS.render(ask.prompt)
            else:
                previous = self.proposal(state, step.round - 1)
                critique = self.critique(state, step.round - 1)
                assert previous is not None and critique is not None
                tally = self.ledger(state, step.round - 1).tallies[-1]
                issues = _feedback(critique, tally)
                user = PROMPTS.render(
                    ask.prompt, previous_round=step.round - 1,
                    previous_proposal=previous.proposal, critique=issues)
                hints["issue_ids"] = tally.issue_ids
            return Request(sourced_messages(state, model, own=own, user=user, schema=Proposal,
                                            hints=hints, focus=issues, tag="input"), hints)
        if step.phase is AdversarialPhase.CRITIQUE:
            own = PROMPTS.render("critic_role", role=d.critic_role, focus=focus)
            current = self.proposal(state, step.round)
            assert current is not None
            ledger = self.ledger(state, step.round - 1)
            earlier = _earlier_issues(ledger)
            previous_block = (PROMPTS.render("critique_previous", earlier=earlier)
                              if ledger.issues else "")
            user = PROMPTS.render(ask.prompt, round=step.round, proposal=current.proposal,
                                  previous_block=previous_block)
            hints["open_issues"] = [{"id": i.id, "severity": i.severity.value,
                                     "title": i.title} for i in ledger.open_issues()]
            hints["issue_count"] = len(ledger.issues)
            # The proposal is what a critique examines: the passages on it follow.
            return Request(sourced_messages(
                state, model, own=own, user=user, schema=AskedCritique, hints=hints,
                focus=f"{current.summary}\n{earlier if ledger.issues else ''}",
                tag="input"), hints)
        if step.phase is Phase.SYNTHESIS:
            return self._synthesis_request(state, hints, model)
        payload = state.ok_payload(Phase.SYNTHESIS, 0, PANEL)
        assert payload is not None
        text = _synthesis_text(AdversarialSynthesis.model_validate(payload))
        if step.phase is Phase.JUDGE:
            return judge_request(state, text)
        return Request(prompts.messages(system=prompts.system_prompt(lang),
                                        user=PROMPTS.render("verifier", text=text),
                                        schema=VerifierReport),
                       {"text": text, "language": lang})

    def _synthesis_request(self, state: DebateState, hints: dict[str, Any],
                           model: str) -> Request:
        stop = self.stop(state)
        assert stop is not None
        ledger = self.ledger(state)
        last = len(ledger.tallies)
        final = self.proposal(state, last)
        assert final is not None
        history = []
        for tally in ledger.tallies:
            proposal = self.proposal(state, tally.round)
            assert proposal is not None
            history.append(f"Round {tally.round}: {proposal.summary}")
            for issue_id in tally.issue_ids:
                issue = ledger.issues[issue_id]
                outcome = (f"resolved in round {issue.resolved_in}" if issue.resolved_in
                           else "open")
                history.append(f"  - [{issue.id}] ({issue.severity.value}) {issue.title}: "
                               f"{issue.detail} Fix: {issue.suggested_fix} — {outcome}")
        open_issues = "\n".join(f"- [{i.id}] ({i.severity.value}) {i.title}: {i.detail}"
                                for i in ledger.open_issues()) or "(none)"
        user = PROMPTS.render("synthesis", rounds=last, stop=f"{stop[0].value} — {stop[1]}",
                              history="\n".join(history), final_proposal=final.proposal,
                              open_issues=open_issues)
        hints.update(final_proposal=final.proposal,
                     issues=[{"id": i.id, "title": i.title, "fix": i.suggested_fix,
                              "open": i.open} for i in ledger.issues.values()])
        return Request(sourced_messages(
            state, model, own="", user=user, schema=AdversarialSynthesis, hints=hints,
            focus="" if open_issues == "(none)" else open_issues, tag="input"), hints)

    def step_data(self, state: DebateState, step: Step) -> dict[str, Any]:
        if step.phase is not AdversarialPhase.CRITIQUE or self.critique(state, step.round) is None:
            return {}
        tally = self.ledger(state, step.round).tallies[-1]
        reason, _ = self.decision(state, tally)
        decision = "continue" if reason is None else reason.value
        return {"counts": tally.counts.model_dump(),
                "status_line": status_line(step.round, state.config.round_cap, tally.counts,
                                           decision)}

    def live_view(self, state: DebateState) -> dict[str, Any]:
        """Each round's status line and issues, and the proposal's versions: the page
        shows the latest with a diff against the one before."""
        ledger = self.ledger(state)
        cap = state.config.round_cap
        rounds: list[dict[str, Any]] = []
        versions: list[dict[str, Any]] = []
        r = 1
        while (proposal := self.proposal(state, r)) is not None:
            versions.append({"round": r, "summary": proposal.summary,
                             "text": proposal.proposal})
            entry: dict[str, Any] = {"round": r, "summary": proposal.summary,
                                     "status_line": "", "assessment": "", "issues": []}
            if r <= len(ledger.tallies):
                tally = ledger.tallies[r - 1]
                reason, _ = self.decision(state, tally)
                entry["decision"] = "continue" if reason is None else reason.value
                entry["counts"] = tally.counts.model_dump()  # pages say the line in their language
                entry["status_line"] = status_line(r, cap, tally.counts, entry["decision"])
                critique = self.critique(state, r)
                entry["assessment"] = critique.assessment if critique else ""
                entry["issues"] = [
                    {"id": i.id, "severity": i.severity.value, "title": i.title,
                     "open": i.open, "resolved_in": i.resolved_in}
                    for i in (ledger.issues[k] for k in tally.issue_ids)]
            rounds.append(entry)
            r += 1
        bars: list[dict[str, Any]] = []
        for counted in ledger.tallies:
            reason, _ = self.decision(state, counted)
            c = counted.counts
            bars.append({"round": counted.round, "red": c.red, "yellow": c.yellow,
                         "green": c.green, "total": c.red + c.yellow + c.green,
                         "decision": "continue" if reason is None else reason.value})
        # Bars share one scale: the round with the most open issues fills its row.
        scale = max([bar["total"] for bar in bars] + [1])
        for bar in bars:
            bar["rest"] = scale - bar["total"]
        return {
            "domain": localized(self.domain(state), state.language).domain.name,
            "max_rounds": cap, "rounds": rounds,
            "tally": bars, "tally_scale": scale,
            "latest": versions[-1] if versions else None,
            "previous": versions[-2] if len(versions) > 1 else None,
            "open_issues": [{"id": i.id, "severity": i.severity.value, "title": i.title}
                            for i in ledger.open_issues()],
        }

    def page_steps(self, state: DebateState, running: str = "") -> list[PageStep]:
        """A step per round (proposal and critique), up to the cap while the debate goes
        on and up to the round it stopped in once it has (or the one still running
        after Stop), then the synthesis."""
        done = self.rounds_done(state)
        last = done if self.stop(state) is not None else max(state.config.round_cap, done)
        kind, _, number = running.partition(" ")
        if (
            kind in (AdversarialPhase.PROPOSE.value, AdversarialPhase.CRITIQUE.value)
            and number.isdigit()
        ):
            last = max(last, int(number))
        steps = [PageStep(f"round-{r}", f"round {r}", r <= done) for r in range(1, last + 1)]
        steps.append(PageStep("synthesis", "synthesis", state.turn(Phase.VERIFY) is not None))
        return steps

    def describe(self, state: DebateState, card: Participant) -> None:
        """The proposer: its versions and its latest summary; the critic: the ledger's
        open issues by severity (what the rule reads) and its latest assessment, in the
        debate's language."""
        t = labels(state.language)
        if card.index == PROPOSER:
            r = 0
            while (proposal := self.proposal(state, r + 1)) is not None:
                r += 1
                card.latest, card.latest_label = proposal.summary, t("fact.version", n=r)
                replies = len(proposal.replies)
            card.facts.append(Fact(t("fact.versions"), str(r)))
            if r > 1:
                card.facts.append(Fact(t("fact.replies"), str(replies)))
            return
        ledger = self.ledger(state)
        if not ledger.tallies:
            return
        counts = ledger.tallies[-1].counts
        card.facts += [Fact(t("fact.open"), t("page.sev_count", sev=t(f"page.sev.{sev}"),
                                              n=getattr(counts, sev)), sev)
                       for sev in ("red", "yellow", "green")]
        resolved = sum(1 for i in ledger.issues.values() if not i.open)
        card.facts.append(Fact(t("fact.issues_raised"), str(len(ledger.issues))))
        card.facts.append(Fact(t("fact.resolved"), str(resolved)))
        critique = self.critique(state, len(ledger.tallies))
        if critique is not None:
            card.latest = critique.assessment
            card.latest_label = t("fact.critique", n=len(ledger.tallies))

    def summary_line(self, state: DebateState) -> str:
        detected = localized(self.domain(state), state.language)
        return labels(state.language)(
            "page.adv_summary", domain=detected.domain.name, reason=detected.reason,
            rounds=state.config.round_cap, model=state.config.model)

    # ------------------------------------------------------------------ result

    def build_result(self, state: DebateState, usage: Usage) -> AdversarialResult:
        stop = self.stop(state)
        assert stop is not None, "the debate has not stopped"
        payload = state.ok_payload(Phase.SYNTHESIS, 0, PANEL)
        assert payload is not None, "no synthesis"
        synthesis = AdversarialSynthesis.model_validate(payload)
        ledger = self.ledger(state)
        cap = state.config.round_cap
        rounds = []
        for tally in ledger.tallies:
            reason, _ = self.decision(state, tally)
            decision = "continue" if reason is None else reason.value
            if tally is ledger.tallies[-1] and reason is None:
                decision = stop[0].value
            proposal, critique = self.proposal(state, tally.round), self.critique(
                state, tally.round)
            assert proposal is not None and critique is not None
            rounds.append(AdversarialRound(
                round=tally.round, proposal=proposal, critique=critique, tally=tally,
                decision=decision,
                status_line=status_line(tally.round, cap, tally.counts, decision)))
        verify = state.turn(Phase.VERIFY)
        verifier_ok = verify is not None and verify.status is TurnStatus.OK
        claims = (VerifierReport.model_validate(verify.payload).claims
                  if verify is not None and verifier_ok and verify.payload else [])
        notes = [] if verifier_ok else [
            f"the verifier failed: {verify.error if verify else 'not run'}"]
        notes += judge_note(state)
        synthesis_turn = state.turn(Phase.SYNTHESIS)
        return with_quality(state, AdversarialResult(
            question=state.question, language=state.language, protocol=self.name,
            config=state.config, prompt_version=prompts.PROMPT_VERSION,
            simulated=uses_simulator(state.config), domain=self.domain(state),
            rounds_completed=len(rounds), max_rounds=cap, stop_reason=stop[0],
            stop_explanation=stop[1], rounds=rounds, issues=list(ledger.issues.values()),
            final_solution=synthesis.final_solution, key_decisions=synthesis.key_decisions,
            remaining_risks=synthesis.remaining_risks, unverified_claims=claims,
            options=state.options,
            verifier_ok=verifier_ok, degraded=bool(notes), degraded_notes=notes,
            synthesis_model=(synthesis_turn.model if synthesis_turn and synthesis_turn.model
                             else state.config.model_for("synthesis")),
            usage=usage,
            # Sides are the two roles; a passage a critic's issue cites is contested.
            evidence=evidence_report(state, EvidenceRules(
                step_label=self.step_label,
                side=lambda agent: str(agent) if agent >= 0 else None,
                disputed=frozenset({"issues"}),
                claims=[synthesis.final_solution, *synthesis.remaining_risks])),
        ), self.step_label)

    def render_markdown(self, result: BaseModel) -> str:
        assert isinstance(result, AdversarialResult)
        # Citations that do not check out marked where they stand (docs/engine.md,
        # "Sources").
        return mark_unfound(adversarial_markdown(result), result)

    def render_transcript(self, state: DebateState) -> str:
        ledger = self.ledger(state)
        pairs = []
        for tally in ledger.tallies:
            proposal, critique = self.proposal(state, tally.round), self.critique(
                state, tally.round)
            assert proposal is not None and critique is not None
            pairs.append((tally, proposal, critique))
        return adversarial_rounds(labels(state.language), pairs)

    def panel_reading(self, state: DebateState) -> PanelReading:
        """The proposer's final solution is the answer; there is no panel to poll."""
        payload = state.ok_payload(Phase.SYNTHESIS, 0, PANEL)
        solution = str(payload.get("final_solution") or "") if payload else ""
        return PanelReading(solution=solution or None)

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

    def page_words(self, language: str, words: Callable[..., str]
                   ) -> dict[str, Callable[..., str]]:
        return pages.page_words(language)



def _feedback(critique: Critique, tally: RoundTally) -> str:
    lines = [critique.assessment]
    for issue, issue_id in zip(critique.issues, tally.issue_ids, strict=True):
        lines.append(f"- [{issue_id}] ({issue.severity.value}) {issue.title}: {issue.detail} "
                     f"Suggested fix: {issue.suggested_fix}")
    return "\n".join(lines)


def _earlier_issues(ledger: IssueLedger) -> str:
    lines = []
    for issue in ledger.issues.values():
        state = (f"you marked it resolved in round {issue.resolved_in}" if not issue.open
                 else "still open")
        lines.append(f"- [{issue.id}] ({issue.severity.value}, raised in round "
                     f"{issue.raised_in}, {state}) {issue.title}: {issue.detail}")
    return "\n".join(lines)


def _synthesis_text(synthesis: AdversarialSynthesis) -> str:
    parts = [synthesis.final_solution]
    parts += [f"{d.issue}: {d.decision} ({d.rationale})" for d in synthesis.key_decisions]
    parts += synthesis.remaining_risks
    return "\n".join(parts)


def shown_domain(result: AdversarialResult) -> DetectedDomain:
    """A result's detected domain in the result's language (a stored result keeps the
    English it was detected in; a built-in domain's words are translated for showing)."""
    return localized(result.domain, result.language)
