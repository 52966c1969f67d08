from django.apps import AppConfig


def _install_stop_handlers(sender, **kwargs):  # noqa: ANN001, ANN003 - signal signature
    from debates import shutdown

    shutdown.install()


class WorkerHostConfig(AppConfig):
    name = "debates.workerhost"
    label = "council_workerhost"
    verbose_name = "Worker host"

    def ready(self) -> None:
        from django_q.signals import post_spawn

        # Sent in each django-q2 worker process as it starts (after the fork).
        post_spawn.connect(_install_stop_handlers, dispatch_uid="council-stop-handlers")
