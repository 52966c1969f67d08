"""What the decisions app tells other apps (notifications, calibration) about."""

from django.dispatch import Signal

# kwargs: decision (a Decision), sent after each new version is saved.
decision_recorded = Signal()
