"""What the sources app tells the rest of the site, without knowing who listens."""

from django.dispatch import Signal

# kwargs: version (a SourceVersion whose status just became "ready" or "refused")
source_settled = Signal()
