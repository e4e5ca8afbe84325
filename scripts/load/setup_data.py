"""Prepare a database for the load test (run inside the load test's environment): migrate, load the core set,
publish one legal starter deck as a decklist. Prints JSON with the URLs to load: a card page, a decklist page,
the decklist text to validate."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from cards.models import Card
    from decks.decklist import parse_decklist
    from decks.models import Decklist
    from decks.pool import CardPool
    from decks.services import deck_create, decklist_publish

    call_command("migrate", "--noinput", verbosity=0)
    if not Card.objects.filter(card_set__code="core").exists():
        call_command("loadcards", str(ROOT / "cards" / "data" / "core.json"), verbosity=0)
    text = (ROOT / "cards" / "data" / "starters" / "camelot.txt").read_text(encoding="utf-8")
    decklist = Decklist.objects.filter(title="Load test list").first()
    if decklist is None:
        pool = CardPool.from_db()
        user, _ = get_user_model().objects.get_or_create(username="loadtest")
        deck = deck_create(owner=user, name="Load test deck", counts=parse_decklist(text, pool).counts,
                           is_private=False, pool=pool).deck
        decklist = decklist_publish(deck=deck, title="Load test list", description="A **starter** list.",
                                    pool=pool)
    card = Card.objects.filter(type="unit", card_set__code="core").order_by("code").first()
    print(json.dumps({"card_page": f"/cards/{card.code}/", "decklist_page": decklist.get_absolute_url(),
                      "deck_text": text, "database": os.environ.get("DATABASE_URL", "sqlite")}))


if __name__ == "__main__":
    main()
