"""What the accounts app tells the rest of the site, without knowing who listens."""

from django.dispatch import Signal

# kwargs: invitation (an Invitation just accepted), membership (the new Membership)
invitation_accepted = Signal()
