"""Pages and API of the hosted games' simulations, at /<game>/simulate/… and /<game>/api/…:

- /realms/simulate/: goldfish or head-to-head of pasted (or starter) decklists; /regions/simulate/: strategy
  against strategy. A run goes to the Celery workers (simulator/games/services.py) and its page polls (htmx).
- /<game>/simulate/runs/ID/: the report with charts (pygal); /<game>/simulate/runs/ID/games/N/: game N of the run on the game's board (or its log)
  step by step.
- /regions/strategies/: the strategy editor; typing posts to /regions/strategies/parse/ (htmx), which answers the
  parse errors with line and column. /regions/round-robin/: every shipped strategy against every other.
- /<game>/api/simulations/ is simulator/api.py's view (POST a run, GET the visitor's runs).
"""
from __future__ import annotations

from urllib.parse import quote

from django.core.cache import cache
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from roc_site.throttling import page_throttle
from simulator import access, services
from simulator.replay import StepError, step_of
from simulator.run_json import anonymous_key
from simulator.models import SimulationRun

from . import GAMES, STRATEGY_GAMES, charts, run_hook
from .services import GameSpecError, game_run_request

MAX_TEXT = 20_000


class Throttled(Exception):
    """Too many runs started in the window (roc_site/throttling.py): the page answers 429 with the message."""


def _game(game: str) -> str:
    if game not in GAMES:
        raise Http404(f"The game {game!r} has no simulations.")
    return game


def _int(value, default=None):
    value = (value or "").strip() if isinstance(value, str) else value
    if value in (None, ""):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise GameSpecError(f"{value!r} is not a whole number") from None


def _shipped(game: str) -> dict[str, str]:
    """A strategy game's shipped strategies by name (none for a game played by decks)."""
    shipped = run_hook(game, "shipped_strategies")
    return shipped() if shipped else {}


def _owner(request, *, api: bool = False):
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        return user, ""
    return None, access.api_owner_key(request) if api else anonymous_key(request, create=True)


SIDES = (  # (the side's text field, its name field, its picker, the pick in its box, its starter button)
    ("text", "name", "deck_pick", "deck_loaded", "use_starter"),
    ("opponent", "opponent_name", "opponent_deck_pick", "opponent_loaded", "use_opponent_starter"))
# ?starter=, ?deck=… on the page's address (a deck's "Simulate this deck", a decklist's, the starters' links)
GET_PICKS = {"starter": ("text", "starter"), "deck": ("text", "deck"), "decklist": ("text", "decklist"),
             "strategy": ("text", "strategy"), "opponent_starter": ("opponent", "starter"),
             "opponent_deck": ("opponent", "deck"), "opponent_decklist": ("opponent", "decklist"),
             "opponent": ("opponent", "strategy")}


def _same(a: str, b: str) -> bool:
    """The same list: the same lines, comment lines (`#`, which name nothing) aside."""
    def lines(text):
        return [ln.strip() for ln in text.replace("\r\n", "\n").strip().split("\n") if not ln.lstrip().startswith("#")]
    return lines(a) == lines(b)


def simulate_page(request, game: str):
    """The form: each side's list from a starter button, one of my decks or a published decklist (or a shipped
    strategy and a Hero), or pasted; one player choice for both sides. "Load" and the starter buttons fill the
    boxes and run nothing; Simulate runs through the page throttle and game_run_request."""
    from cards.games import registry

    from . import picks

    game = _game(game)
    spec = registry.get(game)
    choices = picks.options(request, spec)
    players = picks.players(spec)
    heroes = picks.heroes(spec)
    modes = spec.hook("runs").MODES
    form = {"mode": "versus" if "goldfish" not in modes else "goldfish", "text": "", "opponent": "", "games": "",
            "seed": "1", "player": players[0]["key"] if players else "", "name": "", "opponent_name": "",
            "deck_pick": "", "opponent_deck_pick": "", "deck_loaded": "", "opponent_loaded": "", "hero": "",
            "opponent_hero": ""}
    sides = {text: (name, loaded) for text, name, _, loaded, _ in SIDES}
    if choices["strategies"] and request.method == "GET":   # a game of strategies starts from two shipped ones
        for key, default in (("text", "big-money"), ("opponent", "region-control")):
            if any(f"strategy:{default}" == value for value, _ in choices["strategies"]):
                form[key], form[sides[key][0]] = picks.resolve(request, spec, f"strategy:{default}")
                form[sides[key][1]] = f"strategy:{default}"
    if request.method == "GET":
        for param, (key, kind) in GET_PICKS.items():
            if kind == "strategy" and not choices["strategies"]:
                continue   # a game of decks: ?opponent= is not one of its addresses
            if request.GET.get(param):
                try:
                    form[key], form[sides[key][0]] = picks.resolve(request, spec, f"{kind}:{request.GET[param]}")
                except picks.PickError as exc:
                    raise Http404(str(exc)) from None
                form[sides[key][1]] = f"{kind}:{request.GET[param]}"
                if key == "opponent" and "versus" in modes:
                    form["mode"] = "versus"
        if request.GET.get("mode") in modes:
            form["mode"] = request.GET["mode"]
    errors: list[str] = []
    error, status = None, 200
    if request.method == "POST":
        form.update({k: request.POST.get(k, form[k])[:MAX_TEXT] for k in form})
        # the strategy editor's "Against" pick: it sends no opponent text, so the default opponent must not win
        if request.POST.get("opponent_pick") and not request.POST.get("opponent", "").strip():
            form["opponent_deck_pick"] = f"strategy:{request.POST['opponent_pick']}"
        filling = bool(request.POST.get("use_starter") or request.POST.get("use_opponent_starter")
                       or request.POST.get("load") == "1")
        for text_key, name_key, pick_key, loaded_key, starter_key in SIDES:
            starter = request.POST.get(starter_key)
            chosen = f"starter:{starter}" if starter else (
                form[pick_key] if form[pick_key] and form[pick_key] != form[loaded_key] else "")
            if chosen:   # just chosen: its list fills the box (and the run)
                try:
                    form[text_key], form[name_key] = picks.resolve(request, spec, chosen)
                    form[loaded_key] = chosen
                    if text_key == "opponent" and "versus" in modes:
                        form["mode"] = "versus"
                except picks.PickError as exc:
                    errors.append(f"{'Opponent' if text_key == 'opponent' else 'Your side'}: {exc}")
            elif form[loaded_key]:   # loaded before: edited since, it is a pasted list without that name
                try:
                    loaded_text, loaded_name = picks.resolve(request, spec, form[loaded_key])
                except picks.PickError:
                    loaded_text, loaded_name = None, ""
                if loaded_text is None or not _same(loaded_text, form[text_key]):
                    form[loaded_key], form[name_key] = "", ""
                else:
                    form[name_key] = loaded_name
        for key in ("hero", "opponent_hero"):
            if form[key] and form[key] not in heroes:
                errors.append(f"There is no Hero called “{form[key][:80]}”; choose one from the list "
                              "(or “the strategy's own”).")
        player = {p["key"]: p["policy"] for p in players}
        if form["player"] not in player:
            errors.append(f"Player: choose {' or '.join(p['label'] for p in players)}.")
        if errors:
            error, status = " ".join(errors), 400
        elif not filling:
            user, session_key = _owner(request)
            policy = player[form["player"]]   # the same player on both sides: the result measures the lists
            text, opponent = form["text"], form["opponent"]
            if form["hero"]:
                text = picks.with_hero(text, form["hero"])
            if form["opponent_hero"]:
                opponent = picks.with_hero(opponent, form["opponent_hero"])
            throttled = page_throttle(request)  # the same per-user/per-address limit as the API and r1's page
            try:
                if throttled:
                    raise Throttled(throttled)
                versus = form["mode"] == "versus"
                run, _ = game_run_request(
                    game, mode=form["mode"], text=text, opponent_text=opponent if versus else None,
                    games=_int(form["games"]), seed=_int(form["seed"], 1), policy=policy,
                    opponent_policy=policy if versus else None, user=user, session_key=session_key,
                    deck_name=form["name"][:200], opponent_name=form["opponent_name"][:200] if versus else "")
                return redirect(run.get_absolute_url())
            except Throttled as exc:
                error, status = str(exc), 429
            except (GameSpecError, services.LimitExceeded) as exc:
                error, status = str(exc), 400
            except services.BrokerUnavailable as exc:
                return redirect(exc.run.get_absolute_url())
    mode_words = {"goldfish": "Goldfish: against a Leader that never acts", "versus": "Head-to-head"}
    if not choices["starters"] and not choices["my_decks"] and choices["strategies"]:
        mode_words["versus"] = "Strategy against strategy"
    return render(request, "games/simulate.html", {
        "game": spec, "form": form, "error": error, "choices": choices, "players": players, "heroes": heroes,
        "modes": [(m, mode_words.get(m, m)) for m in modes], "signed_in": request.user.is_authenticated,
        "sides": [{"text": "text", "name": form["name"], "pick": "deck_pick", "loaded": form["deck_loaded"],
                   "starter_button": "use_starter", "hero": "hero", "hero_value": form["hero"],
                   "value": form["text"], "id": "sim-text", "opponent": False},
                  {"text": "opponent", "name": form["opponent_name"], "pick": "opponent_deck_pick",
                   "loaded": form["opponent_loaded"], "starter_button": "use_opponent_starter",
                   "hero": "opponent_hero", "hero_value": form["opponent_hero"], "value": form["opponent"],
                   "id": "sim-opponent", "opponent": True}]}, status=status)


def _run_for(request, game: str, pk: str) -> SimulationRun:
    return access.run_access(request, pk, game=game)


def run_page(request, game: str, pk: int):
    from cards.games import registry

    from . import picks

    game = _game(game)
    run = _run_for(request, game, pk)
    result = run.result if run.status == "done" else None
    spec = run.spec or {}

    def label(part, name, fallback):   # the deck's own name, as the replay titles it; never its Leaders'
        return name or (part or {}).get("name") or fallback

    from simulator.views import share_context

    context = {"game": registry.get(game), "run": run, "result": result, **share_context(request, run),
               "charts": charts.charts_for(result, game) if result else [],
               "deck_label": label(spec.get("deck"), run.deck_name, "First deck"),
               "opponent_label": label(spec.get("opponent"), run.opponent_name, "Second deck"),
               "replay_games": list(range(1, min(run.games or 0, 10))),
               # the players by the simulate page's words ("Fast", "Strong"), not the engine's policy names
               "player_labels": {p["policy"]: p["label"] for p in picks.players(registry.get(game))}}
    if result:
        from simulator.views import run_doctor
        context["doctor"] = run_doctor(run, request.user, game)
    run_context = run_hook(game, "run_context")
    if result and run_context:
        context.update(run_context(run, result))
    template = "games/run_body.html" if getattr(request, "htmx", False) else "games/run.html"
    return render(request, template, context)


def _hero_name(code: str) -> str:
    from .regions import _hero_name
    return _hero_name(code)


def asked_step(request, total: int) -> int:
    """The replay step the request's `?step=` names (`replay.step_of`)."""
    return step_of(request.GET.get("step"), total)


def replay_url(game: str, ref, index: int, step: int | None = None) -> str:
    """The one address of game `index` (0-based, shown as game index + 1) of a run, at `step`."""
    url = reverse("game-replay-game", args=[game, ref, index])
    return url if step is None else f"{url}?step={step}"


def replay_redirect(request, game: str, pk):
    """/<game>/simulate/runs/ID/replay/[?game=K][&step=S], the address the reports used to link: the same game
    and step at its one address."""
    game = _game(game)
    run = _run_for(request, game, pk)
    raw = request.GET.get("game", "0") or "0"
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        return render(request, "simulator/replay_error.html", {"run": run, "message": f"game: a whole number, not "
                                                                f"{raw[:20]!r}."}, status=400)
    step = request.GET.get("step")
    return redirect(replay_url(game, run.ref, int(raw)) + (f"?step={quote(step)}" if step else ""))


def replay_page(request, game: str, pk, index: int):
    """Game `index` of a run on the game's own board (its run module's `replay_board`), under the game's own
    navigation; the log, one step per turn, for a game without a board."""
    from cards.games import registry

    game = _game(game)
    run = _run_for(request, game, pk)
    board = run_hook(game, "replay_board")
    try:
        if board:
            return board(request, run, registry.get(game), index)
        sample = (run.result or {}).get("sample_log") if run.status == "done" else None
        if not sample or index != 0:
            raise Http404("This run keeps no such game to replay.")
        steps = _steps(sample["lines"])
        at = asked_step(request, len(steps))
    except StepError as exc:
        return render(request, "simulator/replay_error.html", {"run": run, "message": str(exc)}, status=exc.status)
    return render(request, "games/replay.html", {"game": registry.get(game), "run": run, "sample": sample,
                                                 "steps": steps, "at": at, "step": steps[at] if steps else None})


def _steps(lines: list[str]) -> list[dict]:
    """Split a log into one step per turn: both engines start each line with `T<turn> ` (T0: the setup)."""
    steps: list[dict] = []
    last = None
    for text in lines:
        head = text.split(" ", 1)[0]
        turn = head[1:] if head[:1] == "T" and head[1:].isdigit() else last
        if turn != last or not steps:
            steps.append({"title": "Setup" if turn in (None, "0") else f"Turn {turn}", "lines": []})
            last = turn
        steps[-1]["lines"].append(text)
    return steps


# ---- regions: the strategy editor and the round-robin --------------------------------------------------------
def _parse(text: str) -> dict:
    from simulator.engines.regions import CardSet, parse_strategy
    from simulator.engines.regions.strategy import StrategyError

    try:
        strat = parse_strategy(text, CardSet.default())
    except StrategyError as exc:
        return {"ok": False, "errors": exc.as_json()}
    return {"ok": True, "errors": [], "name": strat.name, "hero": strat.hero.name}


def strategy_editor(request, game: str):
    if _game(game) not in STRATEGY_GAMES:
        raise Http404("Strategies are a regions thing (realms builds decks).")
    from cards.games import registry

    shipped = _shipped(game)
    name = request.GET.get("strategy", "big-money")
    text = shipped.get(name, shipped.get("big-money", ""))
    return render(request, "games/strategy_editor.html", {"game": registry.get(game), "text": text,
                                                          "shipped": shipped, "parsed": _parse(text)})


@require_POST
def strategy_parse(request, game: str):
    """The editor's live panel (htmx) or, with Accept: application/json, the parse as JSON."""
    if _game(game) not in STRATEGY_GAMES:
        raise Http404("Strategies are a regions thing.")
    text = request.POST.get("text", "")
    if len(text) > MAX_TEXT:
        parsed = {"ok": False, "errors": [{"line": 1, "column": 1, "message": f"at most {MAX_TEXT:,} characters"}]}
    else:
        parsed = _parse(text)
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse(parsed, status=200 if parsed["ok"] else 400)
    return render(request, "games/_strategy_parse.html", {"parsed": parsed})


def _round_robin_args(request, params) -> tuple[int, int, str | None, str]:
    """games, seed, the visitor's strategy text (or None) and its hash, from the page's address."""
    from . import round_robin as rr_mod

    try:
        games, seed = rr_mod.parse(params)
        games = max(10, games)
    except ValueError:
        games, seed = 100, 1
    h = (params.get("mine") or "").strip()
    mine = None
    if h:
        mine = rr_mod.recall(h)
        if mine is None:
            raise Http404("Your strategy is no longer kept here (strategies are kept a week): add it again.")
    return games, seed, mine, h


def round_robin_page(request, game: str):
    """The shipped strategies' round-robin; POST a strategy's text to add it (a 400 with its parse errors when it
    does not parse), after which the address names it (?mine=HASH)."""
    if _game(game) not in STRATEGY_GAMES:
        raise Http404("The round-robin is of regions strategies.")
    from cards.games import registry

    from . import round_robin as rr_mod

    spec = registry.get(game)
    if request.method == "POST":
        text = request.POST.get("text", "")
        games, seed, _, _ = _round_robin_args(request, request.POST)
        parsed = _parse(text[:MAX_TEXT]) if text.strip() and len(text) <= MAX_TEXT else {
            "ok": False, "errors": [{"line": 1, "column": 1, "message": "paste a strategy (at most "
                                     f"{MAX_TEXT:,} characters)"}]}
        if not parsed["ok"]:
            return render(request, "games/round_robin.html", {
                "game": spec, "games": games, "seed": seed, "mine_text": text[:MAX_TEXT], "parsed": parsed,
                "busy": "Your strategy does not read yet: see the problems below the box.", "status": 400},
                status=400)
        h = rr_mod.remember(text)
        return redirect(f"{request.path}?games={games}&seed={seed}&mine={h}")
    games, seed, mine, h = _round_robin_args(request, request.GET)
    context = {"game": spec, "games": games, "seed": seed, "mine": h, "mine_text": mine or ""}
    try:
        rr = rr_mod.get_or_start(request, games, seed, mine)
    except rr_mod.Busy as exc:  # computed on the workers: the page says so (and reloads while it is computed)
        return render(request, "games/round_robin.html", {**context, "busy": str(exc), "status": exc.status},
                      status=exc.status)
    query = f"?games={games}&seed={seed}" + (f"&mine={h}" if h else "")
    rows = []
    names = rr_mod.labels(rr_mod.strategies(mine))
    for i, (name, hero, row) in enumerate(zip(names, [_hero_name(x) for x in rr["heroes"]], rr["matrix"])):
        cells = [dict(cell, url=reverse("game-round-robin-game", args=[game, i, j, 0]) + query) if cell else None
                 for j, cell in enumerate(row)]
        rows.append((name, hero, cells))
    return render(request, "games/round_robin.html", {**context, "rr": rr, "names": names, "rows": rows,
                                                      "chart": charts.matrix_chart(rr, names)})


def round_robin_game(request, game: str, i: int, j: int, k: int):
    """Game k of the round-robin's pair (row i, column j), played again from the pair's seed on the board of five
    Regions: the games behind a cell of the matrix."""
    if _game(game) not in STRATEGY_GAMES:
        raise Http404("The round-robin is of regions strategies.")
    from cards.games import registry
    from simulator.engines.regions.replay import MAX_SAMPLE_GAMES, replay_game

    from . import round_robin as rr_mod
    from .regions_replay import board_context

    games, seed, mine, h = _round_robin_args(request, request.GET)
    strategies = rr_mod.strategies(mine)
    if i == j or not (0 <= i < len(strategies) and 0 <= j < len(strategies)):
        raise Http404(f"The round-robin has strategies 0 to {len(strategies) - 1}, each against another.")
    n_games = min(MAX_SAMPLE_GAMES, games)
    if not 0 <= k < n_games:
        raise Http404(f"The games of a pair to replay are games 1 to {n_games}; there is no game {k + 1}.")
    spec, names = rr_mod.pair_spec(strategies, i, j, games, seed)
    key = f"regions-rr-game:{rr_mod._key(games, seed, mine)}:{min(i, j)}:{max(i, j)}:{k}"
    data = cache.get(key)
    if data is None:
        data = replay_game(spec, k)
        cache.set(key, data, 24 * 3600)
    query = f"?games={games}&seed={seed}" + (f"&mine={h}" if h else "")

    def url(n, step=None):
        return reverse("game-round-robin-game", args=[game, i, j, n]) + query + (
            f"&step={step}" if step is not None else "")

    try:
        at = asked_step(request, len(data["steps"]))
    except StepError as exc:
        return render(request, "simulator/replay_error.html", {"message": str(exc)}, status=exc.status)
    context = board_context(data, at, k, n_games, names, url)
    context.update({"game": registry.get(game), "run": None, "back_url": reverse("game-round-robin", args=[game])
                    + query, "back_label": "The round-robin"})
    return render(request, "games/regions/replay.html", context)


# ---- the API --------------------------------------------------------------------------------------------------
def api_round_robin(request, game: str):
    """GET the round-robin matrix: 200 when computed, 202 {"detail"} while the workers compute it (ask again)."""
    if _game(game) not in STRATEGY_GAMES:
        raise Http404("The round-robin is of regions strategies.")
    from . import round_robin as rr_mod

    try:
        games, seed = rr_mod.parse(request.GET)
        return JsonResponse(rr_mod.get_or_start(request, games, seed))
    except ValueError as exc:
        return JsonResponse({"detail": str(exc)}, status=400)
    except rr_mod.Busy as exc:
        detail = f"{exc} Ask again in a few seconds." if exc.status == 202 else str(exc)
        response = JsonResponse({"detail": detail, "status": "computing" if exc.status == 202 else "refused",
                                 "games_per_pair": games, "seed": seed}, status=exc.status)
        response["Retry-After"] = str(exc.retry_after)
        return response
