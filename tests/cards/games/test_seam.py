"""The game seam: a toy game registered here alone (tests/cards/games/toy/) is served by the site — catalogue,
search, card pages and images, the API, loadcards/exportcards, validatedeck, the editor's live panel, decks and
the collection — with no change to any app (CONTRACTS §7; docs/games/adding-a-game.md)."""
import json
import subprocess
import sys

import pytest
from django.core.management import call_command

from cards.games import registry
from cards.models import CardSet, GameCard

from .toy.game import TOY, card_file


@pytest.fixture
def toy(tmp_path):
    registry.register(TOY, replace=True)
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(card_file()))
    yield path
    registry.unregister("toy")


def test_r1_is_the_default_game():
    assert registry.get(None).slug == "r1" and registry.get("").prefix == ""
    assert {"r1", "realms", "regions"} <= set(registry.slugs())
    with pytest.raises(registry.UnknownGame):
        registry.get("chess")
    with pytest.raises(ValueError):
        registry.unregister("r1")
    with pytest.raises(ValueError):
        registry.register(registry.Game(slug="Bad Slug", name="x"))


def test_every_hosted_game_declares_its_hooks():
    for game in registry.hosted():
        for hook in ("parse_card_file", "card_to_json", "set_to_json", "search_keys", "render_card"):
            assert callable(game.hook(hook)), (game.slug, hook)
    realms = registry.get("realms")
    assert realms.formats == ("standard", "simplified")
    assert callable(realms.mode("hands"))
    with pytest.raises(NotImplementedError):  # goldfish and versus run the engine: simulator/games/realms.py
        realms.mode("goldfish")
    with pytest.raises(NotImplementedError):
        registry.get("regions").hook("check_text")


@pytest.mark.django_db
def test_a_toy_game_plugs_in_without_touching_the_apps(toy, client, tmp_path, capsys):
    call_command("loadcards", str(toy), verbosity=0)
    capsys.readouterr()
    assert GameCard.objects.filter(game="toy").count() == 10
    assert CardSet.all_games.get(game="toy").code == "t1" and not CardSet.objects.filter(code="t1").exists()

    page = client.get("/toy/cards/?q=col:red v>=5")
    assert page.status_code == 200 and b"Token 5" in page.content and b"Token 7" not in page.content
    assert b"Token 4" not in page.content
    bad = client.get("/toy/cards/?q=col:green")
    assert b"unknown colour" in bad.content
    assert client.get("/toy/cards/syntax/").status_code == 200
    assert b"Colour" in client.get("/toy/cards/t-3/").content
    image = client.get("/toy/cards/t-3.png?size=small")
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    api = client.get("/api/cards/?game=toy&q=v>=9").json()
    assert api["count"] == 2 and {c["code"] for c in api["results"]} == {"t-9", "t-10"}
    assert client.get("/toy/api/cards/?q=v>=9").json()["count"] == 2
    assert client.get("/toy/api/cards/?q=zz:1").status_code == 400

    deck = tmp_path / "deck.txt"
    deck.write_text("Tokens:\n2x Token 1\n2x Token 2\n2x Token 3\n2x Token 4\n2x Token 5\n")
    call_command("validatedeck", str(deck), "--game", "toy", "--json")
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["legal"] and verdict["counts"] == {"tokens": 10}
    live = client.post("/toy/decks/live/", {"text": "3x Token 1\n1x Token 9", "fmt": "standard"})
    assert b"copy_limit" in live.content and b"toy \xc2\xa72" in live.content

    out = tmp_path / "export.json"
    call_command("exportcards", "--game", "toy", "-o", str(out))
    exported = json.loads(out.read_text())
    assert exported["set"] == card_file()["set"]
    assert sorted(exported["cards"], key=lambda c: c["value"]) == [
        {**c, "type": "token", "text": ""} for c in card_file()["cards"]]
    registry.unregister("toy")
    assert client.get("/toy/cards/").status_code == 404


@pytest.mark.django_db
def test_a_bad_toy_file_loads_nothing(toy, tmp_path):
    bad = card_file()
    bad["cards"][3]["colour"] = "green"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(Exception) as exc:
        call_command("loadcards", str(path), str(toy), verbosity=0)
    assert "colour" in str(exc.value) or "problem" in str(exc.value)
    assert not GameCard.objects.filter(game="toy").exists()


def test_the_apps_name_no_game():
    """The seam's promise: the shared code (views, services, URLs) names no hosted game."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    for rel in ("cards/game_views.py", "decks/game_views.py", "decks/game_services.py", "roc_site/game_urls.py",
                "decks/game_simulate.py", "cards/management/commands/loadcards.py",
                "cards/management/commands/exportcards.py"):
        text = Path(root, rel).read_text()
        for slug in ("realms", "regions", "toy"):
            assert f'"{slug}"' not in text and f"'{slug}'" not in text, (rel, slug)


def test_docstring_examples():
    import doctest

    from cards.games import query
    from cards.games.realms import search

    for module in (registry, query, search):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_query_language_errors_name_the_term():
    from cards.games.query import QueryError, QueryKey, parse

    keys = [QueryKey("v", "value", "number", lambda c: c.get("v")),
            QueryKey("t", "type", "choice", lambda c: c.get("t"), choices=("a", "b"))]
    for q, needle in (("zz:1", 'unknown key "zz"'), ("v:x", "whole number"), ("t>2", "cannot be compared"),
                      ("t:c", 'unknown type "c"'), ("(t:a", '"(" at position 1 is never closed'),
                      ('""', "empty quotes"), ("x" * 501, "too long")):
        with pytest.raises(QueryError) as exc:
            parse(q, keys)
        assert needle in exc.value.message, (q, exc.value.message)
    from cards.games.query import matches
    q = parse("-(t:a or v>=3) v!=1", keys)
    assert [matches(q, c) for c in ({"t": "a", "v": 0}, {"t": "b", "v": 2}, {"t": "b", "v": 1},
                                    {"t": "b", "v": 5})] == [False, True, False, False]
