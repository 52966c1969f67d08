"""Building blocks every app's views and templates use: the signed-in request's type
and the one rendering path for untrusted text."""
