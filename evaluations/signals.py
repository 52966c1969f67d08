"""What the evaluations app tells the rest of the site, without knowing who listens."""

from django.dispatch import Signal

# kwargs: evaluation (an Evaluation that just ended: done, failed or cancelled)
evaluation_finished = Signal()
