"""The registry of games: every game the site hosts declares itself here (pure Python, no Django import).

After python-chess's variants and OpenSpiel's `register_game`: a game is a `Game` value naming its card schema
and loader, card types and deck sections, search keys, decklist reader and writer, legality and formats, deck
identity, opening hands, card frame and simulation modes. The site's apps (cards ← decks ← simulator) look a
game up by its slug and call these hooks; they name no game. Adding a game is a package `cards/games/<game>/`
plus one `register(Game(...))` — see docs/games/adding-a-game.md.

r1 (A Reign of Kings) is registered like every other game. Two fields say what is its own: `url_prefix=""` (the
original apps serve it at the site's original URLs, every other game under /<game>/) and `own_tables=True` (its
cards, decks and collection live in the apps' own tables: its card search compiles to SQL, its legality is
`decks/legality.py`), so every contract of CONTRACTS §1–§6 holds unchanged with no game named. Hooks are dotted
paths resolved on first use, so that this module imports nothing of the apps.

    >>> get("realms").name
    'The Realm duel'
    >>> get(None).slug, DEFAULT
    ('r1', 'r1')
"""
from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cards.games.r1 import facts as r1_facts

DEFAULT = "r1"
SLUG_RE = re.compile(r"^[a-z][a-z0-9]{1,15}$")


class UnknownGame(LookupError):
    def __init__(self, slug):
        super().__init__(f"unknown game {str(slug)[:20]!r}; games are {', '.join(slugs())}")
        self.slug = slug


def _resolve(hook):
    """A hook given as "package.module:attribute" (or a whole "package.module") is imported on first use."""
    if isinstance(hook, str):
        module, _, attr = hook.partition(":")
        imported = importlib.import_module(module)
        return getattr(imported, attr) if attr else imported
    return hook


@dataclass(frozen=True)
class Section:
    """A deck section (the editor's groups and the decklist export's headers)."""

    label: str
    types: tuple[str, ...]


@dataclass(frozen=True)
class Rulebook:
    """A game's rulebook page (r1's at /rules/, every other game's at /<game>/rules/, roc_site/rulebook.py): its
    text, shipped with the site, rendered with an anchor per numbered section (`s8`, `s4.2`).

    - `file`: the text, from the project's root (a copy of the source document, so the site never reads outside
      its own tree).
    - `number`: the source document's number, which code comments and engine logs prefix to a citation
      ("002 §8"); the site shows the citation without it ("§8", a link to its section).
    - `max_chapter`: a line "N. Title" with N above it is a numbered list item, not a chapter.
    - `list_anchors`: a numbered list item ("1. Reveal Leaders — …" under §8) is anchored as `s8.1`.
    - `headings`: the start of a line -> the heading the source lost before it ("2. Setup" anchors `s2`;
      an unnumbered one is anchored by its name).
    """

    file: str
    title: str
    number: str = ""
    max_chapter: int = 99
    list_anchors: bool = True
    headings: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Game:
    """What the site needs to know of a game. Card data is handled as plain dicts (the game's card file form).

    - `parse_card_file(text, source) -> CardFile` (cards.cardfile.CardFile: set_code, set_name, cards, errors);
      `set_to_json(code, name, cards) -> dict` and `card_to_json(card) -> dict` for export.
    - `search_keys(cards) -> [QueryKey]` and `search_examples` ((query, meaning) pairs, the syntax page).
    - `parse_decklist(text, cards) -> (counts {code: n}, problems [dict with code/rule/message/line])`;
      `export_decklist(counts, cards, name=None) -> str`.
    - `check_deck(counts, cards, fmt) -> dict` (the validatedeck JSON); `check_text(text, cards, fmt) -> dict`.
    - `identity(counts, cards) -> dict` (what identifies a deck: r1 faction + destiny, realms Leaders +
      affiliation), `hands(counts, cards, options) -> dict` (the `hands` JSON), `render_card(card, size)` (a
      Pillow image), `card_summary(card) -> [(label, value)]` (the card page's facts).
    - `engine_modes`: simulation mode -> hook `(counts, cards, options) -> dict`.
    - `engine`: its rules engine's `EngineSpec` (simulator/engines/common/spec.py: how a game-blind tool starts,
      loads and counts its games); the engine itself has the shape of simulator/engines/common/protocol.py.
      The native build's list of engines (scripts/build_native.py) comes from these.
    - `runs`: the module that runs its simulations (`MODES`, `build_spec`, `chunk_plan`, `run_chunk`, `merge`,
      `finalize`, `request_key`, `run_fields`: simulator/games/__init__.py); the `simulate` command, the
      simulation API and the Celery workers run every game through these, and their games and modes come from
      them.
    """

    slug: str
    name: str
    rules: str = ""
    url_prefix: str | None = None   # where its pages are served: None is /<slug>, "" the site's original URLs
    own_tables: bool = False         # its cards and decks in the apps' own tables, not the shared GameCard rows
    card_types: tuple[str, ...] = ()
    sections: tuple[Section, ...] = ()
    formats: tuple[str, ...] = ("standard",)
    format_notes: Mapping[str, str] = field(default_factory=dict)  # format -> what it checks (the editor's help)
    parse_card_file: Callable | str | None = None
    set_to_json: Callable | str | None = None
    card_to_json: Callable | str | None = None
    search_keys: Callable | str | None = None
    search_examples: Sequence[tuple[str, str]] = ()
    parse_decklist: Callable | str | None = None
    export_decklist: Callable | str | None = None
    check_deck: Callable | str | None = None
    check_text: Callable | str | None = None
    identity: Callable | str | None = None
    hands: Callable | str | None = None
    render_card: Callable | str | None = None
    card_summary: Callable | str | None = None
    engine_modes: Mapping[str, Callable | str] = field(default_factory=dict)
    engine: Callable | str | None = None        # its rules engine's EngineSpec (simulator/engines/common/spec.py)
    runs: Callable | str | None = None          # the module that runs its simulations (simulator/games/__init__.py)
    starters: Callable | str | None = None     # () -> [(name, decklist text)]
    data_files: Callable | str | None = None   # () -> [paths of the shipped card files]
    colors: Mapping[str | None, str] = field(default_factory=dict)  # identity slug -> #rrggbb
    card_group: Callable | str | None = None   # card -> its identity slug (for colours and filters)
    group_color: Callable | str | None = None  # identity slug -> #rrggbb, for an identity `colors` does not list
    # the deck doctor (cards/games/doctor.py): `doctor(DoctorDeck) -> [Finding]`, the game's checks; and
    # `doctor_samples(entries, deck_hash, games=True) -> [GameSample]`, the simulated games they read
    doctor: Callable | str | None = None
    doctor_samples: Callable | str | None = None
    rulebook: Rulebook | None = None            # its rulebook page (roc_site/rulebook.py)

    @property
    def prefix(self) -> str:
        """The start of its pages' addresses: "" for the game at the site's original URLs, else "/<slug>"."""
        return f"/{self.slug}" if self.url_prefix is None else self.url_prefix

    def hook(self, name: str):
        """The named hook, resolved; raises NotImplementedError naming the game when it has none."""
        value = getattr(self, name)
        if value is None:
            raise NotImplementedError(f"the game {self.slug!r} has no {name}")
        return _resolve(value)

    def has(self, name: str) -> bool:
        return getattr(self, name) is not None

    def mode(self, name: str):
        if name not in self.engine_modes:
            raise NotImplementedError(f"the game {self.slug!r} has no simulation mode {name!r}; modes: "
                                      f"{', '.join(self.engine_modes) or 'none'}")
        return _resolve(self.engine_modes[name])

    def group_colors(self, cards: Iterable[dict] = ()) -> dict[str | None, str]:
        """Identity slug -> colour: `colors`, plus every other identity the cards have (a set may bring a new
        one), coloured by `group_color` or else as the identity-less cards."""
        out: dict[str | None, str] = dict(self.colors)
        if self.card_group is None:
            return out
        group_of = self.hook("card_group")
        color_of = self.hook("group_color") if self.group_color is not None else None
        for card in cards:
            g = group_of(card)
            if g not in out:
                out[g] = color_of(g) if color_of is not None else self.colors.get(None, "#7a6d5c")
        return out

    def section_of(self, card: dict) -> str:
        for s in self.sections:
            if card.get("type") in s.types:
                return s.label
        return "Other"


_GAMES: dict[str, Game] = {}


def register(game: Game, *, replace: bool = False) -> Game:
    if not SLUG_RE.match(game.slug):
        raise ValueError(f"a game's slug is 2–16 lowercase letters and digits, not {game.slug!r}")
    if game.slug in _GAMES and not replace:
        raise ValueError(f"the game {game.slug!r} is already registered")
    _GAMES[game.slug] = game
    return game


def unregister(slug: str) -> Game | None:
    if slug == DEFAULT:
        raise ValueError("r1 cannot be unregistered")
    return _GAMES.pop(slug, None)


def get(slug: str | None) -> Game:
    """The game of that slug; None or "" means r1 (CONTRACTS §7)."""
    slug = slug or DEFAULT
    try:
        return _GAMES[slug]
    except (KeyError, TypeError):
        raise UnknownGame(slug) from None


def slugs() -> list[str]:
    return list(_GAMES)


def games() -> list[Game]:
    return list(_GAMES.values())


def hosted() -> list[Game]:
    """The games served under their own prefix (/<game>/…): every game but the one at the site's original URLs."""
    return [g for g in _GAMES.values() if g.prefix]


def entries(counts: Mapping[str, int], cards: Iterable[dict]) -> list[tuple[dict, int]]:
    """(card, count) pairs of the counts' known codes."""
    by_code = {c["code"]: c for c in cards}
    return [(by_code[code], n) for code, n in counts.items() if code in by_code]


# ---- the games ------------------------------------------------------------------------------------------------
register(Game(
    slug="r1", name="A Reign of Kings", rules="000_…, 001_…", url_prefix="", own_tables=True,
    card_types=r1_facts.SECTION_TYPES,
    sections=(Section("Faction", ("faction",)), Section("Destiny", ("destiny",)), Section("Quests", ("quest",)),
              Section("Units", ("unit",)), Section("Locations", ("location",)),
              Section("Attachments", ("attachment",)), Section("Deeds", ("deed",))),
    parse_card_file="cards.cardfile:parse_card_file",
    card_to_json="cards.cardfile:card_to_json",
    engine="simulator.engines.r1.spec:SPEC",
    runs="simulator.games.r1",
    doctor="cards.games.r1.doctor:diagnose",
    doctor_samples="simulator.doctor_sample:r1_samples",
    # its numbered lists (§4's setup steps) keep no anchors of their own: the page and its links stay as they were
    rulebook=Rulebook(file="roc_site/rulebooks/r1.txt", title="Rulebook (ruleset r1)", max_chapter=13,
                      list_anchors=False),
))


register(Game(
    slug="realms", name="The Realm duel", rules="002_…",
    card_types=("leader", "place", "warrior", "intrigue"),
    sections=(Section("Leaders", ("leader",)), Section("Places", ("place",)), Section("Warriors", ("warrior",)),
              Section("Intrigues", ("intrigue",))),
    formats=("standard", "simplified"),
    format_notes={"standard": "002 §18, §2, §5: at least 60 cards counting 1–3 Leaders of one affiliation, at most "
                              "5 copies of a name unless UNLIMITED, every card of the Leaders' affiliation or General",
                  "simplified": "002 §17: the same, affiliation ignored"},
    parse_card_file="cards.games.realms.schema:parse_card_file",
    set_to_json="cards.games.realms.schema:set_to_json",
    card_to_json="cards.games.realms.schema:card_to_json",
    search_keys="cards.games.realms_hooks:search_keys",
    search_examples=(
        ("t:warrior wt:infantry", "infantry Warriors"),
        ("aff:deepwood t:leader", "the Deepwood Kin's Leaders"),
        ("cv>=5 -is:unique", "Combat Value 5 or more, not unique"),
        ("tac:left tac:right", "cards with both flank tactics"),
        ("pr:iron or pr:timber", "cards providing iron or timber"),
        ("co:food c<=1", "starting cost 1 or less, consuming food"),
        ('k:"art spell"', "ART SPELL intrigues"),
        ("legal:ashen t:place", "Places an Ashen Covenant deck may hold (002 §5)"),
        ("x:raid", "rules text mentioning raids"),
    ),
    parse_decklist="cards.games.realms_hooks:parse_decklist",
    export_decklist="cards.games.realms_hooks:export_decklist",
    check_deck="cards.games.realms_hooks:check_deck",
    check_text="cards.games.realms_hooks:check_text",
    identity="cards.games.realms_hooks:identity",
    hands="cards.games.realms_hooks:hands",
    render_card="cards.games.realms.images:render_card",
    card_summary="cards.games.realms_hooks:card_summary",
    # goldfish and versus run the engine, so they live in simulator/ (simulator/games/realms.py): cards ← decks ←
    # simulator, never the other way
    engine_modes={"hands": "cards.games.realms_hooks:hands_mode"},
    starters="cards.games.realms_hooks:starters",
    data_files="cards.games.realms_hooks:data_files",
    colors={"sunward": "#b3362b", "deepwood": "#3e7a37", "ashen": "#5e3b7e", "tideholm": "#1f6a8a",
            None: "#7a6d5c"},
    card_group="cards.games.realms_hooks:card_group",
    engine="simulator.engines.realms.spec:SPEC",
    runs="simulator.games.realms",
    group_color="cards.games.realms.schema:affiliation_color",
    doctor="cards.games.realms.doctor:diagnose",
    doctor_samples="simulator.doctor_sample:realms_samples",
    rulebook=Rulebook(file="roc_site/rulebooks/realms.txt", title="Rulebook", number="002"),
))

register(Game(
    slug="regions", name="Heroes and Regions", rules="003_…",
    card_types=("hero", "region", "supplies", "citizen", "structure", "tactic", "recognition"),
    parse_card_file="cards.games.regions.schema:parse_card_file",
    card_to_json="cards.games.regions_hooks:card_to_json",
    set_to_json="cards.games.regions_hooks:set_to_json",
    search_keys="cards.games.regions_hooks:search_keys",
    render_card="cards.games.regions_hooks:render_card",
    card_summary="cards.games.regions_hooks:card_summary",
    data_files="cards.games.regions_hooks:data_files",
    engine="simulator.engines.regions.spec:SPEC",
    runs="simulator.games.regions",
    # the source page lost its chapter headings to images; the project reads its chapters as docs/games/regions.md
    # does (§2 the setup steps, §3 the turn's outline), chapters 4-9 are anchored at their first section
    rulebook=Rulebook(file="roc_site/rulebooks/regions.txt", title="Rulebook", number="003", headings={
        "Worth reading once before a first game": "Glossary",
        "Two to four players. Allow about five minutes": "2. Setup",
        "Four phases, then Damage & Clean Up": "3. The turn",
    }),
))

__all__ = ["DEFAULT", "Game", "Rulebook", "Section", "UnknownGame", "entries", "games", "get", "hosted", "register", "slugs",
           "unregister"]
