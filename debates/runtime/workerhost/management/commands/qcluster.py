"""``manage.py qcluster``: django-q2's cluster, plus a sweeper every few seconds and
a stop that ends every process within 10 s of SIGTERM or SIGINT.

django-q2's own command waits for running tasks to finish (a debate step may wait
minutes on model calls) and can hang when the whole process group gets SIGTERM. Here
the main process owns the stop: see ``debates.runtime.workerhost.host.stop_cluster``.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time

from django.conf import settings
from django_q.cluster import Cluster
from django_q.management.commands.qcluster import Command as QClusterCommand

from debates.runtime.workerhost.host import (
    STOP_DEADLINE_S,
    Sweeper,
    become_subreaper,
    stop_cluster,
    sweep_seconds,
)


class Command(QClusterCommand):
    help = "Run the django-q2 worker cluster and the stalled-debate sweeper."

    def handle(self, *args, **options):
        settings.SECRET_KEY  # noqa: B018 - the cluster signs tasks: fail early without it
        if options.get("cluster_name"):
            os.environ["Q_CLUSTER_NAME"] = options["cluster_name"]
        become_subreaper()
        cluster = Cluster()
        stopping = threading.Event()
        signalled_at: list[float] = []

        def on_signal(signum, frame):  # noqa: ANN001
            if not signalled_at:
                signalled_at.append(time.monotonic())
            stopping.set()

        # Replaces django-q2's handler, which joins the sentinel from inside the handler.
        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        cluster.start()
        sweeper = Sweeper(sweep_seconds())
        if not options.get("run_once"):
            sweeper.start()
            while not stopping.wait(0.5):
                if not cluster.sentinel.is_alive():
                    self.stderr.write("the cluster's sentinel died; stopping")
                    break
            sweeper.stop()
        started = signalled_at[0] if signalled_at else time.monotonic()
        clean = stop_cluster(cluster, started + STOP_DEADLINE_S)
        # Killed, or the sentinel died: a non-zero exit lets systemd restart us.
        code = 0 if clean and (signalled_at or options.get("run_once")) else 1
        # Skip the interpreter's teardown: collecting litellm's object graph alone
        # takes seconds on a busy machine, and there is nothing left to clean up.
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
