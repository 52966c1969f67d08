from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit log"

    def ready(self) -> None:
        # A refused sign-in is recorded here: Django's own login view makes no service
        # call, and its signal carries the attempted username (never the password).
        from django.contrib.auth.signals import user_login_failed

        from audit.receivers import login_failed

        user_login_failed.connect(login_failed, dispatch_uid="audit.login_failed")
