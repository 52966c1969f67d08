"""What the comments app tells the rest of the site, without knowing who listens.

Sent inside the writing transaction; receivers defer slow work with on_commit.
"""

from django.dispatch import Signal

# kwargs: comment (a new Comment; a reply when comment.parent is set)
comment_posted = Signal()
# kwargs: comment, user_ids (users newly mentioned by this comment, on create or edit)
mentions_added = Signal()
# kwargs: action (a new Action whose owner is not the user who made it)
action_assigned = Signal()
