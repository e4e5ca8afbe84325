from django.apps import AppConfig


class DecksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "decks"

    def ready(self) -> None:
        # `owned:` in card search (CONTRACTS §5) is answered by the collection kept here.
        from cards.search import register_owned_resolver

        from .selectors import owned_codes

        register_owned_resolver(owned_codes)
