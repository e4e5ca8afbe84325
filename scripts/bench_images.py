"""Benchmark: card images and the deck image (the deck image is the one shared on Open Graph).

`python -m scripts.bench images` — renders the loaded catalogue's cards into a temporary cache directory and
measures: a cold render (drawing + PNG encoding), a request served from the disk cache, a 304 revalidation, and
the deck image cold and cached. Medians over several runs.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

RUNS = 5
COMMAND = "python -m scripts.bench images"


def _median_ms(fn, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> str:
    import django

    django.setup()
    from django.test import RequestFactory, override_settings

    from cards import images
    from cards.deck_images import render_deck_image
    from cards.image_views import card_image
    from cards.models import Card

    cards = list(Card.objects.select_related("faction", "card_set").order_by("code"))
    lines = ["## Card images", "", f"Command: `{COMMAND}` (medians of {RUNS} runs; temporary cache directory).", ""]
    if not cards:
        return "\n".join(lines + ["No cards are loaded (`make load-core` first); nothing measured.", ""])

    with tempfile.TemporaryDirectory() as tmp, override_settings(CARD_IMAGE_CACHE_DIR=Path(tmp)):
        # Cold render of every card: drawing and PNG encoding, no cache.
        sample = cards[:: max(1, len(cards) // 40)][:40]
        faces = [images.face_for_card(c) for c in sample]
        per_card = []
        for face in faces:
            per_card.append(_median_ms(lambda f=face: images.card_to_png_bytes(images.render_card(f)), runs=3))
        small = [_median_ms(lambda f=face: images.card_to_png_bytes(images.render_card(f, "small")), runs=3)
                 for face in faces[:10]]

        started = time.perf_counter()
        for card in cards:
            images.card_png(card)
        whole_set_s = time.perf_counter() - started
        png_sizes = sorted(p.stat().st_size for p in Path(tmp).glob("*_normal.png"))

        rf = RequestFactory()
        code = cards[len(cards) // 2].code
        hit_ms = _median_ms(lambda: b"".join(card_image(rf.get(f"/cards/{code}.png"), code=code).streaming_content),
                            runs=25)
        etag = card_image(rf.get(f"/cards/{code}.png"), code=code)["ETag"]
        not_modified_ms = _median_ms(
            lambda: card_image(rf.get(f"/cards/{code}.png", HTTP_IF_NONE_MATCH=etag), code=code), runs=25)

        by_type: dict[str, list] = {}
        for card in cards:
            by_type.setdefault(card.type, []).append(card)
        draws = [(c, 3) for t in ("unit", "location", "attachment", "deed") for c in by_type.get(t, [])][:20]
        faction = (by_type.get("faction") or [None])[0]
        destiny = (by_type.get("destiny") or [None])[0]
        quests = (by_type.get("quest") or [])[:7]
        deck_cold = []
        for i in range(3):
            deck_cold.append(_median_ms(lambda i=i: render_deck_image(faction, destiny, quests, draws,
                                                                      title=f"Bench deck {i}"), runs=1))
        deck_cached = _median_ms(lambda: render_deck_image(faction, destiny, quests, draws, title="Bench deck 0"),
                                 runs=10)

    lines += [
        "| measurement | median |",
        "| --- | --- |",
        f"| cold render + PNG encode, one card 500×700 ({len(faces)} cards sampled) | "
        f"{statistics.median(per_card):.0f} ms (slowest {max(per_card):.0f} ms) |",
        f"| cold render + PNG encode, thumbnail 250×350 | {statistics.median(small):.0f} ms |",
        f"| `rendercards`-equivalent: all {len(cards)} cards into an empty cache | {whole_set_s:.1f} s |",
        f"| `GET /cards/CODE.png` served from the disk cache (view, in-process) | {hit_ms:.2f} ms |",
        f"| `GET /cards/CODE.png` with a matching `If-None-Match` → 304 | {not_modified_ms:.2f} ms |",
        f"| deck image, {len(draws)} draw cards, card thumbnails cached, deck image not | "
        f"{statistics.median(deck_cold):.0f} ms |",
        f"| deck image, cached | {deck_cached:.2f} ms |",
        "",
        f"PNG size of a card image: median {statistics.median(png_sizes) / 1024:.0f} KB "
        f"(largest {png_sizes[-1] / 1024:.0f} KB). Rendered images are kept in `settings.CARD_IMAGE_CACHE_DIR` "
        "(default `var/card-images/`), so a card is drawn once per edit; the rest are file reads.",
        "",
    ]
    return "\n".join(lines)
