from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"

    def ready(self):
        # Every catalogue write replaces the version stamp the card API cache is keyed by (cards/cache.py).
        from django.db.models.signals import post_delete, post_save

        from .cache import catalogue_written
        from .models import Card, CardSet, Faction, GameCard

        for model in (Card, CardSet, Faction, GameCard):
            post_save.connect(catalogue_written, sender=model, dispatch_uid=f"catalogue-version-{model.__name__}")
            post_delete.connect(catalogue_written, sender=model, dispatch_uid=f"catalogue-deleted-{model.__name__}")
