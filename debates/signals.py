"""What the debates app tells the rest of the site, without knowing who listens.

Sent inside the transaction that changes the debate's status; a receiver that does
slow work (mail) must defer it with ``transaction.on_commit`` and a worker task.
"""

from django.dispatch import Signal

# kwargs: debate (a Debate whose status is becoming "succeeded")
debate_finished = Signal()
# kwargs: debate (a Debate whose status is becoming "failed")
debate_failed = Signal()
# kwargs: debate (a Debate whose status is becoming "cancelled")
debate_cancelled = Signal()
