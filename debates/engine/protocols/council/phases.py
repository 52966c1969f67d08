"""The council protocol's own phases (compose the panel, premortems, positions, cross-
examination rounds), registered when the package loads; the shared ones (synthesis,
verify, judge) are the core's (``Phase``)."""

from __future__ import annotations

from ...schemas import Phase


class CouncilPhase:
    COMPOSE = Phase.register("compose")
    PREMORTEM = Phase.register("premortem")
    POSITION = Phase.register("position")
    CROSS_EXAM = Phase.register("cross_exam")
