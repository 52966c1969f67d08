"""What a protocol is, and the one step runner every protocol runs its steps with.

A protocol derives its steps from the stored turns (as ``CouncilState.next_step()``
does for the council), says what each step asks of whom (``Ask``: role, schema,
prompt template, model phase), builds its typed result and its Markdown report, and
names the page partials that show it. The runner below asks only for the turns a
step does not hold yet, so a step re-delivered after a crash costs no extra calls; a
prompt too long for its model's context is tried again shorter while the protocol
has a shorter one (``DebateProtocol.shorter_request``).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from ..hooks import EngineEvent, EngineHooks, make_gateway
from ..i18n import Catalogue, catalogue, translator
from ..llm.gateway import CallFailed, Cancelled, ContextTooLong, LLMGateway
from ..prompts import PromptFolder, prompt_folder
from ..schemas import (
    CallTag,
    DebateConfig,
    EngineEventKind,
    Persona,
    Phase,
    ProtocolResult,
    Turn,
    TurnStatus,
    Usage,
)
from ..state import DebateState, StateView, Step
from .reading import PanelReading
from .registry import get_protocol
from .sourced import asked_schema, offered_ids

PANEL = -1  # the agent index of a call made for the whole debate (synthesis, verifier)


@dataclass(frozen=True)
class Ask:
    """What one step asks of one agent: the durable plan of a call, before its messages."""

    agent: int
    role: str
    schema: type[BaseModel]
    prompt: str  # template name: the protocol's prompts/<name>.md, else a shared one
    model_phase: str  # key of DebateConfig.phase_models
    fallback: bool = False  # try the configured fallback model (synthesis and verifier)


@dataclass(frozen=True)
class PageStep:
    """One step of the debate page's stepper, in the order the protocol runs them.
    The page decides running / pending / skipped from ``done`` and the debate's status."""

    key: str  # stable across reloads: the live page swaps the stepper by its steps
    label: str
    done: bool


@dataclass(frozen=True)
class Fact:
    """A short label and value on an agent card ("open issues", "red×1")."""

    label: str
    value: str
    tone: str = ""  # a style hint the page maps to a badge: red, yellow, green, ok, error


@dataclass
class Participant:
    """What the debate page's card for one agent shows: plain data, no markup. The
    council fills ``trail`` and ``verdict``; other protocols say what they track in
    ``facts`` and ``latest``."""

    index: int
    name: str
    role: str
    model: str | None = None  # the persona's own or its seat's panel model, if any
    status: str = ""  # "" | "thinking" | "failed"
    failed_in: str | None = None
    latest: str | None = None  # the agent's latest output in one passage (untrusted text)
    latest_label: str = ""  # what ``latest`` is ("stance", "version 3", ...)
    facts: list[Fact] = field(default_factory=list)
    # Confidence per round (round 0 = positions): the council's convergence chart.
    trail: list[float | None] = field(default_factory=list)
    verdict: str | None = None

    @property
    def initial(self) -> float | None:
        return self.trail[0] if self.trail else None

    @property
    def current(self) -> float | None:
        known = [v for v in self.trail if v is not None]
        return known[-1] if known else None


@dataclass(frozen=True)
class AgentForecast:
    """What one agent forecast: the option (verdict) it held and how sure it was, at
    its first position and at the end. Calibration scores the final pair."""

    agent: int
    name: str
    final_verdict: str | None
    final_confidence: float | None
    initial_verdict: str | None = None
    initial_confidence: float | None = None


@dataclass(frozen=True)
class DebateForecasts:
    """A result's forecasts, as calibration reads them (docs/teams.md, "Scoring"): the
    options they range over, the panel's leading option first and last (None on a
    tie), one forecast per agent. Empty for a protocol whose agents name no option."""

    options: list[str] = field(default_factory=list)
    initial_majority: str | None = None
    final_majority: str | None = None
    agents: list[AgentForecast] = field(default_factory=list)
    # What the debate changed from the first vote to the last, as the result holds it
    # (plain JSON, which the calibration page words); None when the protocol says nothing.
    change: dict[str, Any] | None = None


@dataclass(frozen=True)
class PlannedCall:
    """One model call a debate may make, planned before it starts: what the estimate
    prices (debates/estimates.py; docs/teams.md, "Cost"). Token counts are rough
    averages before the sources are added; ``agent`` is PANEL for a call made for the
    whole debate. ``may_fall_back``: whether the call may go to the configured fallback
    model, so that the estimate prices it at the dearer of the two."""

    phase: Phase
    prompt_tokens: int
    completion_tokens: int
    agent: int = PANEL
    may_fall_back: bool = True


@dataclass(frozen=True)
class ResultPart:
    """One part of a protocol's result that a comment or an action can point at (a
    risk, an issue, a claim, a recommendation ...), the same for every protocol
    (docs/teams.md, "Comments")."""

    kind: str  # what the part is: "risk", "concern", "claim", "issue", "recommendation" ...
    ref: str  # stable within the result: "R2", "V1", "0", "primary"
    text: str  # the part's text as the result holds it (untrusted)


@dataclass(frozen=True)
class PagePanel:
    """How the debate page heads the panel of one agent step (``panel_steps``): its
    stable key, its title, how many turns it expects and whether the round's metrics
    (``page_metrics``) belong beside it."""

    key: str
    title: str
    expected: int
    measured: bool = False


@dataclass(frozen=True)
class AnswerFact:
    """One line of a finished debate's answer block beyond the recommendation (the
    independent vote, what the debate changed, the critic's issues ...): a label and a
    sentence in the page's language, the figures behind it for a "why" disclosure
    (docs/web.md, "Answer first"). Plain text, never markup."""

    key: str  # stable ("vote", "change", "issues" ...): the page's id is answer-<key>
    label: str
    text: str
    why: str = ""


@dataclass(frozen=True)
class PageAnswer:
    """What a finished debate answers, for the block a reader sees first under the
    question (docs/web.md, "Answer first"): the recommendation in one sentence, the
    facts that say how sure the panel is, and the top risks. ``text`` and ``risks``
    are the model's words (untrusted: the page renders them through the sanitised
    path); the labels are the protocol's, in the page's language."""

    title: str  # what ``text`` is: "Recommendation", "No agreement", "Final solution"
    text: str
    facts: list[AnswerFact] = field(default_factory=list)
    risks_title: str = ""
    risks: list[str] = field(default_factory=list)  # at most three, the gravest first


TOP_RISKS = 3


# Page partials every protocol has; a protocol's own ``partials`` override them. "chart"
# empty means the page shows no chart beside the agent cards; "compare" empty means
# the compare page shows two runs side by side without an item-by-item comparison.
DEFAULT_PARTIALS = {
    "head": "debates/protocols/_summary_head.html",
    "agents": "debates/_agents.html",
    "chart": "",
    "summary": "",
    "compare": "",
    "compare_side": "",
}


@dataclass
class Request:
    """The concrete call for one Ask: messages and simulator hints."""

    messages: list[dict[str, str]]
    hints: dict[str, Any] = field(default_factory=dict)


class DebateProtocol:
    """Base of every registered protocol. Subclasses set the class attributes and
    implement the methods that raise NotImplementedError."""

    name: ClassVar[str]
    label: ClassVar[str]
    description: ClassVar[str] = ""
    result_model: ClassVar[type[ProtocolResult]]
    # Every phase the protocol's steps run in, in their order within a round: its own
    # (registered in its package, ``phases.py``) and the shared ones it uses.
    phases: ClassVar[tuple[Phase, ...]] = (Phase.SYNTHESIS, Phase.VERIFY, Phase.JUDGE)
    # What the protocol derives from a state's turns, built per state and cached until
    # the next turn (``DebateState.view``); the council's adds its metrics and stop rule.
    state_view: ClassVar[type[StateView]] = StateView
    # Templates the pages include for this protocol, over DEFAULT_PARTIALS: "head" (the
    # settings line), "agents", "chart" (beside the agents), "live" (progress and
    # turns), "summary" (the lead of the debate page's synthesis card once there is a
    # result, its quality hold included; default: the hold alone),
    # "result" (the synthesis page's body), "compare" (what two runs found that the
    # other did not, from ``page_comparison``) and "compare_side" (what the compare
    # page shows of one run beside its stop reason).
    partials: ClassVar[dict[str, str]] = {}
    # The folder holding the templates ``partials`` name (plain files, under the names
    # the partials give); None when the protocol brings none. The default is the
    # ``templates/`` folder beside the module that defines the protocol's package, so a
    # plugin's templates are found the way the built-ins' are (docs/engine.md,
    # "Protocols").
    template_dir: ClassVar[Path | None] = None
    # The heading over the agent cards.
    participants_title: ClassVar[str] = "Agents"
    default_max_rounds: ClassVar[int | None] = None
    # The panel in words when the protocol's roles are fixed ("a proposer and a critic"):
    # a number of agents given for it is refused (configure.check_agents), not ignored.
    fixed_panel: ClassVar[str] = ""
    # Whether the protocol composes panel members beyond the given personas (the
    # council): a re-run with "the same panel" keeps them.
    composes_panel: ClassVar[bool] = False
    # Whether a finished debate can run exactly one more round and synthesise again
    # ("One more round"); only a protocol whose stopping rule honours it says so.
    more_rounds: ClassVar[bool] = False
    # Whether the protocol's panel votes (the council): only then does a
    # ``decision_rule`` mean anything, and it is refused elsewhere (configure.py).
    votes: ClassVar[bool] = False

    # ------------------------------------------------------------------ configuration

    def check_options(self, options: dict[str, Any]) -> None:
        """Raises ValueError when ``DebateConfig.protocol_options`` is not valid here."""
        if options:
            raise ValueError(f"the {self.name} protocol takes no protocol_options")

    def prepare(self, state: DebateState) -> None:
        """Fills what the protocol derives before its first step (e.g. its fixed roles
        as the state's personas, so progress lines and the ledger can name them)."""

    # ------------------------------------------------------------------ steps

    def next_step(self, state: DebateState) -> Step | None:
        raise NotImplementedError

    def failure(self, state: DebateState) -> str | None:
        """Why the debate cannot go on, or None."""
        raise NotImplementedError

    def asks(self, state: DebateState, step: Step) -> list[Ask]:
        """Every call ``step`` makes, answered or not."""
        raise NotImplementedError

    def request(self, state: DebateState, step: Step, ask: Ask) -> Request:
        raise NotImplementedError

    def shorter_request(self, state: DebateState, step: Step, ask: Ask,
                        compaction: int) -> Request | None:
        """The request again, shortened to ``compaction`` (1, 2, ...), for a prompt that
        did not fit its model's context; None when it cannot be shorter (the turn
        fails). Recorded on the turn (``Turn.compaction``)."""
        return None

    def answer_check(self, state: DebateState, step: Step, ask: Ask
                     ) -> Callable[[Any], str | None] | None:
        """What a valid answer to ``ask`` must still hold, as a check that says what it
        lacks (None: nothing), or None for no check. An answer that lacks it gets
        exactly one repair (``LLMGateway.structured``): a synthesis without its decision
        (docs/engine.md, "Content checks")."""
        return None

    def call_error(self, step: Step, exc: CallFailed) -> str:
        """A failed call's error, as its turn records it."""
        return f"{exc.error_class} from {exc.model}: {exc.message}"

    def reports_turns(self, step: Step) -> bool:
        """Whether each turn of ``step`` is an event of its own (turn_completed or
        turn_failed) besides the step's."""
        return True

    def summary_line(self, state: DebateState) -> str:
        """The CLI's header line."""
        return f"{self.label} · model {state.config.model}"

    def package_dir(self) -> Path:
        """The folder of the module that defines the protocol: where its catalogues
        (``locale/``), prompts (``prompts/``) and page templates (``templates/``) are
        looked for."""
        return Path(inspect.getfile(type(self))).parent

    def labels(self, language: str) -> Catalogue:
        """The protocol's fixed wording in ``language``: the catalogue beside its module
        (``locale/<lang>/LC_MESSAGES/<name>.po``), with the engine's shared wording
        behind it; a protocol without one has the shared wording only. How a plugin
        protocol ships its labels (docs/engine.md, "Translations")."""
        localedir = self.package_dir() / "locale"
        return catalogue(self.name, localedir, language) if localedir.is_dir() \
            else translator(language)

    def prompts(self) -> PromptFolder:
        """The protocol's prompt templates: ``prompts/<name>.md`` beside its module, the
        engine's shared ones (preamble, sources, JSON tail, verifier, judge) behind
        them. How a plugin protocol ships its prompts (docs/engine.md, "Plugins")."""
        return prompt_folder(self.package_dir() / "prompts")

    def step_label(self, step: Step) -> str:
        return f"{step.phase.value} {step.round}" if step.round else step.phase.value

    def live_view(self, state: DebateState) -> dict[str, Any]:
        """Plain data the protocol's ``live`` page partial shows while the debate runs
        and after (derived from the stored turns, so a reload shows the same)."""
        return {}

    def step_data(self, state: DebateState, step: Step) -> dict[str, Any]:
        """Extra data for the step_completed event (e.g. the round status line)."""
        return {}

    # ------------------------------------------------------------------ the debate page

    def page_partials(self) -> dict[str, str]:
        return {**DEFAULT_PARTIALS, **self.partials}

    def page_templates(self) -> Path | None:
        """The folder of the protocol's own templates: ``template_dir``, else a
        ``templates/`` folder in the protocol's package when there is one."""
        if self.template_dir is not None:
            return self.template_dir
        folder = self.package_dir() / "templates"
        return folder if folder.is_dir() else None

    def page_filters(self) -> dict[str, Callable[..., Any]]:
        """Plain functions the protocol's partials use as template filters, by name.
        The web app registers each as ``<protocol name>_<name>`` (``|adversarial_domain``),
        so two protocols' filters cannot clash. They return data or plain text, never
        markup: the partials escape and render it as any other value."""
        return {}

    def page_metrics(self, state: DebateState) -> list[Any]:
        """The per-round metrics the page's table and chart show (the protocol's own
        model, which its partials read: the council's convergence); none for a
        protocol that measures no rounds."""
        return []

    def panel_steps(self, state: DebateState, rounds: int) -> list[Step]:
        """The agent steps the page shows as panels of turns, up to round ``rounds``
        (the council's rounds, in its ``live`` partial); none by default."""
        return []

    def page_diagnostic(self, state: DebateState, result: BaseModel | None,
                        metrics: list[Any]) -> tuple[Any, str]:
        """The diagnostic the status card shows and its meaning in the debate's
        language; (None, "") for a protocol that makes none."""
        return None, ""

    def page_panel(self, state: DebateState, step: Step) -> PagePanel:
        """How the page heads the panel of ``step`` (one of ``panel_steps``)."""
        label = self.step_label(step)
        return PagePanel(key=label.replace(" ", "-"), title=label.capitalize(),
                         expected=len(state.personas))

    def page_words(self, language: str, words: Callable[..., str]
                   ) -> dict[str, Callable[..., str]]:
        """Functions that put the protocol's own values in words in ``language`` (a
        verdict split, a round's status line ...), by name: what the partials call
        through ``{% protocol_words protocol "name" value %}``. ``words`` is the page's
        translator in that language (its wording over the protocol's). Plain text,
        never markup."""
        return {}

    def page_answer(self, result: BaseModel, words: Callable[..., str]) -> PageAnswer:
        """The answer block of a finished debate (``PageAnswer``), fixed words through
        ``words`` (the page's translator). By default what every result's summary says
        it decided, with no facts or risks; a protocol says more."""
        assert isinstance(result, ProtocolResult)
        s = result.summary
        if s.decision:
            return PageAnswer(title=words("answer.decision"), text=s.decision)
        return PageAnswer(title=words("answer.no_decision"), text=s.divergence or "")

    def turn_field_labels(self, phase: str) -> list[tuple[str, str]]:
        """(payload key, label) of a turn of ``phase`` in the order a reader wants
        them; empty for the payload's own order and field names."""
        return []

    def turn_missing_word(self, phase: str) -> str:
        """What a missing (null) value of a turn of ``phase`` means on the page."""
        return "none"

    def turn_summary(self, phase: str, payload: dict[str, Any],
                     words: Callable[..., str]) -> str:
        """A turn's gist in one line ("" for none); ``words`` translates fixed words."""
        return ""

    def payload_item_text(self, value: dict[str, Any],
                          words: Callable[..., str]) -> str | None:
        """A nested object of one of the protocol's turn payloads in words, or None for
        an object the protocol does not describe (the page lists its keys)."""
        return None

    def composed_personas(self, phase: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
        """The personas a turn of ``phase`` composed (the transcript shows one entry
        each); none for a turn that composes none."""
        return []

    def transcript_title(self, step: Step) -> str:
        """The transcript's heading for ``step``; "" for the page's own."""
        return ""

    def quote_passages(self, result: BaseModel) -> list[tuple[object, str]]:
        """(text, how the result page renders it) of every passage of a result a reader
        can select a quote in, in page order: "plain" (escaped text), "inline" or
        "block" (untrusted Markdown). The result partial marks the same passages
        ``data-passage``; none when the protocol takes no comments on quotes."""
        return []

    def page_comparison(self, a: BaseModel, b: BaseModel,
                        words_in: Callable[[str], Callable[..., str]]) -> Any:
        """What two results of this protocol found that the other did not, for the
        ``compare`` partial and the compare API (plain data, fixed words through
        ``words_in(language)``, the page's translator); None when the protocol compares
        nothing item by item."""
        return None

    def page_steps(self, state: DebateState, running: str = "") -> list[PageStep]:
        """The stepper: every step the debate has run or will run, in order. Steps a
        debate will not reach (rounds after it stopped) are left out, except the one a
        worker is running now (``running``, its step label), which still finishes."""
        raise NotImplementedError

    def participants(self, state: DebateState, running: Step | None) -> list[Participant]:
        """One card per agent: who it is, whether it is answering ``running`` (the step
        in progress, None when the debate is not running) or has failed, and what the
        protocol tracks for it (``describe``)."""
        thinking = set()
        if running is not None:
            thinking = {a.agent for a in self.asks(state, running)
                        if state.turn(running.phase, running.round, a.agent) is None}
        cards = []
        for i, persona in enumerate(state.personas):
            failed = self.failed_step(state, i)
            card = Participant(
                index=i, name=persona.name, role=persona.expertise, model=persona.model,
                status="failed" if failed else ("thinking" if i in thinking else ""),
                failed_in=self.step_label(failed) if failed else None)
            self.describe(state, card)
            cards.append(card)
        return cards

    def failed_step(self, state: DebateState, agent: int) -> Step | None:
        """The first step in which this agent's turn failed (rounds, then phases in the
        protocol's order)."""
        phases = list(self.phases)
        failed = [Step(t.phase, t.round) for t in state.turns.values()
                  if t.agent == agent and t.status is TurnStatus.FAILED]
        return min(failed, key=lambda s: (s.round, phases.index(s.phase)), default=None)

    def describe(self, state: DebateState, card: Participant) -> None:
        """Fills what the protocol tracks for one agent (facts, latest output)."""

    async def run_step(self, state: DebateState, step: Step, hooks: EngineHooks,
                       gateway: LLMGateway | None = None) -> None:
        # The catalogues the debate writes in are read (compiled if need be) before its
        # first model call, not after a round of them (docs/engine.md, "Translations").
        self.labels(state.language)
        await run_asks(self, state, step, hooks, gateway or make_gateway(state, hooks))

    # ------------------------------------------------------------------ result

    def build_result(self, state: DebateState, usage: Usage) -> ProtocolResult:
        raise NotImplementedError

    def parse_result(self, data: dict[str, Any]) -> ProtocolResult:
        return self.result_model.model_validate(data)

    def outcome(self, result: BaseModel) -> tuple[str, str, bool]:
        """(stop reason, its explanation, degraded) of a result, as a stored debate
        lists them: read from the result's summary, so the list, the API and the
        result itself name the same stop reason."""
        assert isinstance(result, ProtocolResult)
        s = result.summary
        return s.stop_reason, s.stop_explanation, s.degraded

    def planned_calls(self, config: DebateConfig, *, agents_given: int,
                      question_tokens: int) -> list[PlannedCall]:
        """The worst case before the debate starts: every call a debate with ``config``
        makes when every round runs (retries and repairs aside). ``agents_given`` is
        how many personas the team gave (a protocol that composes the rest plans that
        call too); ``question_tokens`` the question's and background's length."""
        raise NotImplementedError(f"the {self.name} protocol plans no calls")

    def more_round_calls(self, config: DebateConfig, *, rounds_run: int,
                         question_tokens: int) -> list[PlannedCall]:
        """What "one more round" after ``rounds_run`` rounds adds; none for a
        protocol that does not offer one (``more_rounds``)."""
        return []

    def panel_reading(self, state: DebateState) -> PanelReading:
        """What the panel of a finished (or failed) debate answered, first and last
        (the evaluation harness's arms read it); may raise on a state it cannot read."""
        raise NotImplementedError(f"the {self.name} protocol has no panel reading")

    def result_parts(self, result: BaseModel) -> list[ResultPart]:
        """The parts of a result (``parse_result``'s) that comments and actions can
        point at, in the order the result page shows them."""
        return []

    def forecasts(self, result: BaseModel) -> DebateForecasts:
        """Which option each agent forecast, how confidently, in a result of this
        protocol (``parse_result``'s): what calibration scores. A protocol whose agents
        name no option forecasts nothing."""
        return DebateForecasts()

    def render_markdown(self, result: BaseModel) -> str:
        raise NotImplementedError

    def render_transcript(self, state: DebateState) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------------ the stored debate
    # What the site asks of a debate of any protocol, so that it never names one
    # (docs/engine.md, "Protocols"): the panel it stores, the rounds it lists, one more
    # round. Plain values in and out.

    def sets_panel(self, turn: Turn) -> bool:
        """Whether storing ``turn`` adds members to the panel (a protocol that composes
        its panel: ``composes_panel``), so the site copies the panel in again."""
        return False

    def agent_model(self, config: DebateConfig, agent: int, persona: Persona) -> str:
        """The model the stored panel names for agent ``agent`` (the model its calls
        go to): its persona's own, else the debate's."""
        return persona.model or config.model

    def rounds_run(self, state: DebateState) -> int:
        """How many rounds the debate has finished: the highest round of a stored turn
        unless the protocol counts them itself."""
        return max((turn.round for turn in state.turns.values()), default=0)

    def round_measures(self, state: DebateState) -> list[dict[str, Any]]:
        """The measures of each finished round as plain JSON, oldest first (the API's
        debate detail lists them, docs/api.md); none for a protocol that measures no
        rounds."""
        return []

    def more_round_agents(self, state: DebateState) -> list[int]:
        """The agents that would take part in one more round (``more_rounds``)."""
        return []

    def request_more_round(self, state: DebateState) -> None:
        """Sets ``state`` up for exactly one more round after it finished, its old
        synthesis dropped (``more_rounds``)."""
        raise NotImplementedError(f"the {self.name} protocol offers no more round")


def role_persona(name: str, role: str, focus: str, must_not: str = "") -> Persona:
    """A fixed role as a Persona, so the shared machinery (progress, ledger, pages)
    can name it like a council member."""
    return Persona(name=name, background=role, expertise=focus,
                   approach=focus, bias=must_not or "none declared")


async def _call(protocol: DebateProtocol, state: DebateState, step: Step, ask: Ask,
                gateway: LLMGateway) -> Turn:
    """One ask's call. A prompt that does not fit its model's context is tried again
    shorter while the protocol has a shorter one (``shorter_request``)."""
    config = state.config
    persona = state.personas[ask.agent] if 0 <= ask.agent < len(state.personas) else None
    model = config.model_for(ask.model_phase, persona)
    tag = CallTag(phase=step.phase, round=step.round, agent=ask.agent,
                  agent_name=persona.name if persona else None)
    request: Request | None = protocol.request(state, step, ask)
    compaction = 0
    while request is not None:
        try:
            outcome = await gateway.structured(
                asked_schema(state, ask.schema), messages=request.messages, model=model, tag=tag,
                temperature=persona.temperature if persona and persona.temperature is not None
                else config.temperature,
                seed=config.seed + max(ask.agent, 0), hints=request.hints,
                fallback_model=config.fallback_model if ask.fallback else None,
                check=protocol.answer_check(state, step, ask),
            )
        except ContextTooLong as exc:
            error = f"ContextTooLong: prompt of {exc.tokens} tokens exceeds {exc.limit}"
            if (shorter := protocol.shorter_request(state, step, ask, compaction + 1)) is None:
                break
            request, compaction = shorter, compaction + 1
            continue
        except CallFailed as exc:
            error = protocol.call_error(step, exc)
            break
        return Turn(phase=step.phase, round=step.round, agent=ask.agent,
                    payload=outcome.value.model_dump(mode="json"), model=outcome.model,
                    compaction=compaction, offered=offered_ids(request.hints),
                    cut=outcome.cut, repaired=outcome.repaired)
    return Turn(phase=step.phase, round=step.round, agent=ask.agent,
                status=TurnStatus.FAILED, error=error, model=model, compaction=compaction)


def ask_model(state: DebateState, ask: Ask) -> str:
    """The model ``ask``'s call goes to first (what its prompt is sized for)."""
    persona = state.personas[ask.agent] if 0 <= ask.agent < len(state.personas) else None
    return state.config.model_for(ask.model_phase, persona)


async def run_asks(protocol: DebateProtocol, state: DebateState, step: Step,
                   hooks: EngineHooks, gateway: LLMGateway) -> None:
    """Runs the unanswered asks of ``step`` concurrently (bounded by the config's
    concurrency), reporting each turn the moment it exists."""
    label = protocol.step_label(step)
    await hooks.on_event(EngineEvent(kind=EngineEventKind.STEP_STARTED, step=label,
                                     phase=step.phase.value, round=step.round))
    semaphore = asyncio.Semaphore(state.config.concurrency)
    missing = [a for a in protocol.asks(state, step)
               if state.turn(step.phase, step.round, a.agent) is None]

    async def one(ask: Ask) -> None:
        async with semaphore:
            if hooks.should_cancel():
                raise Cancelled()
            turn = await _call(protocol, state, step, ask, gateway)
        state.add(turn)
        await hooks.on_turn(turn)
        if not protocol.reports_turns(step):
            return
        await hooks.on_event(EngineEvent(
            kind=EngineEventKind.TURN_COMPLETED if turn.status is TurnStatus.OK
            else EngineEventKind.TURN_FAILED,
            step=label, phase=step.phase.value, round=step.round, agent=ask.agent,
            data={"error": turn.error} if turn.error else {},
        ))

    results = await asyncio.gather(*(one(a) for a in missing), return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    asks = protocol.asks(state, step)
    turns = [state.turn(step.phase, step.round, a.agent) for a in asks]
    data: dict[str, Any] = {
        "ok": sum(1 for t in turns if t is not None and t.status is TurnStatus.OK),
        "of": len(asks),
    }
    if len(asks) == 1 and turns[0] is not None:
        data["status"] = turns[0].status.value
        data["error"] = turns[0].error
    data.update(protocol.step_data(state, step))
    await hooks.on_event(EngineEvent(kind=EngineEventKind.STEP_COMPLETED, step=label,
                                     phase=step.phase.value, round=step.round, data=data))


async def run_protocol(state: DebateState, hooks: EngineHooks) -> None:
    """Runs every remaining step of any registered protocol in this process."""
    protocol = get_protocol(state.config.protocol)
    protocol.prepare(state)
    gateway = make_gateway(state, hooks)
    while (step := protocol.next_step(state)) is not None:
        await protocol.run_step(state, step, hooks, gateway)
