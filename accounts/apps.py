from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    # The label its migrations, content types and foreign keys name (also when the app
    # lived at council_site.accounts): existing databases keep working.
    label = "accounts"
    verbose_name = "Teams and accounts"

    def ready(self) -> None:
        # The login receiver that keeps the user's language in the session.
        from accounts import language  # noqa: F401
