"""/<game>/tune/ for the hosted games: the same form (templates/simulator/tuning.html) and runs as r1's /tune/,
each box filled from the game's pickers (simulator/games/picks.py: its starters, my decks, published decklists,
shipped strategies) and, for a game of strategies, a Hero per strategy. The run pages, cells and API are
tuning_views.py's and tuning_api.py's with the game passed on; only the form's sources differ, so it is here.

A pick or a Hero the page did not offer, or a player that is neither Fast nor Strong, is a 400 naming its box;
nothing is started on bad input.
"""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from roc_site.throttling import page_throttle

from . import access, runner, tuning
from . import tuning_services as services
from .api import anonymous_key
from .models import TuningRun
from .services import BrokerUnavailable, LimitExceeded
from .tuning_views import SEPARATOR, _put, game_context, split_lists

MAX_TEXT = 60_000   # a box of up to 12 lists


def boxes(kind: str, side: str) -> list[tuple[str, str, bool]]:
    """The boxes of each kind of run, in the game's word for a side: (field, label, holds several lists)."""
    word = side.capitalize()
    return {"compare": [("a", f"{word} A", False), ("b", f"{word} B", False), ("gauntlet", "Gauntlet", True)],
            "tune": [("deck", word, False), ("gauntlet", "Gauntlet", True)],
            "matrix": [("decks", f"{word}s", True)]}[kind]


def _name(text: str, default: str) -> str:
    """A list's name from its first line ("# Starter deck: The Sunward Throne — …" -> "The Sunward Throne — …")."""
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if not first.startswith("#"):
        return default
    name = first.lstrip("# ").strip()
    return (name.split(":", 1)[1].strip() if name.lower().startswith("starter deck:") else name)[:120] or default


def _game(game: str):
    from cards.games import registry

    from .games import run_hook

    if run_hook(game, "tuning") is None:
        raise Http404(f"The game {game!r} has no tuning pages.")
    return registry.get(game)


@require_http_methods(["GET", "POST"])
def game_tune_page(request, game: str):
    from .games import picks

    spec = _game(game)
    ops = spec.hook("runs").tuning()
    words = game_context(game)
    kind = request.POST.get("kind") or request.GET.get("kind") or "compare"
    if kind not in tuning.KINDS:
        kind = "compare"
    box_list = boxes(kind, ops.SIDE)
    labels = {f: label for f, label, _ in box_list}
    form = {"kind": kind, "a": "", "b": "", "deck": "", "gauntlet": "", "decks": "",
            "target": "goldfish" if ops.GOLDFISH else "winrate", "games": "", "seed": "1", "player": "fast",
            "hero_a": "", "hero_b": "", "hero_deck": ""}
    choices = picks.options(request, spec)
    heroes = picks.heroes(spec)
    players = picks.players(spec)
    problems: list[str] = []

    def resolve(field: str, pick: str) -> str | None:
        try:
            return picks.resolve(request, spec, pick)[0]
        except picks.PickError as exc:
            problems.append(f"{labels[field]}: {exc}")
            return None

    if request.method == "GET":
        for field, _, several in box_list:   # ?a=starter:NAME, ?deck=strategy:big-money, … (links fill boxes)
            if request.GET.get(field):
                text = resolve(field, request.GET[field])
                if text is None:
                    raise Http404(problems[-1])
                form[field] = text
        if request.GET.get("all_starters") and kind == "matrix":
            lists = [t for _, t in (spec.hook("starters")() if spec.has("starters") else ops.default_gauntlet())]
            form["decks"] = f"\n{SEPARATOR}\n".join(t.strip() for t in lists[: tuning.MAX_DECKS["matrix"]])
    error, status = None, 200
    if request.method == "POST":
        form.update({k: request.POST.get(k, v)[:MAX_TEXT] for k, v in form.items()})
        loading = request.POST.get("load") == "1"
        for field, _, several in box_list:
            pick = request.POST.get(f"pick_{field}", "")
            if pick and loading:
                text = resolve(field, pick)
                if text is not None:
                    form[field] = _put(form[field], text, several)
        for field, _, several in box_list:
            hero = form.get(f"hero_{field}", "")
            if hero and hero not in heroes:
                problems.append(f"{labels[field]}: there is no Hero called “{hero[:80]}”; choose one from the list "
                                "(or “the strategy's own”).")
        if form["player"] not in {p["key"] for p in players}:
            problems.append(f"Players: choose {' or '.join(p['label'] for p in players)}.")
        if form["target"] not in tuning.TARGETS or (form["target"] == "goldfish" and not ops.GOLDFISH):
            problems.append("Improve: choose " + ("goldfish speed or " if ops.GOLDFISH else "") + "win rate.")
        if problems:
            error, status = "Pick again: nothing was started.", 400
        elif not loading:
            throttled = page_throttle(request)
            if throttled:
                error, status = throttled, 429
            else:
                started = _start(request, game, kind, form, ops.players()[form["player"]])
                if isinstance(started, TuningRun):
                    return redirect(started.get_absolute_url())
                error, status = started
    recent = access.owned_runs(request, TuningRun).filter(game=game)[:10]
    return access.keep_session(request, render(request, "simulator/tuning.html", {
        **words, "form": form, "kind": kind, "kinds": _kinds(ops), "error": error, "problems": problems,
        "boxes": [{"field": f, "label": label, "several": several, "value": form[f],
                   "hero": form.get(f"hero_{f}", "") if not several else None} for f, label, several in box_list],
        "choices": choices, "heroes": heroes, "signed_in": request.user.is_authenticated,
        "player_times": [{"key": p["key"], "label": p["label"], "about": p["about"],
                          **{mode: time for mode, time in p["times"]}} for p in players],
        "recent": recent, "separator": SEPARATOR, "default_games": tuning.DEFAULT_GAMES[kind],
        "all_starters_label": "Fill in every starter deck" if choices["starters"] else "Fill in every shipped "
                                                                                         "strategy"},
        status=status))


def _kinds(ops) -> list[tuple[str, str]]:
    return [(value, ops.SWAPS if value == "tune" else label) for value, label in TuningRun.KIND_CHOICES]


def _start(request, game: str, kind: str, form: dict, policy: str):
    """Start the run the form asks for: the run, or (error message, HTTP status)."""
    from .games import picks

    def side(field: str, default: str) -> tuple[str, str]:
        text = form[field]
        if form.get(f"hero_{field}"):
            text = picks.with_hero(text, form[f"hero_{field}"])
        return _name(text, default), text
    if kind == "compare":
        decks = [side("a", "A"), side("b", "B")]
    elif kind == "tune":
        decks = [side("deck", "deck")]
    else:
        decks = [(_name(t, n), t) for n, t in split_lists(form["decks"], "list")]
    gauntlet = [(_name(t, n), t) for n, t in split_lists(form["gauntlet"], "gauntlet list")]
    user = request.user if request.user.is_authenticated else None
    if user is None and not request.session.session_key:
        request.session.save()
    try:
        # One player on both sides, as on /<game>/simulate/: the result measures the lists, not the players.
        run, _ = services.tuning_request(
            game=game, kind=kind, decks=decks, gauntlet=gauntlet, games=form["games"].strip() or None,
            seed=form["seed"].strip() or None, policy=policy, opponent_policy=policy, target=form["target"],
            user=user, session_key="" if user else anonymous_key(request, create=True))
        return run
    except (tuning.TuningError, LimitExceeded, runner.EngineUnavailable) as exc:
        return str(exc), 400
    except BrokerUnavailable as exc:
        return str(exc), 503
