from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "council_site.accounts"
    label = "accounts"
    verbose_name = "Teams and accounts"
