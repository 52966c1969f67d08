"""The workflow protocol's own phases (analysis, discussion (its first round) and
convergence (its second)), registered when the package loads; the shared ones
(synthesis, verify, judge) are the core's (``Phase``)."""

from __future__ import annotations

from ...schemas import Phase


class WorkflowPhase:
    ANALYSIS = Phase.register("analysis")
    DISCUSSION = Phase.register("discussion")
    CONVERGENCE = Phase.register("convergence")
