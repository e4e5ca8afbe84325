"""Pages of tuning runs: /tune/ (compare, card swaps, meta matrix), /tune/runs/ID/ (live progress ->
report with charts), /tune/runs/ID/cancel/, /tune/runs/ID/cells/CELL/ (a matrix cell's or a comparison's
opponent's games), /tune/runs/ID/cells/CELL/games/G/ (one game's replay), /tune/meta/
(the nightly matrix of the most-liked decklists). Views only translate: the work is in tuning_services.py."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from cards.starters import starter, starters
from roc_site.throttling import page_throttle

from . import access, runner, tuning, tuning_charts
from . import tuning_services as services
from .api import anonymous_key
from .views_play import replay_share_context
from .models import TuningRun
from .services import BrokerUnavailable, LimitExceeded

SEPARATOR = "---"


def split_lists(text: str, what: str) -> list[tuple[str, str]]:
    """Several decklists in one box, separated by lines of '---'; each named by its '# title' line if any."""
    out = []
    for i, chunk in enumerate(text.replace("\r\n", "\n").split(f"\n{SEPARATOR}\n")):
        chunk = chunk.strip().strip("-").strip()
        if chunk:
            out.append((_title(chunk) or f"{what} {i + 1}", chunk))
    return out


def _title(text: str) -> str | None:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return first.lstrip("# ").strip()[:120] if first.startswith("#") else None


def _version_text(version) -> str:
    from decks.decklist import export_decklist
    from decks.pool import CardPool

    return export_decklist(version.cards, CardPool.from_db())


def _deck_versions(request, deck_id, numbers):
    """Texts of a readable deck's versions (e.g. the latest and the one before it, for "against the previous")."""
    from decks.models import DeckVersion
    from decks.selectors import deck_list_visible

    try:
        deck = deck_list_visible(user=request.user).filter(pk=int(deck_id)).first()
    except (TypeError, ValueError):
        deck = None
    if deck is None:
        raise Http404("No such deck, or it is private.")
    out = []
    for n in numbers:
        v = DeckVersion.objects.filter(deck=deck, number=n).first()
        if v is None:
            raise Http404(f"The deck has no version {n}.")
        out.append(f"# {v.name} v{v.number}\n" + _version_text(v))
    return deck, out


def _put(box: str, text: str, several: bool) -> str:
    """A deck's list into a box: it replaces a single list; a box of several lists gets it added after a
    separator line (once: a list already in the box is not added again)."""
    if not several or not box.strip():
        return text
    if text.strip() in box.replace("\r\n", "\n"):
        return box
    return box.rstrip() + f"\n{SEPARATOR}\n" + text


@require_http_methods(["GET", "POST"])
def tune_page(request):
    from .selectors import deck_version_for, saved_decks_for
    from .tuning_forms import BOXES, TunePicks
    from .views import player_times

    kind = request.POST.get("kind") or request.GET.get("kind") or "compare"
    if kind not in tuning.KINDS:
        kind = "compare"
    form = {"kind": kind, "a": "", "b": "", "deck": "", "gauntlet": "", "decks": "", "target": "goldfish",
            "games": "", "seed": "1", "player": "fast", "owned": "", "from_deck": ""}
    private = False
    my_decks = saved_decks_for(user=request.user)
    if request.method == "GET":
        for key, slot in (("starter_a", "a"), ("starter_b", "b"), ("starter", "deck")):
            s = starter(request.GET.get(key))
            if s is not None:
                form[slot] = s.text
        if request.GET.get("deck_id"):  # "simulate against the previous version" on a deck's history
            against = request.GET.get("against")
            try:
                number = int(request.GET.get("version") or 0)
                previous = int(against) if against else number - 1
            except ValueError:
                raise Http404("Bad version number.")
            _, (form["a"], form["b"]) = _deck_versions(request, request.GET["deck_id"], [number, previous])
            form["from_deck"] = "1"  # a saved deck's cards: the run is shown only to whoever started it
            form["kind"] = kind = "compare"
        if request.GET.get("all_starters"):
            form["decks"] = f"\n{SEPARATOR}\n".join(s.text.strip() for s in starters())
    error, status, problems = None, 200, []
    chosen = {field: "" for field, _, _ in BOXES[kind]}
    if request.method == "POST":
        form.update({k: request.POST.get(k, v) for k, v in form.items()})
        private = bool(form["from_deck"])
        picks = TunePicks(request.POST, kind=kind, my_decks=my_decks)
        filling = any(request.POST.get(f"use_starter_{f}") for f, _, _ in BOXES[kind])
        loading = request.POST.get("load") == "1"
        if not picks.is_valid():
            problems = picks.problems()
            error, status = "Pick again: nothing was started.", 400
        elif filling or loading:
            # A starter button or "Load": fill the box(es) and keep everything else typed (a link would reload
            # the page and lose the lists pasted in the other boxes).
            for field, _, several in BOXES[kind]:
                slug = picks.cleaned_data.get(f"use_starter_{field}")
                if slug:
                    form[field] = _put(form[field], starter(slug).text, several)
                deck_id = picks.cleaned_data.get(f"my_{field}")
                if loading and deck_id:
                    found = deck_version_for(user=request.user, deck_id=deck_id)
                    if found is None:   # it has no saved version yet
                        problems.append(f"{dict((f, lab) for f, lab, _ in BOXES[kind])[field]}: that deck has no "
                                        "saved version yet; save it in the editor first")
                    else:
                        form[field] = _put(form[field], found[1], several)
                        chosen[field] = "" if several else deck_id
            if problems:
                error, status = "Pick again:", 400
        else:
            form["player"] = picks.cleaned_data.get("player") or "fast"
            throttled = page_throttle(request)
            if throttled:
                error, status = throttled, 429
            else:
                started = _start(request, kind, form, picks.policy(), private)
                if isinstance(started, TuningRun):
                    return redirect(started.get_absolute_url())
                error, status = started
    recent = access.owned_runs(request, TuningRun).filter(game="")[:10]
    return access.keep_session(request, render(request, "simulator/tuning.html", {
        "form": form, "kind": kind, "kinds": TuningRun.KIND_CHOICES, "error": error, "problems": problems,
        "player_times": player_times(), "my_decks": my_decks, "chosen": chosen,
        "starters": starters(), "recent": recent, "separator": SEPARATOR,
        "default_games": tuning.DEFAULT_GAMES[kind],
        "holding": {field: _holding(form[field]) for field, _, several in BOXES[kind] if not several}},
        status=status))


def _holding(text: str) -> str:
    """The starter whose list is in a box now (its button shows as chosen, whichever way it got there)."""
    text = text.replace("\r\n", "\n").strip()
    return next((s.slug for s in starters() if text and s.text.strip() == text), "")


def _start(request, kind: str, form: dict, policy: str, private: bool):
    """Start the run the form asks for: the run, or (error message, HTTP status)."""
    if kind == "compare":
        decks = [(_title(t) or n, t) for n, t in (("A", form["a"]), ("B", form["b"]))]
    elif kind == "tune":
        decks = [(_title(form["deck"]) or "deck", form["deck"])]
    else:
        decks = split_lists(form["decks"], "deck")
    user = request.user if request.user.is_authenticated else None
    owned = None
    if kind == "tune" and form["owned"] and user is not None:
        owned = dict(user.collection.values_list("card_code", "count"))
    if user is None and not request.session.session_key:
        request.session.save()
    try:
        # One player on both sides, as on /simulate/: the result measures the decks, not a difference in play.
        run, _ = services.tuning_request(
            kind=kind, decks=decks, gauntlet=split_lists(form["gauntlet"], "gauntlet deck"),
            games=form["games"].strip() or None, seed=form["seed"].strip() or None, policy=policy,
            opponent_policy=policy, target=form["target"], owned=owned, user=user,
            session_key="" if user else anonymous_key(request, create=True), private=private)
        return run
    except (tuning.TuningError, LimitExceeded, runner.EngineUnavailable) as exc:
        return str(exc), 400
    except BrokerUnavailable as exc:
        return str(exc), 503


def player_label(policy: str | None, players: dict[str, str] | None = None) -> str:
    """A policy as the pages name players: greedy -> "Fast", expert (any budget) -> "Strong", as on /simulate/
    (`players`: a hosted game's key -> policy); the API's other players in words rather than their engine names."""
    name = runner.policy_name(policy)
    by_policy = {v.partition(":")[0]: k for k, v in (players or runner.PLAYERS).items()}
    if name in by_policy:
        return {"fast": "Fast", "strong": "Strong"}[by_policy[name]]
    return {"greedy-v1": "Fast (its first version)", "random": "Random moves",
            "first": "First legal move"}.get(name, "another player")


def players_label(run: TuningRun) -> str:
    """"Fast" when both sides are the same player, else "Fast / Strong" (the deck's, then the opponents')."""
    game = tuning.hosted(run.spec) if run.game else None
    players = game.players() if game is not None else None
    mine, theirs = player_label(run.policy, players), player_label(run.opponent_policy, players)
    return mine if mine == theirs else f"{mine} / {theirs}"


def _run_or_404(request, pk, *, write: bool = False, game: str | None = None) -> TuningRun:
    """The run, if this visitor may see it and it is of the game whose address this is (r1's: no game)."""
    run = access.run_access(request, pk, model=TuningRun, write=write)
    if run.game != (game or ""):
        raise Http404("No such run, or it is not shared with you.")
    return run


def game_context(game: str | None) -> dict:
    """What a hosted game's pages add: its registration (the template's words and links) and its tuning module's
    words for one side ("deck", "strategy") and its swaps ("Card swaps", "Hero swaps")."""
    if not game:
        return {"game": None, "side_word": "deck", "sides_word": "decks", "swaps_word": "Card swaps",
                "has_goldfish": True,
                "goldfish_goal": "15 Influence", "tune_url": reverse("simulator:tune")}
    from cards.games import registry

    from .games import run_hook

    ops = run_hook(game, "tuning")()
    return {"game": registry.get(game), "side_word": ops.SIDE, "sides_word": ops.SIDES, "swaps_word": ops.SWAPS,
            "has_goldfish": bool(ops.GOLDFISH), "goldfish_goal": ops.GOLDFISH_GOAL, "tune_url": f"/{game}/tune/"}


@vary_on_headers("HX-Request")
def tuning_run(request, pk: str, game: str | None = None):
    from .views import share_context

    run = _run_or_404(request, pk, game=game)
    context = {"run": run, "result": run.result if run.status == "done" else None,
               "can_cancel": not run.is_finished and run.viewer_owns, "players": players_label(run),
               **game_context(game), **share_context(request, run)}
    if context["result"]:
        context.update(tuning_charts.report_context(context["result"]))
    template = "simulator/tuning_body.html" if getattr(request, "htmx", False) else "simulator/tuning_run.html"
    return render(request, template, context)


@require_http_methods(["POST"])
def tuning_cancel(request, pk: str, game: str | None = None):
    run = _run_or_404(request, pk, write=True, game=game)   # whoever has only the shared link cannot cancel
    services.tuning_cancel(run)
    return redirect(run.get_absolute_url())


def _cell_of(request, pk: int, cell: str, game: str | None = None):
    """A finished compare or matrix run and one of its cells: (run, [(label, deck ref)], names of the sides)."""
    run = _run_or_404(request, pk, game=game)
    if run.kind not in ("matrix", "compare") or run.status != "done" or not run.result:
        raise Http404("Only a finished comparison or matrix lists its games.")
    spec = run.spec
    if run.kind == "matrix":
        names = [d["name"] for d in run.result["decks"]]
        row = next((c for c in run.result["cells"] if c["cell"] == cell and c["first_game"] is not None), None)
        if row is None:
            raise Http404("No such cell.")
        return run, [("", f"deck:{row['deck']}")], (names[row["deck"]], names[row["opponent"]]), row
    cells = {**({"gf": "the goldfish"} if tuning.has_goldfish(spec) else {}),
             **{f"g{j}": g["name"] for j, g in enumerate(spec["gauntlet"])}}
    if cell not in cells:
        raise Http404("No such opponent.")
    return run, [("A", "deck:0"), ("B", "deck:1")], (cells[cell],), None


def _outcome(score: int, goldfish: bool, cap: int) -> str:
    if goldfish:
        return f"round {score}" if score <= cap else f"not in {cap} rounds"
    return {2: "won", 1: "draw", 0: "lost"}[score]


def tuning_cell(request, pk: int, cell: str, game: str | None = None):
    """A matrix cell or a comparison's opponent: its record and every game, with its seed, who went first, the
    result (both versions' on the same seed for a comparison) and a link to its replay."""
    run, sides, names, row = _cell_of(request, pk, cell, game)
    spec = run.spec
    goldfish = cell == "gf"
    scores = [services.cell_scores(run, ref, cell) for _, ref in sides]
    only_differ = run.kind == "compare" and request.GET.get("differ") == "1"
    games = []
    for g in range(min(len(s) for s in scores)):
        setup_seed = tuning.game_seed(spec["seed"], cell, g)
        results = [{"side": label, "score": s[g], "text": _outcome(s[g], goldfish, spec["max_rounds"]),
                    "url": f"{run.get_absolute_url()}cells/{cell}/games/{g}/" + (f"?deck={k}" if label else "")}
                   for k, ((label, _), s) in enumerate(zip(sides, scores))]
        differ = len({r["score"] for r in results}) > 1
        if only_differ and not differ:
            continue
        games.append({"index": g, "number": g + 1, "seed": setup_seed, "differ": differ, "results": results,
                      "first": None if goldfish else ("deck" if g % 2 == 0 else "opponent")})
    context = {"run": run, "row": row, "cell": cell, "games": games, "sides": sides, "goldfish": goldfish,
               "only_differ": only_differ, "differing": sum(1 for x in games if x["differ"]) if not only_differ
               else len(games)}
    if run.kind == "matrix":
        context.update(deck=names[0], opponent=names[1])
    else:
        context.update(deck=f"{run.result['a']['name']} / {run.result['b']['name']}", opponent=names[0])
    context.update(deck_short=tuning_charts.short(context["deck"], 16),
                   opponent_short=tuning_charts.short(names[-1], 16), **game_context(game))
    return render(request, "simulator/tuning_cell.html", context)


def _replayed(run: TuningRun, ref: str, cell: str, index: int) -> dict:
    from django.core.cache import cache

    from . import replay

    key = f"tune-replay:{run.pk}:{run.created_at.timestamp()}:{ref}:{cell}:{index}:{run.engine_version}"
    out = cache.get(key)
    if out is None:
        setup = tuning.game_setup(run.spec, ref, cell, index)
        names = (replay.short_name(setup["deck"].get("name"), "Deck"),
                 replay.short_name((setup["opponent"] or {}).get("name"), "Opponent" if setup["opponent"]
                                   else "the goldfish"))
        if names[0] == names[1]:
            names = (names[0] + " (1)", names[1] + " (2)")
        deck_b = runner.engine_deck(setup["opponent"]) if setup["opponent"] else None
        out = replay.replay_game(runner.engine_deck(setup["deck"]), deck_b, seed=setup["seed"],
                                 first_player=setup["first_player"], policies=setup["policies"],
                                 max_rounds=setup["max_rounds"], names=names)
        out.update({"names": names, "seed": setup["seed"], "index": index})
        cache.set(key, out, 3600)
    return out


def tuning_game(request, pk: int, cell: str, index: int, game: str | None = None):
    """The replay of one game of a cell (?deck=0|1 picks version A or B of a comparison; ?step=S the moment),
    played again from the run's decks, seed and policies in the replay viewer of simulations (a hosted game's:
    its own board, from its tuning module's `replay_page`)."""
    from . import replay

    run, sides, names, row = _cell_of(request, pk, cell, game)
    try:
        k = int(request.GET.get("deck", "0"))
        label, ref = sides[k]
    except (ValueError, IndexError):
        raise Http404("No such deck in this cell.")
    if game:
        try:
            setup = tuning.game_setup(run.spec, ref, cell, index)
        except tuning.TuningError as exc:
            raise Http404(str(exc))
        from .replay import StepError

        cell_url = f"{run.get_absolute_url()}cells/{cell}/"
        try:
            return tuning.hosted(run.spec).replay_page(request, run, setup, {
                "step_url": f"{cell_url}games/{index}/?deck={k}&step=", "cell_url": cell_url,
                "game_url": cell_url + "games/{game}/" + f"?deck={k}&step=", "games": run.spec["games"],
                "index": index, "side": label, "key": f"{ref}:{cell}:{index}"})
        except StepError as exc:   # a hand-edited ?step=
            return render(request, "simulator/replay_error.html", {"run": run, "message": str(exc)},
                          status=exc.status)
    try:
        data = _replayed(run, ref, cell, index)
    except tuning.TuningError as exc:
        raise Http404(str(exc))
    frames = data["frames"]
    try:
        step, frame, links = replay.select_step(frames, request.GET.get("step"), reverse(
            "simulator:tuning_game", args=[run.ref, cell, index]) + f"?deck={k}&step=")
    except replay.StepError as exc:   # a hand-edited ?step=
        return render(request, "simulator/replay_error.html", {"run": run, "message": str(exc)}, status=exc.status)
    names = list(data["names"])
    return render(request, "simulator/tuning_replay.html", {
        "run": run, "data": data, "frame": frame, "board": frame["board"], "names": names, "step": step,
        "steps": len(frames), "links": links, "index": index, "sandbox_url": None, "side": label,
        "cell_url": reverse("simulator:tuning_cell", args=[run.ref, cell]),
        "actor_name": names[frame["actor"]] if frame["actor"] in (0, 1) else None,
        **replay_share_context(request, run, lambda ref: reverse("simulator:tuning_game", args=[ref, cell, index])
                               + f"?deck={k}&step={step}")})


def meta_page(request):
    run = services.latest_nightly()
    if run is not None:
        if not run.share_token:   # one made before runs were private: the site's own, shared with everyone
            access.set_shared(run, True)
        run.ref = run.share_token   # the nightly matrix is shared with everyone; its cells' links use the token
    context = {"run": run, "result": run.result if run else None}
    if run is not None:
        context.update(tuning_charts.report_context(run.result))
    return render(request, "simulator/tuning_meta.html", context)
