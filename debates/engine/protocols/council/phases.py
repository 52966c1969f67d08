"""The council protocol's own phases (compose the panel, premortems, positions, cross-
examination rounds and, in deep mode, the challenge: the devil's advocate's case and the
panel's answers), registered when the package loads; the shared ones (synthesis,
verify, judge) are the core's (``Phase``). Steps order by registration, so the
challenge's two come after the rounds."""

from __future__ import annotations

from ...schemas import Phase


class CouncilPhase:
    COMPOSE = Phase.register("compose")
    PREMORTEM = Phase.register("premortem")
    POSITION = Phase.register("position")
    CROSS_EXAM = Phase.register("cross_exam")
    CHALLENGE = Phase.register("challenge")
    CHALLENGE_ANSWER = Phase.register("challenge_answer")
