"""The built-in simulated model: litellm provider ``sim``, models ``sim/<name>``.

No network. Output is valid for every engine schema, mentions the question's own
words, and is a pure function of (options.seed, call seed, model, schema, phase,
round, agent name, hints). Latency and faults are configurable so the engine's
concurrency, retries, repairs and fallbacks can be exercised without a provider.

Everything a call needs arrives in ``litellm_params["metadata"]["council"]`` (the
gateway puts it there); absent options fall back to the ``COUNCIL_SIM_*`` environment
variables. See docs/simulator.md.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from debates.engine.language import detect_language
from debates.engine.llm_env import litellm, register_sim_provider
from debates.engine.schemas import SimulatorOptions
from debates.engine.sim_config import (  # noqa: F401 - re-exported for callers and tests
    DOWN_MESSAGE,
    ENV_FAULTS,
    ENV_LATENCY,
    ENV_SCRIPT,
    ENV_SEED,
    FAULT_KINDS,
    SimScript,
    SimScriptAgent,
    SimScriptRound,
    _parse_script,
    effective_options,
    load_sim_script,
    parse_faults,
    simulator_options_from_env,
    stable_hash,
)

# =========================================================================== helpers


def _rng(*parts: Any) -> random.Random:
    return random.Random(stable_hash(*parts))


_EN_STOP = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    either few for from further had has have having he her here hers him his how i if in
    into is it its itself just let like make may me might more most must my no nor not now
    of off on once only or other our ours out over own per rather same shall she should so
    some such than that the their theirs them then there these they this those through to
    too under until up upon us very via was we were what when where whether which while who
    whom why will with within without would you your yours yes vs versus next year years
    month months week weeks day days new good best better worth really instead already still
    go going get getting move moving use using want need needs switch adopt start stop keep
    think team teams company our current""".split()
)

_ZH_SPLIT = sorted(
    """我们 你们 他们 是否 应该 还是 要不要 是不是 能不能 可以 需要 如何 怎么 怎样 什么 为什么
    哪个 一个 这个 那个 这些 那些 现在 今年 明年 目前 已经 因为 所以 如果 或者 以及 并且
    而且 还有 的 了 吗 呢 吧 啊 是 在 把 和 与 或 对 将 会 能 从 到 给 用 让 被 就 都 也 还 并
    而 及 于 该 要 去 来 做 个 我 你 他 她 它 其 下个 下周 下月 季度 明天
    今天 本月 本周""".split(),
    key=len,
    reverse=True,
)
_ZH_SPLIT_RE = re.compile("|".join(re.escape(w) for w in _ZH_SPLIT))


def salient_phrases(question: str, language: str | None = None, limit: int = 6) -> list[str]:
    """The question's own content words and short phrases, most distinctive first."""
    language = language or detect_language(question)
    found: list[str] = []

    def add(phrase: str) -> None:
        phrase = phrase.strip(" .,;:!?\"'()[]")
        if phrase and phrase.lower() not in {p.lower() for p in found}:
            found.append(phrase)

    if language == "zh":
        runs = re.findall(r"[\u3400-\u9fff\uf900-\ufaff]+|[A-Za-z][A-Za-z0-9+#.\-]*", question)
        pieces: list[str] = []
        for run in runs:
            if run.isascii():
                if run.lower() not in _EN_STOP and len(run) > 1:
                    pieces.append(run)
                continue
            for piece in _ZH_SPLIT_RE.split(run):
                if 2 <= len(piece) <= 8:
                    pieces.append(piece)
                elif len(piece) > 8:
                    pieces.append(piece[:6])
        # Longer pieces and Latin names are usually the subject; two-character pieces
        # are often verbs or time words.
        for piece in sorted(pieces, key=lambda p: (not p.isascii() and len(p) < 3, -len(p))):
            add(piece)
    else:
        tokens = re.findall(r"[A-Za-z][A-Za-z0-9+#\-']*(?:\.[A-Za-z0-9]+)*", question)
        # Case is kept for names: inner capitals or digits ("PostgreSQL", "S3"), or a
        # capital anywhere but at the start of the question.
        words = [
            t if _looks_proper(t) or (i > 0 and t[:1].isupper()) else t.lower()
            for i, t in enumerate(tokens)
        ]

        def content(word: str) -> bool:
            if word.lower() in _EN_STOP:
                return False
            return len(word) > 2 or (len(word) == 2 and word.isupper())

        # Runs of adjacent content words read as noun phrases ("billing service");
        # single lower-case words are often verbs, so they come last.
        chunk: list[str] = []
        for word in [*words, ""]:
            if word and content(word):
                chunk.append(word)
                continue
            if len(chunk) >= 2:
                add(" ".join(chunk[-3:]))
            chunk = []
        for word in words:
            if content(word) and word != word.lower():
                add(word)
        for word in sorted((w for w in words if content(w)), key=len, reverse=True):
            add(word)
    if not found:
        found = ["这个决定"] if language == "zh" else ["this decision"]
    return found[:limit]


def _looks_proper(word: str) -> bool:
    return any(ch.isupper() for ch in word[1:]) or any(ch.isdigit() for ch in word)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


# Settings, env defaults and scripts live in sim_config (no litellm import there).
# =========================================================================== text banks
#
# Placeholders: {t} a phrase from the question, {a} and {b} aspects of a decision.

ASPECTS = {
    "en": [
        "the migration cost",
        "team capacity",
        "the timeline",
        "operational risk",
        "user adoption",
        "long-term maintenance",
        "reversibility",
        "vendor lock-in",
        "data quality",
        "security exposure",
        "onboarding new people",
        "the support burden",
        "budget headroom",
        "customer trust",
        "integration effort",
        "performance under load",
        "regulatory exposure",
        "opportunity cost",
    ],
    "zh": [
        "迁移成本",
        "团队能力",
        "时间表",
        "运维风险",
        "用户采纳",
        "长期维护",
        "可逆性",
        "供应商锁定",
        "数据质量",
        "安全暴露面",
        "新人上手",
        "支持负担",
        "预算余量",
        "客户信任",
        "集成工作量",
        "高负载下的性能",
        "合规风险",
        "机会成本",
    ],
}

STANCES = {
    "en": {
        "for": [
            "Go ahead with {t}, but stage it so {a} can be checked before full commitment.",
            "Support {t}: the upside outweighs the risk to {a}, given a clear exit point.",
            "Commit to {t} now; waiting mostly adds cost, and {a} is manageable with a pilot.",
        ],
        "against": [
            "Do not proceed with {t} yet; the exposure on {a} is not understood well enough.",
            "Hold off on {t} until {a} has been tested at small scale.",
            "Decline {t} for now: the case rests on {a} behaving better than it usually does.",
        ],
        "conditional": [
            "Proceed with {t} only if {a} can be secured first; otherwise wait a quarter.",
            "Run a time-boxed trial of {t} and decide on the evidence about {a}.",
            "Back {t} in a reduced scope, keeping {b} as the explicit fallback.",
        ],
    },
    "zh": {
        "for": [
            "支持推进{t}，但要分阶段进行，先验证{a}再全面投入。",
            "赞成{t}：收益大于{a}方面的风险，前提是保留明确的退出点。",
            "现在就投入{t}；继续等待只会增加成本，{a}可以通过试点来控制。",
        ],
        "against": [
            "暂不推进{t}；我们对{a}方面的风险了解还不够。",
            "先搁置{t}，直到{a}在小范围内得到验证。",
            "目前不建议{t}：这个方案依赖{a}表现得比通常更好。",
        ],
        "conditional": [
            "只有在先解决{a}的前提下才推进{t}，否则推迟一个季度。",
            "对{t}做一次限时试验，根据{a}方面的证据再做决定。",
            "以缩小的范围支持{t}，同时把{b}作为明确的备选方案。",
        ],
    },
}

REASONS = {
    "en": [
        "{t} changes how {a} is handled, and that is where most of the value sits.",
        "The main cost of {t} is not the build but {a} over the following year.",
        "If {t} goes wrong, {a} is what we would notice first, so measure it from day one.",
        "Teams in a similar spot usually underestimate {a}; the plan for {t} should budget for it.",
        "{t} is easier to reverse early than late, which argues for a staged commitment.",
        "The strongest argument for {t} is its effect on {a}, but it depends on {b} holding up.",
        "Any figures quoted about {t} need verification before they carry weight.",
        "{a} and {b} pull in different directions here; {t} forces us to choose between them.",
        "The status quo has hidden costs in {a} that make {t} look better than it first appears.",
        "Without a clear owner for {a}, {t} will drift regardless of the decision.",
    ],
    "zh": [
        "{t}改变了{a}的处理方式，而主要价值正体现在这里。",
        "{t}的主要成本不在于实施本身，而在于之后一年的{a}。",
        "如果{t}出问题，最先暴露的会是{a}，因此应从第一天起就加以衡量。",
        "处境相似的团队通常低估{a}；{t}的计划应为此预留余量。",
        "{t}越早越容易回退，这支持分阶段投入。",
        "支持{t}的最有力理由是它对{a}的影响，但这取决于{b}是否稳定。",
        "关于{t}的任何具体数字都需要核实后才能作为依据。",
        "{a}和{b}在这里相互牵制；{t}迫使我们在两者之间做出取舍。",
        "现状在{a}方面有隐性成本，这让{t}比乍看之下更有吸引力。",
        "如果{a}没有明确的负责人，无论怎么决定，{t}都会逐渐失控。",
    ],
}

ASSUMPTIONS = {
    "en": [
        "{a} stays roughly where it is today while {t} is under way.",
        "The people who would own {t} remain available for the next two quarters.",
        "Nothing outside our control forces a decision on {t} before a pilot can finish.",
        "{b} can absorb the extra load that {t} brings.",
        "Users will accept a short period of disruption around {a}.",
        "We can measure {a} well enough to tell whether {t} is working.",
    ],
    "zh": [
        "在推进{t}期间，{a}大体保持现状。",
        "负责{t}的人员在接下来两个季度内保持可用。",
        "在试点完成之前，没有外部因素迫使我们就{t}做出决定。",
        "{b}能够承受{t}带来的额外负担。",
        "用户能够接受围绕{a}的短期波动。",
        "我们能够足够准确地衡量{a}，从而判断{t}是否奏效。",
    ],
}

PREMORTEM_OPEN = {
    "en": [
        "Nine months after committing to {t}, the effort was quietly wound down.",
        "A year on, {t} is remembered as the project that ate the roadmap.",
        "Six months in, {t} was technically finished but nobody relied on it.",
        "By the end of the year, {t} had turned into a permanent half-migration.",
    ],
    "zh": [
        "在决定推进{t}九个月后，这项工作被悄悄叫停了。",
        "一年之后，人们提起{t}，只记得它吞掉了整个路线图。",
        "六个月后，{t}在技术上已经完成，却没有人真正依赖它。",
        "到年底，{t}变成了一场永远做不完的半迁移。",
    ],
}

PREMORTEM_MIDDLE = {
    "en": [
        "The first warning came from {a}, which turned out to be far harder than planned.",
        "{a} was treated as a detail, and it became the bottleneck for everything else.",
        "Nobody owned {a}, so problems there surfaced only when customers complained.",
        "The pilot looked fine because it avoided {a}; the full rollout did not have that luxury.",
    ],
    "zh": [
        "最早的预警来自{a}，它比计划中困难得多。",
        "{a}被当作细节处理，最终却成了所有工作的瓶颈。",
        "{a}没有负责人，问题直到客户投诉时才暴露出来。",
        "试点看起来很顺利，是因为它绕开了{a}；全面推广时却无法回避。",
    ],
}

PREMORTEM_CLOSE = {
    "en": [
        "By the time anyone revisited the decision, reversing it cost more than pushing through.",
        "Meanwhile {b} degraded quietly, which is what finally forced the rethink.",
        "The team spent its credibility defending {t} instead of adjusting the plan.",
    ],
    "zh": [
        "等到有人重新审视这个决定时，回退的代价已经超过了硬着头皮继续。",
        "与此同时，{b}在悄悄恶化，这最终迫使大家重新考虑。",
        "团队把信誉花在为{t}辩护上，而不是调整计划。",
    ],
}

ROOT_CAUSES = {
    "en": [
        "{a} was estimated from optimism rather than from comparable past work.",
        "No explicit exit criteria for {t} were agreed up front.",
        "The decision on {t} was made before the people affected by {a} were consulted.",
        "{b} competed for the same people and always won.",
        "Success of {t} was never defined in measurable terms.",
        "Dependencies on {a} were discovered only after the commitment was public.",
        "The plan assumed {t} could run alongside normal work without slowing it down.",
        "Early doubts about {b} were read as resistance rather than as information.",
    ],
    "zh": [
        "{a}的估算基于乐观预期，而不是以往可比的经验。",
        "事先没有为{t}约定明确的退出标准。",
        "在征求受{a}影响的人的意见之前就做出了{t}的决定。",
        "{b}与之争夺同一批人手，而且总是胜出。",
        "从未用可衡量的方式定义{t}的成功。",
        "对{a}的依赖直到公开承诺之后才被发现。",
        "计划假设{t}可以与日常工作并行而不拖慢进度。",
        "对{b}的早期疑虑被当成了抵触，而不是有用的信息。",
    ],
}

SIGNALS = {
    "en": [
        "Estimates for {a} slip twice in a row.",
        "The pilot team starts working around {t} instead of through it.",
        "Questions about {b} go unanswered for more than a sprint.",
        "Support tickets mentioning {a} rise after each release.",
        "Nobody can say who decides when {t} is done.",
    ],
    "zh": [
        "{a}的估算连续两次延期。",
        "试点团队开始绕开{t}而不是通过它完成工作。",
        "关于{b}的问题超过一个迭代都无人回应。",
        "每次发布后提到{a}的工单都在增加。",
        "没有人说得清由谁来判定{t}已经完成。",
    ],
}

# Each claim has several phrasings sharing its content words, so a later round can say
# the same thing again in other words: a near-duplicate detector must see it as old.
DISAGREEMENTS: dict[str, list[tuple[str, ...]]] = {
    "en": [
        (
            "I still think the cost of {a} for {t} is underestimated.",
            "The cost of {a} for {t} still looks underestimated to me.",
            "Underestimated, in my view: the {a} cost that {t} carries.",
        ),
        (
            "The plan for {t} does not say who owns {a}.",
            "Who owns {a} remains unclear in the {t} plan.",
            "Ownership of {a} is still missing from the plan for {t}.",
        ),
        (
            "Others treat {b} as solved, but {t} makes {b} harder, not easier.",
            "{t} makes {b} harder rather than easier, though others treat it as solved.",
            "Treating {b} as solved ignores that {t} makes it harder.",
        ),
        (
            "The upside of {t} depends on {a} improving, which nobody has shown.",
            "Nobody has shown {a} improving, yet the upside of {t} depends on it.",
            "That {a} will improve is assumed, not shown; the {t} upside depends on it.",
        ),
        (
            "A staged rollout of {t} delays the learning we actually need about {a}.",
            "The learning we need about {a} gets delayed by staging {t}.",
            "Staging the {t} rollout delays what we must learn about {a}.",
        ),
        (
            "Reversing {t} later will be harder than the optimists on this panel suggest.",
            "The optimists here understate how hard reversing {t} later will be.",
            "Later reversal of {t}: harder than this panel's optimists suggest.",
        ),
    ],
    "zh": [
        (
            "我仍然认为{t}在{a}方面的成本被低估了。",
            "我依然认为{t}在{a}方面的成本被低估。",
            "{t}在{a}方面的成本，我认为仍被低估了。",
        ),
        (
            "{t}的计划没有说明由谁负责{a}。",
            "{t}的计划仍没有说明{a}由谁负责。",
            "由谁负责{a}，{t}的计划没有说明。",
        ),
        (
            "其他人把{b}当作已解决的问题，但{t}会让{b}更难而不是更容易。",
            "{t}会让{b}更难而不是更容易，尽管其他人把它当作已解决的问题。",
            "其他人把{b}当作已解决，但{t}只会让{b}更难。",
        ),
        (
            "{t}的收益取决于{a}的改善，而这一点没有人证明过。",
            "没有人证明过{a}会改善，而{t}的收益取决于此。",
            "{t}的收益取决于{a}改善，这一点仍没有人证明过。",
        ),
        (
            "分阶段推进{t}会推迟我们真正需要的关于{a}的认识。",
            "我们真正需要的关于{a}的认识，会因分阶段推进{t}而推迟。",
            "分阶段推进{t}，会推迟我们需要的关于{a}的认识。",
        ),
    ],
}

CONCESSIONS: dict[str, list[tuple[str, ...]]] = {
    "en": [
        (
            "The point about {a} is stronger than I allowed; it changes the timing of {t}.",
            "I allowed too little for the {a} point; it does change when {t} should happen.",
        ),
        (
            "I accept that a pilot of {t} answers most of my worry about {b}.",
            "Most of my worry about {b} is answered by a pilot of {t}, I accept.",
        ),
        (
            "The argument that doing nothing also costs {a} is fair.",
            "Fair point: doing nothing costs {a} too.",
        ),
        (
            "I had not weighed {b}; it makes {t} more attractive than I said.",
            "Weighing {b}, which I had not, makes {t} more attractive than I said.",
        ),
    ],
    "zh": [
        (
            "关于{a}的论点比我认为的更有力，它改变了{t}的时机。",
            "我低估了关于{a}的论点，它确实改变了{t}的时机。",
        ),
        (
            "我接受：对{t}做试点可以回答我对{b}的大部分担忧。",
            "我对{b}的大部分担忧，可以通过{t}的试点得到回答，我接受这一点。",
        ),
        (
            "“什么都不做同样要付出{a}的代价”这一论点是公允的。",
            "公允地说，什么都不做也要付出{a}的代价。",
        ),
        (
            "我之前没有考虑{b}，它让{t}比我说的更有吸引力。",
            "考虑到我之前忽略的{b}，{t}比我说的更有吸引力。",
        ),
    ],
}

EVIDENCE: dict[str, list[tuple[str, ...]]] = {
    "en": [
        (
            "Actual numbers on {a} from a comparable effort (needs verification).",
            "Numbers from a comparable effort on {a} (needs verification).",
        ),
        (
            "A small pilot of {t} with an agreed success measure.",
            "An agreed success measure tested in a small {t} pilot.",
        ),
        (
            "Input from the people who would carry {b} day to day.",
            "Day-to-day input from whoever would carry {b}.",
        ),
        (
            "An honest estimate of what reversing {t} would cost after six months.",
            "What reversing {t} after six months would cost, estimated honestly.",
        ),
    ],
    "zh": [
        (
            "来自可比项目的{a}实际数据（需要核实）。",
            "可比项目中关于{a}的数据（需要核实）。",
        ),
        (
            "一次带有约定成功标准的{t}小规模试点。",
            "在小规模{t}试点中检验约定的成功标准。",
        ),
        (
            "日常承担{b}的人的意见。",
            "来自日常承担{b}的人的意见。",
        ),
        (
            "对六个月后回退{t}的成本的如实估计。",
            "如实估计六个月后回退{t}需要的成本。",
        ),
    ],
}

REFLECTIONS = {
    "en": [
        "Hearing the others on {a} made me separate what I know about {t} from what I assume.",
        "The strongest challenge was about {a}; I have not fully answered it yet.",
        "We agree more on {t} than the stances suggest; the real split is over {a}.",
        "My view on {t} held up, but I now see {b} as the deciding factor.",
        "The debate moved from whether to do {t} to how to limit exposure on {a}.",
    ],
    "zh": [
        "听了大家关于{a}的意见，我把自己对{t}确实知道的和只是假设的区分开了。",
        "最有力的质疑是关于{a}的，我还没有完全回应。",
        "我们在{t}上的共识比立场看起来更多，真正的分歧在于{a}。",
        "我对{t}的看法站得住，但现在我认为{b}才是决定性因素。",
        "讨论已经从要不要做{t}，转向如何控制{a}方面的风险。",
    ],
}

UPDATED_POSITIONS = {
    "en": [
        "Proceed with {t} in a narrower scope, with {a} checked at a fixed review point.",
        "Still cautious on {t}, but a time-boxed pilot focused on {a} is acceptable.",
    ],
    "zh": [
        "以更小的范围推进{t}，并在固定的评审节点检查{a}。",
        "对{t}仍持谨慎态度，但可以接受聚焦于{a}的限时试点。",
    ],
}

CONSENSUS = {
    "en": [
        "Whatever is decided about {t}, {a} needs a named owner.",
        "A reversible first step on {t} is preferable to a big-bang commitment.",
        "Success criteria for {t} should be written down before work starts.",
        "The panel agrees that {b} is the risk most likely to be underestimated.",
    ],
    "zh": [
        "无论{t}如何决定，{a}都需要明确的负责人。",
        "在{t}上，可回退的第一步优于一次性全面投入。",
        "在开始工作之前，应当写下{t}的成功标准。",
        "专家组一致认为，{b}是最容易被低估的风险。",
    ],
}

TOPICS = {
    "en": ["Timing of {t}", "Who carries {a}", "How much {b} matters", "Scope of the first step"],
    "zh": ["{t}的时机", "由谁承担{a}", "{b}有多重要", "第一步的范围"],
}

VIEWS = {
    "en": [
        "Sees {a} as the deciding factor and wants it settled first.",
        "Thinks {t} can start now if {b} is watched closely.",
        "Considers the concern about {a} overstated for a first step.",
        "Wants evidence on {b} before any commitment to {t}.",
    ],
    "zh": [
        "认为{a}是决定性因素，希望先把它解决。",
        "认为只要密切关注{b}，{t}现在就可以开始。",
        "认为对于第一步而言，关于{a}的担忧被夸大了。",
        "希望在对{t}做出任何承诺之前，先拿到关于{b}的证据。",
    ],
}

FOLLOW_UP_NOTES = {
    "en": {
        "mitigated": "Addressed by the staged plan and a clear owner for {a}.",
        "partially": "Discussed, but the plan covers {a} only for the first step.",
        "open": "Not resolved in the debate; needs its own check before committing to {t}.",
    },
    "zh": {
        "mitigated": "已通过分阶段计划和明确的{a}负责人加以应对。",
        "partially": "有所讨论，但计划只在第一步覆盖了{a}。",
        "open": "讨论中未解决；在对{t}做出承诺之前需要单独核查。",
    },
}

PATH = {
    "en": {
        "stakes": [
            "What is at stake is {a} over the next year, not just the cost of {t} itself.",
            "The decision on {t} shapes {a} and {b} for several planning cycles.",
        ],
        "strongest": [
            "Evidence is strongest on {a}: several panelists reached the same view independently.",
            "The case about {b} is backed by the premortems and survived cross-examination.",
        ],
        "weakest": [
            "Evidence is weakest on {b}; it rests on assumptions nobody could check.",
            "Claims about {a} were mostly estimates and need verification.",
        ],
        "dependencies": [
            "Going ahead depends on {a} being owned by someone with time to do it.",
            "Waiting depends on {b} not getting worse in the meantime.",
            "A pilot depends on agreeing its success measure before it starts.",
        ],
        "recommendation": [
            "Run a time-boxed pilot of {t} with explicit exit criteria, then decide on {a}.",
            "Proceed with {t} in reduced scope, with a review point on {a} after the first phase.",
        ],
        "risks": [
            "The pilot may be too small to reveal problems with {a}.",
            "{b} may absorb the people the plan relies on.",
            "A staged plan can turn into a permanent half-state if no one owns the next step.",
        ],
    },
    "zh": {
        "stakes": [
            "关系重大的是未来一年的{a}，而不仅仅是{t}本身的成本。",
            "{t}的决定将在多个规划周期内影响{a}和{b}。",
        ],
        "strongest": [
            "在{a}方面证据最充分：多位专家独立得出了相同的看法。",
            "关于{b}的判断得到了事前验尸分析的支持，并经受住了交叉质询。",
        ],
        "weakest": [
            "在{b}方面证据最薄弱，它依赖于无人能核实的假设。",
            "关于{a}的说法大多是估计，需要核实。",
        ],
        "dependencies": [
            "推进的前提是{a}有一位有时间投入的负责人。",
            "等待的前提是{b}在此期间不会恶化。",
            "试点的前提是事先约定成功标准。",
        ],
        "recommendation": [
            "对{t}进行一次带有明确退出标准的限时试点，再根据{a}方面的证据做决定。",
            "以缩小的范围推进{t}，并在第一阶段结束后就{a}设立评审节点。",
        ],
        "risks": [
            "试点规模可能太小，无法暴露{a}方面的问题。",
            "{b}可能占用计划所依赖的人手。",
            "如果没有人负责下一步，分阶段计划可能变成永久的半成品状态。",
        ],
    },
}

DIVERGENCE = {
    "en": {
        "summary": [
            "The panel did not converge on {t}: the split over {a} is a genuine difference in "
            "values and risk appetite, not a misunderstanding.",
        ],
        "camp": [
            "Prefers to move on {t} now and manage {a} as it comes.",
            "Wants {a} settled before any commitment to {t}.",
        ],
        "resolve": [
            "A small, measured pilot of {t} focused on {a}.",
            "An explicit statement of how much risk on {b} the team will accept.",
            "Data from a comparable effort (needs verification).",
        ],
    },
    "zh": {
        "summary": [
            "专家组在{t}上没有达成一致：围绕{a}的分歧源于价值取向和风险偏好的真实差异，而不是误解。",
        ],
        "camp": [
            "倾向于现在就推进{t}，在过程中处理{a}。",
            "希望在对{t}做出任何承诺之前先解决{a}。",
        ],
        "resolve": [
            "一次聚焦于{a}、可衡量的小规模{t}试点。",
            "明确说明团队愿意在{b}上承担多大风险。",
            "来自可比项目的数据（需要核实）。",
        ],
    },
}

VERIFIER_WHY = {
    "en": "A specific, checkable statement that the debate could not verify.",
    "zh": "这是一个具体、可核查的说法，讨论中无法对其进行核实。",
}

JUNK_REPLIES = ["I think so!", "Sure, happy to help with that.", "Yes.", "Hmm, it depends."]


# =========================================================================== personas

_EN_FIRST = [
    "Dana",
    "Miguel",
    "Priya",
    "Tomasz",
    "Aisha",
    "Jonas",
    "Mei",
    "Rafael",
    "Ingrid",
    "Kwame",
    "Sofia",
    "Hiro",
    "Leila",
    "Owen",
    "Nadia",
    "Marcus",
    "Elena",
    "Tariq",
    "Greta",
    "Samuel",
]
_EN_LAST = [
    "Reyes",
    "Okafor",
    "Lindqvist",
    "Nakamura",
    "Haddad",
    "Moreau",
    "Kowalski",
    "Banerjee",
    "Costa",
    "Fischer",
    "Adeyemi",
    "Sato",
    "Novak",
    "Whitfield",
    "Duarte",
    "Brennan",
]
_ZH_SURNAME = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗")
_ZH_GIVEN = [
    "思远",
    "雨桐",
    "嘉怡",
    "浩然",
    "子涵",
    "明哲",
    "欣怡",
    "俊杰",
    "晓峰",
    "婉清",
    "志强",
    "若溪",
    "文博",
    "静怡",
    "天宇",
    "佳琪",
]


@dataclass(frozen=True)
class _Archetype:
    key: str
    kind: str  # "skeptic", "frame" or "expert"
    expertise: dict[str, str]
    background: dict[str, str]
    approach: dict[str, str]
    bias: dict[str, str]


ARCHETYPES: list[_Archetype] = [
    _Archetype(
        "red_team",
        "skeptic",
        {"en": "risk analysis and red-teaming", "zh": "风险分析与红队演练"},
        {
            "en": "Spent a decade running post-incident reviews and pre-launch risk audits, "
            "first in operations and later as an independent reviewer for leadership teams.",
            "zh": "花了十年时间主持事故复盘和上线前风险审计，"
            "先在运维团队，后来作为管理层的独立评审人。",
        },
        {
            "en": "Structurally skeptical: assumes the plan for {t} fails and hunts for the "
            "weakest link before weighing any upside.",
            "zh": "结构性怀疑者：先假设{t}的计划会失败，在权衡任何收益之前先找出最薄弱的环节。",
        },
        {
            "en": "Has seen confident plans collapse on {a}, so discounts optimistic estimates "
            "about {t}.",
            "zh": "见过太多自信满满的计划在{a}上翻车，因此会对关于{t}的乐观估计打折扣。",
        },
    ),
    _Archetype(
        "systems",
        "frame",
        {"en": "systems thinking and organisational dynamics", "zh": "系统思维与组织动力学"},
        {
            "en": "Trained as an engineer, then moved into organisational design, mapping how "
            "incentives and feedback loops shape what teams actually do.",
            "zh": "工程师出身，后转向组织设计，研究激励和反馈回路如何塑造团队的实际行为。",
        },
        {
            "en": "Looks at {t} as a system of feedback loops and second-order effects rather "
            "than a list of pros and cons.",
            "zh": "把{t}看作由反馈回路和二阶效应构成的系统，而不是一张利弊清单。",
        },
        {
            "en": "Distrusts local optimisations; cares about how {t} reshapes incentives "
            "around {a} over years.",
            "zh": "不信任局部优化，关心{t}在未来几年如何重塑围绕{a}的激励。",
        },
    ),
    _Archetype(
        "ethnographer",
        "frame",
        {"en": "user research and ethnography of work", "zh": "用户研究与工作人类学"},
        {
            "en": "Has spent years observing how people really use tools at work, often "
            "finding that the official process and the lived one differ.",
            "zh": "多年来观察人们在工作中如何真正使用工具，常常发现官方流程与实际做法并不一致。",
        },
        {
            "en": "Starts from what people do day to day with {t}, not from the plan on paper.",
            "zh": "从人们日常如何与{t}打交道出发，而不是从纸面计划出发。",
        },
        {
            "en": "Expects the human side of {a} to decide the outcome more than the technology.",
            "zh": "认为{a}中人的因素比技术更能决定结果。",
        },
    ),
    _Archetype(
        "historian",
        "frame",
        {"en": "history of technology transitions", "zh": "技术变迁史"},
        {
            "en": "Writes and teaches about past technology transitions and how organisations "
            "lived through them.",
            "zh": "研究并讲授过去的技术变迁，以及组织如何度过这些变迁。",
        },
        {
            "en": "Reasons by analogy: asks which earlier transitions {t} resembles and how "
            "those played out.",
            "zh": "以类比推理：追问{t}与哪些历史上的变迁相似，以及它们最终如何收场。",
        },
        {
            "en": "Believes most transitions like {t} take longer than planned and succeed "
            "for reasons nobody predicted.",
            "zh": "认为像{t}这样的变迁大多比计划更久，而且成功的原因往往出人意料。",
        },
    ),
    _Archetype(
        "engineer",
        "expert",
        {"en": "hands-on engineering and delivery", "zh": "一线工程与交付"},
        {
            "en": "Has led delivery of several platform changes end to end, from prototype to "
            "the long tail of support.",
            "zh": "主导过多次平台变更的端到端交付，从原型一直到漫长的后期支持。",
        },
        {
            "en": "Breaks {t} into concrete steps and asks what the first reversible one is.",
            "zh": "把{t}拆成具体步骤，并追问第一步可回退的动作是什么。",
        },
        {
            "en": "Leans towards action on {t}, trusting the team to handle {a} along the way.",
            "zh": "倾向于对{t}采取行动，相信团队能在过程中处理好{a}。",
        },
    ),
    _Archetype(
        "finance",
        "expert",
        {"en": "finance and budgeting", "zh": "财务与预算"},
        {
            "en": "Spent years as a finance partner to product teams, reviewing business cases "
            "and tracking which ones paid off.",
            "zh": "多年担任产品团队的财务伙伴，审阅商业论证并追踪哪些真正带来了回报。",
        },
        {
            "en": "Compares the full cost of {t}, including {a}, with the cost of doing nothing.",
            "zh": "把{t}的全部成本（包括{a}）与什么都不做的成本进行比较。",
        },
        {
            "en": "Wary of {t} because similar projects overran on {a}.",
            "zh": "对{t}持谨慎态度，因为类似项目曾在{a}上超支。",
        },
    ),
    _Archetype(
        "product",
        "expert",
        {"en": "product management", "zh": "产品管理"},
        {
            "en": "Has shipped products for both small teams and large customers and learned to "
            "weigh user value against delivery risk.",
            "zh": "为小团队和大客户都交付过产品，学会了在用户价值与交付风险之间权衡。",
        },
        {
            "en": "Asks what {t} changes for users and how quickly that can be observed.",
            "zh": "追问{t}会给用户带来什么变化，以及多快能观察到这种变化。",
        },
        {
            "en": "Optimistic about {t} when it visibly improves {a} for users.",
            "zh": "只要{t}能明显改善用户的{a}，就持乐观态度。",
        },
    ),
    _Archetype(
        "operations",
        "expert",
        {"en": "operations and reliability", "zh": "运维与可靠性"},
        {
            "en": "Has carried the pager for production systems and led on-call rotations "
            "through several migrations.",
            "zh": "长期负责生产系统的值班，并在多次迁移中带领值班轮换。",
        },
        {
            "en": "Judges {t} by what it does to incidents, recovery time and {a}.",
            "zh": "根据{t}对故障数量、恢复时间和{a}的影响来评判它。",
        },
        {
            "en": "Will support {t} only with a rollback plan, having cleaned up after rushed "
            "changes before.",
            "zh": "只有在有回滚方案的前提下才支持{t}，因为曾经为仓促的变更收拾过残局。",
        },
    ),
    _Archetype(
        "compliance",
        "expert",
        {"en": "legal and compliance", "zh": "法务与合规"},
        {
            "en": "Advises teams on contracts, data protection and audits, usually brought in "
            "late and asked to sign off quickly.",
            "zh": "为团队提供合同、数据保护和审计方面的建议，"
            "常常在后期才被拉进来并被要求迅速签字。",
        },
        {
            "en": "Traces the obligations {t} creates and who would answer for {a}.",
            "zh": "梳理{t}带来的义务，以及谁将对{a}负责。",
        },
        {
            "en": "Neutral on {t} itself but insistent that {a} is documented before commitment.",
            "zh": "对{t}本身保持中立，但坚持在承诺之前把{a}记录清楚。",
        },
    ),
    _Archetype(
        "data",
        "expert",
        {"en": "data analysis and experimentation", "zh": "数据分析与实验"},
        {
            "en": "Has designed experiments and metrics for many launches, including several "
            "whose results contradicted the original plan.",
            "zh": "为许多次发布设计过实验和指标，其中好几次的结果与最初计划相反。",
        },
        {
            "en": "Wants {t} framed as a testable hypothesis with a measure for {a}.",
            "zh": "希望把{t}表述为可检验的假设，并为{a}设定衡量指标。",
        },
        {
            "en": "Suspicious of any claim about {t} that has no number attached.",
            "zh": "对任何没有数据支撑的关于{t}的说法都持怀疑态度。",
        },
    ),
    _Archetype(
        "founder",
        "expert",
        {"en": "early-stage company building", "zh": "初创公司建设"},
        {
            "en": "Founded two small companies, one of which failed by moving too slowly.",
            "zh": "创办过两家小公司，其中一家因为行动太慢而失败。",
        },
        {
            "en": "Weighs the speed {t} buys against {a}, and usually favours speed.",
            "zh": "权衡{t}带来的速度与{a}，通常更看重速度。",
        },
        {
            "en": "Impatient with long deliberation about {t}; believes the market will not wait.",
            "zh": "对围绕{t}的长时间讨论缺乏耐心，认为市场不会等待。",
        },
    ),
    _Archetype(
        "support",
        "expert",
        {"en": "customer support and success", "zh": "客户支持与成功"},
        {
            "en": "Has run support teams through several product changes and heard first-hand "
            "what customers struggle with.",
            "zh": "在多次产品变更中带领支持团队，亲耳听到客户遇到的困难。",
        },
        {
            "en": "Reads {t} through the questions customers will ask the week after launch.",
            "zh": "从上线后一周客户会提出的问题来审视{t}。",
        },
        {
            "en": "Protective of customer trust; expects {t} to add to the support burden.",
            "zh": "重视客户信任，预计{t}会增加支持负担。",
        },
    ),
]


# =========================================================================== generation


@dataclass
class _Ctx:
    """One simulated call: everything its output may depend on."""

    model: str
    schema: str
    phase: str
    round: int
    agent: int
    agent_name: str | None
    hints: dict[str, Any]
    options: SimulatorOptions
    call_seed: int | None
    question: str
    language: str
    json_schema: dict[str, Any] | None = None
    script: SimScript | None = None
    phrases: list[str] = field(default_factory=list)

    def rng(self, *extra: Any) -> random.Random:
        return _rng(
            self.options.seed,
            self.call_seed,
            self.model,
            self.schema,
            self.phase,
            self.round,
            self.agent_name,
            self.hints,
            *extra,
        )

    def agent_rng(self, *extra: Any) -> random.Random:
        """Ignores the round and round-specific hints: the same agent across rounds."""
        return _rng(
            self.options.seed, self.call_seed, self.model, self.agent_name, self.question, *extra
        )


class _Writer:
    def __init__(self, ctx: _Ctx, rng: random.Random) -> None:
        self.ctx = ctx
        self.rng = rng
        self.lang = ctx.language

    def slots(self) -> dict[str, str]:
        aspects = self.rng.sample(ASPECTS[self.lang], 2)
        # The question's leading phrases are the most distinctive; favour them.
        phrases = self.ctx.phrases
        weights = [1.0 / (i + 1) for i in range(len(phrases))]
        topic = self.rng.choices(phrases, weights=weights)[0]
        return {"t": topic, "a": aspects[0], "b": aspects[1]}

    def fill(self, template: str, slots: dict[str, str] | None = None) -> str:
        text = template.format(**(slots or self.slots()))
        return _cap(text) if self.lang == "en" else text

    def one(self, bank: Mapping[str, list[str]]) -> str:
        return self.fill(self.rng.choice(bank[self.lang]))

    def many(self, bank: Mapping[str, list[str]], low: int, high: int) -> list[str]:
        templates = bank[self.lang]
        k = min(len(templates), self.rng.randint(low, high))
        return [self.fill(t) for t in self.rng.sample(templates, k)]


def _compose(ctx: _Ctx) -> dict[str, Any]:
    rng = ctx.rng()
    writer = _Writer(ctx, rng)
    n = int(ctx.hints.get("n") or 5)
    n = max(1, min(n, 24))
    reserved = {str(name).strip().lower() for name in ctx.hints.get("reserved_names") or []}

    names: list[str] = []
    if ctx.script:
        names = [a.name for a in ctx.script.agents if a.name.lower() not in reserved][:n]
    taken = reserved | {name.lower() for name in names}
    while len(names) < n:
        if ctx.language == "zh":
            name = rng.choice(_ZH_SURNAME) + rng.choice(_ZH_GIVEN)
        else:
            name = f"{rng.choice(_EN_FIRST)} {rng.choice(_EN_LAST)}"
        if name.lower() not in taken:
            taken.add(name.lower())
            names.append(name)

    skeptic = next(a for a in ARCHETYPES if a.kind == "skeptic")
    frames = [a for a in ARCHETYPES if a.kind == "frame"]
    frame = rng.choice(frames)
    others = [a for a in ARCHETYPES if a is not skeptic and a is not frame]
    rng.shuffle(others)
    chosen = [skeptic, frame, *others][:n] if n >= 2 else [skeptic]
    while len(chosen) < n:
        chosen.append(others[len(chosen) % len(others)])
    rng.shuffle(chosen)

    personas = []
    for name, archetype in zip(names, chosen, strict=True):
        slots = writer.slots()
        personas.append(
            {
                "name": name,
                "background": archetype.background[ctx.language],
                "expertise": archetype.expertise[ctx.language],
                "approach": writer.fill(archetype.approach[ctx.language], slots),
                "bias": writer.fill(archetype.bias[ctx.language], slots),
            }
        )
    return {"personas": personas}


def _premortem(ctx: _Ctx) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    slots = writer.slots()
    scenario_parts = [
        writer.fill(writer.rng.choice(PREMORTEM_OPEN[ctx.language]), slots),
        writer.fill(writer.rng.choice(PREMORTEM_MIDDLE[ctx.language]), slots),
        writer.fill(writer.rng.choice(PREMORTEM_CLOSE[ctx.language]), slots),
    ]
    joiner = "" if ctx.language == "zh" else " "
    return {
        "failure_scenario": joiner.join(scenario_parts),
        "root_causes": writer.many(ROOT_CAUSES, 2, 4),
        "early_warning_signals": writer.many(SIGNALS, 1, 3),
    }


def _position(ctx: _Ctx) -> dict[str, Any]:
    rng = ctx.rng()
    writer = _Writer(ctx, rng)
    lean = ctx.agent_rng("lean").choice(["for", "against", "conditional"])
    confidence = round(rng.uniform(0.35, 0.85), 2)
    scripted = ctx.script.agent(ctx.agent_name) if ctx.script else None
    if scripted and scripted.position_confidence is not None:
        confidence = scripted.position_confidence
    return {
        "stance": writer.fill(rng.choice(STANCES[ctx.language][lean])),
        "reasoning": writer.many(REASONS, 2, 4),
        "confidence": confidence,
        "key_assumptions": writer.many(ASSUMPTIONS, 1, 3),
    }


_Item = tuple[int, dict[str, str]]  # (claim index in its bank, slot values)


def _fresh_items(
    ctx: _Ctx,
    rng: random.Random,
    bank: Mapping[str, list[tuple[str, ...]]],
    k: int,
    exclude: set[int],
) -> list[_Item]:
    claims = [i for i in range(len(bank[ctx.language])) if i not in exclude]
    writer = _Writer(ctx, rng)
    return [(i, writer.slots()) for i in rng.sample(claims, min(k, len(claims)))]


def _exam_items(ctx: _Ctx, round_: int) -> dict[str, list[_Item]]:
    """Round r's items: round 1 fresh; later rounds mostly round r-1's claims again."""
    rng = ctx.agent_rng("exam-items", round_)
    if round_ <= 1:
        return {
            "remaining_disagreements": _fresh_items(
                ctx, rng, DISAGREEMENTS, rng.randint(1, 3), set()
            ),
            "concessions": _fresh_items(ctx, rng, CONCESSIONS, rng.randint(0, 2), set()),
            "new_evidence_needed": _fresh_items(ctx, rng, EVIDENCE, rng.randint(0, 2), set()),
        }
    previous = _exam_items(ctx, round_ - 1)
    novelty = max(0.0, 0.35 - 0.15 * (round_ - 1))
    disagreements = [item for item in previous["remaining_disagreements"] if rng.random() < 0.85]
    if not disagreements and previous["remaining_disagreements"]:
        disagreements = previous["remaining_disagreements"][:1]
    if rng.random() < novelty:
        used = {i for i, _ in disagreements}
        disagreements += _fresh_items(ctx, rng, DISAGREEMENTS, 1, used)
    concessions = previous["concessions"][:1] if rng.random() < 0.12 else []
    evidence = [item for item in previous["new_evidence_needed"] if rng.random() < 0.6]
    if rng.random() < novelty / 3:
        used = {i for i, _ in evidence}
        evidence += _fresh_items(ctx, rng, EVIDENCE, 1, used)
    return {
        "remaining_disagreements": disagreements,
        "concessions": concessions,
        "new_evidence_needed": evidence,
    }


def _render_items(
    ctx: _Ctx, items: list[_Item], bank: Mapping[str, list[tuple[str, ...]]], round_: int
) -> list[str]:
    rendered = []
    for index, slots in items:
        variants = bank[ctx.language][index]
        # A different phrasing each round: the claim is old, the words are not.
        template = variants[(round_ - 1 + index) % len(variants)]
        text = template.format(**slots)
        rendered.append(_cap(text) if ctx.language == "en" else text)
    return rendered


def _cross_exam(ctx: _Ctx) -> dict[str, Any]:
    rng = ctx.rng()
    writer = _Writer(ctx, rng)
    round_ = int(ctx.hints.get("round") or ctx.round or 1)
    reflection = writer.one(REFLECTIONS)

    scripted = ctx.script.agent(ctx.agent_name) if ctx.script else None
    if scripted is not None:
        step = scripted.rounds[round_ - 1] if 0 < round_ <= len(scripted.rounds) else None
        if step is None:
            return {
                "concessions": [],
                "remaining_disagreements": [],
                "updated_position": None,
                "updated_confidence": None,
                "reflection": reflection,
                "new_evidence_needed": [],
            }
        return {
            "concessions": list(step.concessions),
            "remaining_disagreements": list(step.remaining_disagreements),
            "updated_position": step.updated_position,
            "updated_confidence": step.updated_confidence,
            "reflection": step.reflection or reflection,
            "new_evidence_needed": list(step.new_evidence_needed),
        }

    own = ctx.hints.get("own_confidence")
    peer_mean = ctx.hints.get("peer_mean")
    confidence: float | None
    if rng.random() < 0.2:
        confidence = None
    elif isinstance(own, int | float) and isinstance(peer_mean, int | float):
        pull = rng.uniform(0.3, 0.7)
        confidence = own + (peer_mean - own) * pull + rng.uniform(-0.02, 0.02)
        confidence = round(_clamp(confidence, 0.05, 0.95), 2)
    elif isinstance(own, int | float):
        confidence = round(_clamp(own + rng.uniform(-0.05, 0.05), 0.05, 0.95), 2)
    else:
        confidence = round(rng.uniform(0.4, 0.8), 2)

    updated_position = None
    if confidence is not None and isinstance(own, int | float) and abs(confidence - own) > 0.08:
        updated_position = writer.one(UPDATED_POSITIONS)

    items = _exam_items(ctx, round_)
    return {
        "concessions": _render_items(ctx, items["concessions"], CONCESSIONS, round_),
        "remaining_disagreements": _render_items(
            ctx, items["remaining_disagreements"], DISAGREEMENTS, round_
        ),
        "updated_position": updated_position,
        "updated_confidence": confidence,
        "reflection": reflection,
        "new_evidence_needed": _render_items(ctx, items["new_evidence_needed"], EVIDENCE, round_),
    }


def _synthesis(ctx: _Ctx) -> dict[str, Any]:
    rng = ctx.rng()
    writer = _Writer(ctx, rng)
    lang = ctx.language
    names = [str(n) for n in ctx.hints.get("agent_names") or [] if str(n).strip()]
    if not names:
        names = ["专家甲", "专家乙"] if lang == "zh" else ["Panelist A", "Panelist B"]
    risk_ids = [str(r) for r in ctx.hints.get("risk_ids") or []]

    disagreements = []
    for topic in rng.sample(TOPICS[lang], rng.randint(1, 2)):
        speakers = rng.sample(names, min(len(names), rng.randint(2, 3)))
        disagreements.append(
            {
                "topic": writer.fill(topic),
                "views": [{"agent": who, "view": writer.one(VIEWS)} for who in speakers],
            }
        )

    statuses = ["mitigated", "partially", "open"]
    follow_up = []
    for risk_id in risk_ids:
        status = rng.choice(statuses)
        follow_up.append(
            {
                "risk_id": risk_id,
                "status": status,
                "note": writer.fill(FOLLOW_UP_NOTES[lang][status]),
            }
        )

    recommended_path = None
    divergence_report = None
    if ctx.hints.get("stop_reason") == "genuine_disagreement":
        div = DIVERGENCE[lang]
        joiner = "、" if lang == "zh" else ", "
        half = max(1, len(names) // 2)
        camps = [{"agent": joiner.join(names[:half]), "view": writer.fill(div["camp"][0])}]
        if names[half:]:
            camps.append({"agent": joiner.join(names[half:]), "view": writer.fill(div["camp"][1])})
        divergence_report = {
            "summary": writer.fill(rng.choice(div["summary"])),
            "camps": camps,
            "what_would_resolve_it": [writer.fill(t) for t in rng.sample(div["resolve"], 2)],
        }
    else:
        path = PATH[lang]
        recommended_path = {
            "stakes": writer.fill(rng.choice(path["stakes"])),
            "strongest_evidence": writer.fill(rng.choice(path["strongest"])),
            "weakest_evidence": writer.fill(rng.choice(path["weakest"])),
            "path_dependencies": [writer.fill(t) for t in rng.sample(path["dependencies"], 2)],
            "recommendation": writer.fill(rng.choice(path["recommendation"])),
            "risks": [writer.fill(t) for t in rng.sample(path["risks"], 2)],
        }

    return {
        "consensus_points": writer.many(CONSENSUS, 1, 3),
        "disagreements": disagreements,
        "recommended_path": recommended_path,
        "divergence_report": divergence_report,
        "risk_follow_up": follow_up,
    }


_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")


def _verify(ctx: _Ctx) -> dict[str, Any]:
    rng = ctx.rng()
    text = str(ctx.hints.get("text") or "")
    language = detect_language(text) if text else ctx.language
    candidates: list[str] = []
    for match in _SENTENCE.finditer(text):
        sentence = match.group(0).strip()
        if len(sentence) < 12:
            continue
        quote = sentence if len(sentence) <= 90 else sentence[:90].rsplit(" ", 1)[0]
        if quote and quote in text:
            candidates.append(quote)
    checkable = [c for c in candidates if re.search(r"\d|%|\$|€|¥|needs verification|需要核实", c)]
    pool = checkable or candidates
    k = min(len(pool), rng.randint(0, 2))
    claims = []
    for quote in rng.sample(pool, k):
        claims.append({"quote": quote, "type": _claim_type(quote), "why": VERIFIER_WHY[language]})
    return {"claims": claims}


def _claim_type(quote: str) -> str:
    if re.search(r"[$€£¥]|\bprice|\bcost", quote, re.I):
        return "price"
    if re.search(r"\d+(\.\d+)?\s*%|percent|\d", quote):
        return "date" if re.search(r"\b(19|20)\d\d\b", quote) else "statistic"
    if re.search(r"availab|exists|registered", quote, re.I):
        return "availability"
    return "other"


def _generic(ctx: _Ctx) -> dict[str, Any]:
    """Any other schema (e.g. a later protocol's): built from its JSON schema."""
    schema = ctx.json_schema or {"type": "object", "properties": {}}
    writer = _Writer(ctx, ctx.rng())
    defs = schema.get("$defs", {})

    def build(node: dict[str, Any], name: str) -> Any:
        if "$ref" in node:
            return build(defs.get(node["$ref"].rsplit("/", 1)[-1], {}), name)
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return writer.rng.choice(node["enum"])
        for key in ("anyOf", "oneOf", "allOf"):
            if key in node:
                options = [o for o in node[key] if o.get("type") != "null"] or node[key]
                return build(options[0], name)
        kind = node.get("type", "object")
        if kind == "object":
            props = node.get("properties", {})
            return {k: build(v, k) for k, v in props.items()}
        if kind == "array":
            fewest = int(node.get("minItems", 1))
            most = max(fewest, min(int(node.get("maxItems", fewest + 2)), fewest + 2))
            count = writer.rng.randint(fewest, most)
            return [build(node.get("items", {}), name) for _ in range(count)]
        if kind in ("number", "integer"):
            low = float(node.get("minimum", node.get("exclusiveMinimum", 0)))
            high = float(node.get("maximum", node.get("exclusiveMaximum", low + 1)))
            value = writer.rng.uniform(low, high)
            return int(round(value)) if kind == "integer" else round(value, 2)
        if kind == "boolean":
            return writer.rng.random() < 0.5
        return writer.one(REASONS)

    result = build(schema, ctx.schema)
    return result if isinstance(result, dict) else {"value": result}


GENERATORS: dict[str, Callable[[_Ctx], dict[str, Any]]] = {
    "ComposedPanel": _compose,
    "Premortem": _premortem,
    "Position": _position,
    "CrossExamination": _cross_exam,
    "SynthesisNarrative": _synthesis,
    "VerifierReport": _verify,
}


def generate(ctx: _Ctx) -> dict[str, Any]:
    return GENERATORS.get(ctx.schema, _generic)(ctx)


def _break_schema(schema: str, payload: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Valid JSON that the schema rejects, the way weak models typically get it wrong."""
    broken = json.loads(json.dumps(payload))
    if schema == "Position":
        broken["confidence"] = rng.choice([1.7, -0.2, "high"])
    elif schema == "CrossExamination":
        if rng.random() < 0.5:
            broken["updated_confidence"] = 1.7
        else:
            broken.pop("reflection", None)
    elif schema == "ComposedPanel" and broken.get("personas"):
        broken["personas"][0].pop("bias", None)
    elif schema == "Premortem":
        broken["root_causes"] = []
    elif schema == "SynthesisNarrative" and broken.get("risk_follow_up"):
        broken["risk_follow_up"][0]["status"] = "resolved-ish"
    else:
        # The engine's models forbid unknown fields, so an invented one is rejected.
        broken["summary_of_my_answer"] = "see above"
    return broken


# =========================================================================== provider


@dataclass
class _Plan:
    """What one call will do: after the latency, raise ``error`` or return ``text``."""

    latency_s: float
    text: str = ""
    error: Exception | None = None
    prompt_chars: int = 0


class SimHandler(litellm.CustomLLM):  # type: ignore[misc]
    """litellm custom provider for ``sim/<name>`` models."""

    _MAX_TRACKED = 50_000

    def __init__(self) -> None:
        super().__init__()
        # Per call identity: how many times it was seen, so a retry can draw another fault.
        self._attempts: OrderedDict[int, int] = OrderedDict()
        self._lock = threading.Lock()

    def reset(self) -> None:
        with self._lock:
            self._attempts.clear()

    def _next_attempt(self, identity: int) -> int:
        with self._lock:
            count = self._attempts.pop(identity, 0)
            self._attempts[identity] = count + 1
            while len(self._attempts) > self._MAX_TRACKED:
                self._attempts.popitem(last=False)
            return count

    def plan(
        self,
        model: str,
        messages: list[dict[str, Any]],
        litellm_params: dict[str, Any] | None,
        optional_params: dict[str, Any] | None,
    ) -> _Plan:
        model = model.removeprefix("sim/")
        full_model = f"sim/{model}"
        meta = ((litellm_params or {}).get("metadata") or {}).get("council") or {}
        raw_options = meta.get("simulator")
        try:
            options = effective_options(raw_options)
            unknown = sorted(set(options.faults) - set(FAULT_KINDS))
            if unknown:
                raise ValueError(f"unknown fault kind(s) {', '.join(unknown)}")
            script = _parse_script(options.script)
        except (ValueError, ValidationError) as exc:
            return _Plan(
                latency_s=0.0,
                error=litellm.BadRequestError(
                    message=f"sim: bad simulator options: {exc}",
                    model=full_model,
                    llm_provider="sim",
                ),
            )

        prompt_chars = sum(len(str(m.get("content") or "")) for m in messages)
        latency_s = options.latency_ms / 1000
        hints = dict(meta.get("hints") or {})
        schema = str(meta.get("schema") or "")
        phase = str(meta.get("phase") or "")
        round_ = int(meta.get("round") or 0)
        agent_name = meta.get("agent_name")
        last_user = next(
            (str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "user"),
            "",
        )

        if model == "down":
            return _Plan(
                latency_s=latency_s,
                error=litellm.ServiceUnavailableError(
                    message=DOWN_MESSAGE, model=full_model, llm_provider="sim"
                ),
                prompt_chars=prompt_chars,
            )
        if model == "junk":
            pick = _rng(options.seed, schema, phase, round_, agent_name, last_user)
            return _Plan(latency_s, text=pick.choice(JUNK_REPLIES), prompt_chars=prompt_chars)

        scripted = script.agent(agent_name) if script else None
        if scripted is not None and scripted.fails_in(phase, round_):
            return _Plan(
                latency_s=latency_s,
                error=litellm.InternalServerError(
                    message=f"sim: scripted failure of {agent_name} in {phase} round {round_}",
                    model=full_model,
                    llm_provider="sim",
                ),
                prompt_chars=prompt_chars,
            )

        question = str(hints.get("question") or last_user)
        language = str(hints.get("language") or detect_language(question))
        if language not in ("en", "zh"):
            language = "zh" if detect_language(question) == "zh" else "en"
        ctx = _Ctx(
            model=full_model,
            schema=schema,
            phase=phase,
            round=round_,
            agent=int(meta.get("agent", -1)),
            agent_name=agent_name,
            hints=hints,
            options=options,
            call_seed=(optional_params or {}).get("seed"),
            question=question,
            language=language,
            json_schema=meta.get("json_schema"),
            script=script,
            phrases=salient_phrases(question, language),
        )

        identity = stable_hash(full_model, schema, phase, round_, agent_name, hints, last_user)
        attempt = self._next_attempt(identity)
        fault_rng = _rng(options.seed, identity, attempt, "fault")
        fault = None
        for kind in FAULT_KINDS:
            draw = fault_rng.random()  # always drawn, so one kind's rate never shifts another's
            if fault is None and draw < options.faults.get(kind, 0.0):
                fault = kind

        def error(cls: type[Exception], message: str) -> _Plan:
            exc = cls(message=message, model=full_model, llm_provider="sim")  # type: ignore[call-arg]
            return _Plan(latency_s, error=exc, prompt_chars=prompt_chars)

        if fault == "timeout":
            return error(litellm.Timeout, "sim: request timed out (simulated fault)")
        if fault == "rate_limit":
            return error(litellm.RateLimitError, "sim: rate limit exceeded (simulated 429)")
        if fault == "server_error":
            if fault_rng.random() < 0.5:
                return error(
                    litellm.InternalServerError, "sim: internal server error (simulated 500)"
                )
            return error(
                litellm.ServiceUnavailableError, "sim: service unavailable (simulated 503)"
            )
        if fault == "empty":
            return _Plan(latency_s, text="", prompt_chars=prompt_chars)

        payload = generate(ctx)
        if fault == "schema_invalid":
            payload = _break_schema(schema, payload, fault_rng)
        text = json.dumps(payload, ensure_ascii=False, indent=None)
        if fault == "malformed_json":
            cut = max(1, int(len(text) * fault_rng.uniform(0.3, 0.8)))
            text = text[:cut]
        return _Plan(latency_s, text=text, prompt_chars=prompt_chars)

    def _response(self, model: str, plan: _Plan) -> Any:
        model = model if model.startswith("sim/") else f"sim/{model}"
        prompt_tokens = max(1, plan.prompt_chars // 4)
        completion_tokens = len(plan.text) // 4
        return litellm.ModelResponse(
            model=model,
            choices=[
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": plan.text},
                }
            ],
            usage={
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        )

    def completion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        plan = self.plan(
            model, messages, kwargs.get("litellm_params"), kwargs.get("optional_params")
        )
        if plan.latency_s:
            time.sleep(plan.latency_s)
        if plan.error is not None:
            raise plan.error
        return self._response(model, plan)

    async def acompletion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        plan = self.plan(
            model, messages, kwargs.get("litellm_params"), kwargs.get("optional_params")
        )
        if plan.latency_s:
            await asyncio.sleep(plan.latency_s)
        if plan.error is not None:
            raise plan.error
        return self._response(model, plan)


handler = SimHandler()
register_sim_provider(handler)
