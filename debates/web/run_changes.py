"""What one run of a question changed from another (docs/web.md, "Compare"): the
question, the options, the panel, the models, the sources, the protocol, the mode and
the rounds allowed, each as what was added and removed or what it was before and after.
The compare page says it before the results side by side; a re-run's page says what it
changed from its parent."""

from __future__ import annotations

from dataclasses import dataclass, field

from debates.debate_sources import debate_sources
from debates.models import Debate
from debates.selectors import debate_options


@dataclass(frozen=True)
class RunChange:
    """One setting that differs: ``key`` names it (the pages word it as
    ``runs.<key>``); a list setting says what was added and removed, a single value
    what it was before and after."""

    key: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    before: str = ""
    after: str = ""


def _listed(key: str, before: list[str], after: list[str]) -> RunChange | None:
    added = [x for x in after if x not in before]
    removed = [x for x in before if x not in after]
    return RunChange(key, added=added, removed=removed) if added or removed else None


def _value(key: str, before: object, after: object) -> RunChange | None:
    return None if before == after else RunChange(key, before=str(before), after=str(after))


def _options(debate: Debate) -> list[str]:
    """The options the user gave, else those the debate found (composed or read from
    the question)."""
    given = (debate.settings or {}).get("options")
    return [str(o) for o in given] if given else debate_options(debate)


def _models(debate: Debate) -> list[str]:
    models = [str((debate.settings or {}).get("model", ""))]
    models += [str(m) for m in (debate.settings or {}).get("panel_models") or []]
    models += [agent.model for agent in debate.agents.all()]
    return sorted({m for m in models if m})


def run_changes(before: Debate, after: Debate) -> list[RunChange]:
    """What ``after`` changed from ``before``, in the order a reader checks them."""
    sources = debate_sources()
    setting = (before.settings or {}).get, (after.settings or {}).get
    found = [
        None if before.question.strip() == after.question.strip()
        else RunChange("question", before=before.question, after=after.question),
        _listed("options", _options(before), _options(after)),
        _listed("personas", [a.name for a in before.agents.all()],
                [a.name for a in after.agents.all()]),
        _listed("models", _models(before), _models(after)),
        _listed("sources", [link.title for link in sources.links(debate=before)],
                [link.title for link in sources.links(debate=after)]),
        _value("protocol", before.protocol, after.protocol),
        _value("mode", before.mode, after.mode),
        _value("rounds", setting[0]("max_rounds") or "", setting[1]("max_rounds") or ""),
    ]
    return [change for change in found if change is not None]
