from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "puzzlehub.accounts"
    label = "accounts"
