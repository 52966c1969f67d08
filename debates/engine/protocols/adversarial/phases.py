"""The adversarial protocol's own phases (the proposer's proposals and the critic's
critiques), registered when the package loads; the shared ones (synthesis, verify,
judge) are the core's (``Phase``)."""

from __future__ import annotations

from ...schemas import Phase


class AdversarialPhase:
    PROPOSE = Phase.register("propose")
    CRITIQUE = Phase.register("critique")
