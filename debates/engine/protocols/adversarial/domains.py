"""Domain detection for the adversarial protocol (docs/protocols.md 2), in code.

Deterministic on purpose: the same input always gets the same proposer, critic and
focus areas, in every worker, with no call spent. Code (a fenced block, a diff, a
function or class definition) wins outright; otherwise the domain with the most
keyword hits wins (ties go to the earlier of tech, product); no hit is ``general``.
Team-defined domains are data in ``DebateConfig.protocol_options["domains"]``: a
team domain named in ``protocol_options["domain"]`` is used as is, and a team domain
with keywords is tried before the built-in ones.
"""

from __future__ import annotations

import re

from pydantic import Field

from ...schemas import NonEmpty, Strict
from .labels import known_or_as_is, labels


class Domain(Strict):
    name: NonEmpty
    proposer_role: NonEmpty
    critic_role: NonEmpty
    focus_areas: list[NonEmpty] = Field(min_length=1)
    # Words that select this domain (lower case, matched on word boundaries).
    keywords: list[str] = Field(default_factory=list)


class DetectedDomain(Strict):
    domain: Domain
    # Why: the keywords or code markers found, or "named in the settings", or "default".
    reason: str


BUILTIN: dict[str, Domain] = {
    "tech": Domain(
        name="tech",
        proposer_role="Senior software architect",
        critic_role="Principal engineer reviewing designs for production readiness",
        focus_areas=["scalability", "reliability and failure modes", "security",
                     "data consistency", "operational complexity", "cost"],
        keywords=["architecture", "system design", "api", "apis", "database", "schema",
                  "algorithm", "infrastructure", "microservice", "microservices", "cache",
                  "queue", "kafka", "kubernetes", "latency", "throughput", "scalability",
                  "server", "backend", "deployment", "sql", "postgres", "replication",
                  "endpoint", "protocol", "distributed", "storage"],
    ),
    "code_review": Domain(
        name="code_review",
        proposer_role="Author of the code change",
        critic_role="Senior code reviewer",
        focus_areas=["correctness and edge cases", "error handling", "security",
                     "readability and naming", "tests", "performance"],
        keywords=["code review", "pull request", "diff", "patch", "snippet", "refactor",
                  "function", "method", "class", "bug fix"],
    ),
    "product": Domain(
        name="product",
        proposer_role="Product manager",
        critic_role="Skeptical product lead and user advocate",
        focus_areas=["user value and problem fit", "scope and priorities",
                     "acceptance criteria", "success metrics", "edge cases for users",
                     "dependencies and feasibility"],
        keywords=["requirement", "requirements", "user story", "user stories", "feature",
                  "feature spec", "prd", "roadmap", "onboarding", "customer", "customers",
                  "persona", "mvp", "acceptance criteria", "pricing", "launch", "users",
                  "product", "retention", "conversion"],
    ),
    "general": Domain(
        name="general",
        proposer_role="Expert advisor",
        critic_role="Critical reviewer",
        focus_areas=["logic and consistency", "hidden assumptions", "completeness",
                     "risks", "feasibility"],
    ),
}

# Markers that the input *is* code (or a diff), not talk about code.
_CODE_MARKERS: list[tuple[str, re.Pattern[str]]] = [
    ("fenced code block", re.compile(r"```")),
    ("unified diff", re.compile(r"^(diff --git|@@ .* @@|\+\+\+ |--- a/)", re.M)),
    ("function definition", re.compile(
        r"^\s*(def|function|func|fn)\s+\w+\s*\(|^\s*(public|private|static)\s+[\w<>\[\]]+"
        r"\s+\w+\s*\(", re.M)),
    ("class definition", re.compile(r"^\s*class\s+\w+\s*[:({]", re.M)),
    ("code statements", re.compile(r"(;\s*$.*){3,}", re.M | re.S)),
]


def _hits(text: str, keywords: list[str]) -> list[str]:
    lower = text.lower()
    return [k for k in keywords
            if re.search(rf"(?<![\w-]){re.escape(k.lower())}(?![\w-])", lower)]


def team_domains(options: dict[str, object]) -> list[Domain]:
    raw = options.get("domains") or []
    if not isinstance(raw, list):
        raise ValueError("protocol_options.domains must be a list of domains")
    domains = []
    for n, item in enumerate(raw):
        try:
            domains.append(Domain.model_validate(item))
        except ValueError as exc:
            raise ValueError(f"protocol_options.domains[{n}]: {exc}") from None
    return domains


def detect_domain(text: str, options: dict[str, object] | None = None) -> DetectedDomain:
    options = options or {}
    custom = team_domains(options)
    named = options.get("domain")
    if named:
        for domain in [*custom, *BUILTIN.values()]:
            if domain.name == named:
                return DetectedDomain(domain=domain, reason="named in the settings")
        known = ", ".join(d.name for d in [*custom, *BUILTIN.values()])
        raise ValueError(f"unknown domain {named!r}; known domains: {known}")
    for domain in custom:
        found = _hits(text, domain.keywords)
        if found:
            return DetectedDomain(domain=domain, reason="keywords: " + ", ".join(found))
    markers = [name for name, pattern in _CODE_MARKERS if pattern.search(text)]
    if markers:
        return DetectedDomain(domain=BUILTIN["code_review"], reason="code: " + ", ".join(markers))
    scored = [(len(_hits(text, BUILTIN[n].keywords)), n) for n in ("tech", "product",
                                                                   "code_review")]
    best = max(scored, key=lambda pair: pair[0])  # max keeps the first of equal scores
    if best[0] == 0:
        return DetectedDomain(domain=BUILTIN["general"], reason="default: no domain keywords")
    found = _hits(text, BUILTIN[best[1]].keywords)
    return DetectedDomain(domain=BUILTIN[best[1]], reason="keywords: " + ", ".join(found))


def _reason_in(language: str, reason: str) -> str:
    """The detection reason in ``language``: the fixed words translated, the keywords
    found kept as they matched the question."""
    t = labels(language)
    if reason == "named in the settings":
        return t("dom.reason.named")
    if reason == "default: no domain keywords":
        return t("dom.reason.default")
    kind, _, found = reason.partition(": ")
    if kind == "keywords":
        return t("dom.reason.keywords", found=found)
    if kind == "code":
        markers = ", ".join(known_or_as_is(language, f"dom.marker.{m}", m)
                            for m in found.split(", "))
        return t("dom.reason.code", found=markers)
    return reason


def localized(detected: DetectedDomain, language: str) -> DetectedDomain:
    """``detected`` in ``language`` for showing (pages, reports, the role personas'
    names): a built-in domain's name, roles and focus areas come from the tables; a
    team's domain keeps its own words. Detection and prompts use the English."""
    if language == "en":
        return detected
    d = detected.domain
    builtin = BUILTIN.get(d.name) == d
    if builtin:
        d = d.model_copy(update={
            "name": known_or_as_is(language, f"dom.name.{d.name}", d.name),
            "proposer_role": known_or_as_is(language, f"dom.role.{d.proposer_role}",
                                            d.proposer_role),
            "critic_role": known_or_as_is(language, f"dom.role.{d.critic_role}",
                                          d.critic_role),
            "focus_areas": [known_or_as_is(language, f"dom.focus.{a}", a)
                            for a in d.focus_areas]})
    return DetectedDomain(domain=d, reason=_reason_in(language, detected.reason))
