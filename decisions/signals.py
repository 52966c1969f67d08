"""What the decisions app tells other apps (notifications, calibration) about."""

from django.dispatch import Signal

# kwargs: decision (a Decision), sent after each new version is saved.
decision_recorded = Signal()
# kwargs: decision (a Decision whose review date came), sent by the daily follow-ups.
decision_review_due = Signal()
# kwargs: outcome (an Outcome just recorded: a review of the decision)
outcome_recorded = Signal()
