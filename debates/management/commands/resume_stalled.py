"""``manage.py resume_stalled``: hand debates whose worker died to a live worker.

``manage.py qcluster`` also runs this every ``COUNCIL_SWEEP_SECONDS`` (debates/runtime/workerhost),
and a django-q2 schedule every minute as a backstop."""

from django.core.management.base import BaseCommand

from debates.runtime.execution import resume_stalled


class Command(BaseCommand):
    help = "Re-queue debates whose lease expired or whose queued step was lost."

    def add_arguments(self, parser):
        parser.add_argument("--grace", type=int, default=60,
                            help="seconds a queued debate may wait before it counts as lost")

    def handle(self, *args, **opts):
        count = resume_stalled(queued_grace_s=opts["grace"])
        self.stdout.write(f"re-queued {count} debate(s)")
