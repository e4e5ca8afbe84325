"""The decklist browser at scale. `DecklistCard` keeps copies of its decklist's `published_at` and `faction`
and `DecklistTally` counts the lists per faction (database triggers, decks/dbsync.py), so that "newest lists
holding X" is one index range and the pager's counts are cheap; the search built on them must give exactly what
the plain filters give, and its counts must be exact. Runs on SQLite and PostgreSQL."""
from __future__ import annotations

import random
from collections import Counter
from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.db import connection

from cards.models import Card, Faction
from decks.dbsync import TRIGGER_NAMES, installed_triggers
from decks.models import Decklist, DecklistCard, DecklistTally
from decks.selectors import DecklistFilterError, decklist_ids_containing_card, decklist_search
from decks.services import deck_create, decklist_publish

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db
EPOCH = datetime(2000, 1, 1, tzinfo=dt_timezone.utc)
NOW = datetime(2026, 6, 30, 12, 0, tzinfo=dt_timezone.utc)


def _copies(decklist) -> set[tuple]:
    return set(DecklistCard.objects.filter(decklist=decklist).values_list("published_at", "faction_id"))


def _make(owner, *, faction: str | None, published_at: datetime, codes, destiny=None, likes=0) -> Decklist:
    """A decklist written the way a data migration or raw SQL would: card rows with wrong copies, then re-dated."""
    decklist = Decklist.objects.create(
        owner=owner, title="L", slug="l", cards={c: 1 for c in codes}, content_hash="x", like_count=likes,
        faction=Faction.objects.get(slug=faction) if faction else None, destiny=destiny)
    DecklistCard.objects.bulk_create([DecklistCard(decklist=decklist, card_code=c, count=1, published_at=EPOCH)
                                      for c in codes])
    Decklist.objects.filter(pk=decklist.pk).update(published_at=published_at)
    decklist.refresh_from_db()
    return decklist


def test_the_triggers_are_installed():
    assert installed_triggers(connection) == TRIGGER_NAMES[connection.vendor]


def test_publishing_copies_the_date_and_faction_to_the_card_rows(small_catalogue, erin):
    decklist = decklist_publish(deck=deck_create(owner=erin, name="D", counts=LEGAL_BASE).deck, title="T")
    assert _copies(decklist) == {(decklist.published_at, decklist.faction_id)}
    assert DecklistCard.objects.filter(decklist=decklist).count() == len(LEGAL_BASE)


def test_card_rows_follow_their_decklist_whoever_writes(small_catalogue, erin):
    decklist = _make(erin, faction="camelot", published_at=NOW, codes=["u01", "u02"])
    assert _copies(decklist) == {(NOW, decklist.faction_id)}  # the wrong copies given at insert were replaced

    later = NOW + timedelta(days=3)
    decklist.published_at, decklist.faction = later, Faction.objects.get(slug="lefay")
    decklist.save()  # a model save (the admin, a script)
    assert _copies(decklist) == {(later, decklist.faction_id)}

    Decklist.objects.filter(pk=decklist.pk).update(faction=None)  # a queryset update
    assert _copies(decklist) == {(later, None)}

    row = DecklistCard.objects.filter(decklist=decklist).first()
    DecklistCard.objects.filter(pk=row.pk).update(published_at=EPOCH, faction=Faction.objects.get(slug="winter"))
    assert _copies(decklist) == {(later, None)}  # a card row cannot be set apart from its list

    other = _make(erin, faction="winter", published_at=NOW, codes=["u03"])
    DecklistCard.objects.filter(pk=row.pk).update(decklist=other)  # moved to another list: takes its values
    row.refresh_from_db()
    assert (row.published_at, row.faction_id) == (NOW, other.faction_id)


def test_deleting_a_faction_or_a_decklist_keeps_the_rows_right(small_catalogue, erin):
    saxons = Faction.objects.create(slug="saxons", name="Saxons", color="#123456", position=99)
    decklist = _make(erin, faction="saxons", published_at=NOW, codes=["u01", "u02"])
    assert _copies(decklist) == {(NOW, saxons.pk)}
    saxons.delete()  # Decklist.faction is SET_NULL: the card rows follow
    assert _copies(decklist) == {(NOW, None)}
    assert decklist_search(cards=["u01"]).count() == 1
    decklist.delete()
    assert not DecklistCard.objects.filter(decklist_id=decklist.pk).exists()
    assert decklist_search(cards=["u01"]).count() == 0


@pytest.fixture
def many_lists(small_catalogue, erin):
    """40 lists: 3 factions (and none), 20 days (several lists on the same instant), 8 card codes."""
    rng = random.Random(7)
    destinies = list(Card.objects.filter(type="destiny").order_by("code")[:2])
    lists = []
    for i in range(40):
        codes = rng.sample(["u01", "u02", "u03", "u04", "u05", "u06", "u07", "morgause"], rng.randint(1, 5))
        when = NOW - timedelta(days=rng.randint(0, 19), hours=rng.choice([0, 0, 5, 23]))
        lists.append(_make(erin, faction=rng.choice(["camelot", "lefay", "winter", None]), published_at=when,
                           codes=codes, destiny=rng.choice(destinies + [None]), likes=rng.randint(0, 3)))
    return lists


def _expected(lists, *, faction=None, cards=(), since=None, until=None, destiny=None, sort="date"):
    rows = [d for d in lists
            if (faction is None or (d.faction and d.faction.slug == faction))
            and all(c in d.cards for c in cards)
            and (since is None or d.published_at.date() >= since)
            and (until is None or d.published_at.date() <= until)
            and (destiny is None or (d.destiny and d.destiny.code == destiny))]
    key = ((lambda d: (d.published_at, d.pk)) if sort == "date" else (lambda d: (d.like_count, d.published_at, d.pk)))
    return [d.pk for d in sorted(rows, key=key, reverse=True)]


def test_search_with_cards_faction_and_dates_gives_exactly_the_plain_filters(many_lists):
    day = NOW.date()
    cases = [{}, {"cards": ["u01"]}, {"cards": ["morgause"]}, {"cards": ["u01", "u02"]},
             {"cards": ["u02", "u01", "u02"]}, {"faction": "camelot"}, {"faction": "lefay", "cards": ["u03"]},
             {"faction": "winter", "cards": ["u01", "morgause"]}, {"cards": ["u05"], "since": day - timedelta(days=5)},
             {"cards": ["u04"], "until": day - timedelta(days=10)},
             {"cards": ["u06"], "faction": "camelot", "since": day - timedelta(days=15), "until": day - timedelta(days=2)},
             {"since": day - timedelta(days=3), "until": day - timedelta(days=3)}, {"cards": ["u07"], "sort": "likes"},
             {"cards": ["nope"]}, {"faction": "saracen", "cards": ["u01"]}, {"faction": "neutral"}]
    for case in cases:
        qs = decklist_search(**case)
        expected = _expected(many_lists, **case)
        assert [d.pk for d in qs] == expected, case
        assert decklist_search(**case).count() == len(expected), case  # the pager's count
        assert qs.count() == len(expected)  # (evaluated: the cached rows)
    with_destiny = many_lists[0].destiny or many_lists[1].destiny
    case = {"cards": ["u01"], "destiny": with_destiny.code}
    assert [d.pk for d in decklist_search(**case)] == _expected(many_lists, **case)
    assert decklist_search(**case).count() == len(_expected(many_lists, **case))


def test_the_pager_count_reads_the_card_rows_or_the_tally_when_it_can(many_lists, django_assert_num_queries):
    qs = decklist_search(cards=["u01"], faction="camelot", since=NOW.date() - timedelta(days=9))
    assert qs._fast_count is not None
    with django_assert_num_queries(1) as captured:
        qs.count()
    assert "decks_decklist\"" not in captured.captured_queries[0]["sql"].replace("decks_decklistcard", "")
    for qs in (decklist_search(), decklist_search(faction="lefay"), decklist_search(faction="neutral")):
        with django_assert_num_queries(1) as captured:
            qs.count()
        assert "decks_decklisttally" in captured.captured_queries[0]["sql"]
    assert decklist_search().count() == len(many_lists)
    assert decklist_search(faction="lefay").count() == len([d for d in many_lists if d.faction and
                                                            d.faction.slug == "lefay"])
    assert decklist_search(cards=["u01"], author="erin")._fast_count is None  # joins users: counted plainly
    assert decklist_search(faction="camelot", since=NOW.date())._fast_count is None
    assert decklist_search(cards=["u01"]).filter(like_count__gte=2).count() == len(
        [d for d in many_lists if "u01" in d.cards and d.like_count >= 2])  # a further filter counts plainly


def _tally() -> dict[int, int]:
    return {key: n for key, n in DecklistTally.objects.values_list("faction_key", "n") if n}


def _real() -> dict[int, int]:
    return dict(Counter(faction_id or 0 for faction_id in Decklist.objects.values_list("faction_id", flat=True)))


def test_the_tally_follows_every_write(small_catalogue, erin):
    assert _tally() == _real() == {}
    lists = [_make(erin, faction=f, published_at=NOW, codes=["u01"]) for f in ("camelot", "camelot", None, "lefay")]
    decklist_publish(deck=deck_create(owner=erin, name="D", counts=LEGAL_BASE).deck, title="T")
    Decklist.objects.bulk_create([Decklist(owner=erin, title="B", slug="b", content_hash="x",
                                           faction=Faction.objects.get(slug="winter")) for _ in range(3)])
    assert _tally() == _real() and sum(_tally().values()) == 8
    Decklist.objects.filter(pk=lists[0].pk).update(faction=Faction.objects.get(slug="lefay"))
    lists[2].faction = Faction.objects.get(slug="camelot")
    lists[2].save()
    assert _tally() == _real()
    lists[1].delete()
    Decklist.objects.filter(faction__slug="winter").delete()
    assert _tally() == _real() and sum(_tally().values()) == 4
    saxons = Faction.objects.create(slug="saxons", name="Saxons", color="#123456", position=99)
    Decklist.objects.filter(pk=lists[3].pk).update(faction=saxons)
    saxons.delete()  # SET_NULL
    assert _tally() == _real()
    assert decklist_search().count() == 4 and decklist_search(faction="camelot").count() == _real()[
        Faction.objects.get(slug="camelot").pk]


def test_emptying_both_tables_in_either_order_leaves_them_consistent(small_catalogue, erin):
    for f in ("camelot", "lefay", None):
        _make(erin, faction=f, published_at=NOW, codes=["u01"])
    DecklistTally.objects.all().delete()  # as a flush that empties the tally first
    Decklist.objects.all().delete()
    assert list(DecklistTally.objects.values_list("faction_key", "n")) == []  # no negative counts
    _make(erin, faction="camelot", published_at=NOW, codes=["u01"])
    assert _tally() == _real()


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_a_truncate_empties_the_tally(small_catalogue, erin):
    _make(erin, faction="camelot", published_at=NOW, codes=["u01"])
    with connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")  # run the test transaction's deferred foreign-key checks
        cur.execute("TRUNCATE decks_decklistcard, decks_decklist CASCADE")
    assert not DecklistTally.objects.exists() and decklist_search().count() == 0


def test_unknown_filters_and_reversed_dates_are_errors(many_lists):
    for kwargs, message in [({"faction": "nowhere"}, "No faction 'nowhere'"),
                            ({"destiny": "u01"}, "No destiny card with code 'u01'"),
                            ({"sort": "random"}, "sort must be one of"),
                            ({"since": date(2026, 2, 1), "until": date(2026, 1, 1)}, "is before since")]:
        with pytest.raises(DecklistFilterError, match=message):
            decklist_search(**kwargs)


def test_ids_containing_a_card(many_lists):
    assert sorted(decklist_ids_containing_card(code="u01")) == sorted(d.pk for d in many_lists if "u01" in d.cards)
