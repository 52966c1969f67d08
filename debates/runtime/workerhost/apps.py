import multiprocessing

from django.apps import AppConfig


def _prepare_worker(sender, **kwargs):  # noqa: ANN001, ANN003 - signal signature
    from debates.runtime import shutdown, worker_loop

    shutdown.install()
    # django-q2's synchronous mode sends the signal too, in the caller's own process
    # (tests, the MCP server's inline runs): there a task runs its step inline.
    if multiprocessing.parent_process() is not None:
        worker_loop.start()


class WorkerHostConfig(AppConfig):
    name = "debates.runtime.workerhost"
    label = "council_workerhost"
    verbose_name = "Worker host"

    def ready(self) -> None:
        from django_q.signals import post_spawn

        # Sent in each django-q2 worker process as it starts (after the fork): its stop
        # handlers, and the event loop that drives its debates.
        post_spawn.connect(_prepare_worker, dispatch_uid="council-worker-process")
