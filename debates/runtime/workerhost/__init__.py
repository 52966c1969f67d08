"""The worker host: ``manage.py qcluster`` with a fast sweeper and a bounded stop.

An app of its own only so that it can be listed before ``django_q`` in
INSTALLED_APPS, which makes its ``qcluster`` command the one Django runs.
"""
