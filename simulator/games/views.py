"""Pages and API of the hosted games' simulations, at /<game>/simulate/… and /<game>/api/…:

- /realms/simulate/: goldfish or head-to-head of pasted (or starter) decklists; /regions/simulate/: strategy
  against strategy. A run goes to the Celery workers (simulator/games/services.py) and its page polls (htmx).
- /<game>/simulate/runs/ID/: the report with charts (pygal); /<game>/simulate/runs/ID/replay/: the sample game's log
  step by step.
- /regions/strategies/: the strategy editor; typing posts to /regions/strategies/parse/ (htmx), which answers the
  parse errors with line and column. /regions/round-robin/: every shipped strategy against every other.
- /<game>/api/simulations/ (POST a run, GET the visitor's runs) and the same with `game` on /api/simulations/.
"""
from __future__ import annotations

import json

from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from roc_site.inputs import InputError, loads
from roc_site.throttling import page_throttle
from simulator import access, selectors, services
from simulator.run_json import anonymous_key, run_json
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


def _deck_text(request, spec, pk: str) -> tuple[str, str]:
    """A saved deck this request may see (decks.game_views.visible_deck) as decklist text, and its name."""
    from cards.selectors import game_cards
    from decks.game_views import visible_deck

    if not pk.isdigit():
        raise Http404("No such deck.")
    deck = visible_deck(request, spec, int(pk))
    return spec.hook("export_decklist")(deck.cards, game_cards(spec.slug), deck.name), deck.name


def _owner(request, *, api: bool = False):
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        return user, ""
    return None, access.api_owner_key(request) if api else anonymous_key(request, create=True)


def simulate_page(request, game: str):
    game = _game(game)
    from cards.games import registry

    spec = registry.get(game)
    shipped = _shipped(game)
    starters = spec.hook("starters")() if spec.has("starters") else []
    modes = run_hook(game, "MODE_LABELS")
    form = {"mode": modes[0][0], "text": "", "opponent": "", "games": "",
            "seed": "1", "policy": "", "opponent_policy": "", "player": "", "name": "", "opponent_name": ""}
    if game in STRATEGY_GAMES:
        strategy, opponent = run_hook(game, "DEFAULT_STRATEGIES")
        form["text"] = shipped.get(request.GET.get("strategy", strategy), "")
        form["opponent"] = shipped.get(request.GET.get("opponent", opponent), "")
    elif request.GET.get("starter"):
        form["text"] = dict(starters).get(request.GET["starter"], "")
    if spec.has("export_decklist") and request.method == "GET":   # "Simulate this deck" on a deck's page
        for param, text_key, name_key in (("deck", "text", "name"), ("opponent_deck", "opponent", "opponent_name")):
            if request.GET.get(param):
                form[text_key], form[name_key] = _deck_text(request, spec, request.GET[param])
                if param == "opponent_deck":
                    form["mode"] = "versus"
    error, status = None, 200
    if request.method == "POST":
        form.update({k: request.POST.get(k, form[k])[:MAX_TEXT] for k in form})
        # the strategy editor's "Against" pick: it sends no opponent text, so the default opponent must not win
        if game in STRATEGY_GAMES and request.POST.get("opponent_pick") and not request.POST.get("opponent", "").strip():
            form["opponent"] = shipped.get(request.POST["opponent_pick"], "")
        user, session_key = _owner(request)
        players = run_hook(game, "PLAYERS", {})
        if form["player"] in players:   # fast / strong: both sides unless chosen
            form["policy"] = form["policy"] or players[form["player"]]
            if form["mode"] == "versus":
                form["opponent_policy"] = form["opponent_policy"] or players[form["player"]]
        throttled = page_throttle(request)  # the same per-user/per-address limit as the API and r1's page
        try:
            if throttled:
                raise Throttled(throttled)
            run, _ = game_run_request(
                game, mode=form["mode"], text=form["text"], opponent_text=form["opponent"] or None,
                games=_int(form["games"]), seed=_int(form["seed"], 1), policy=form["policy"] or None,
                opponent_policy=form["opponent_policy"] or None, user=user, session_key=session_key,
                deck_name=form["name"][:200], opponent_name=form["opponent_name"][:200])
            return redirect(run.get_absolute_url())
        except Throttled as exc:
            error, status = str(exc), 429
        except (GameSpecError, services.LimitExceeded) as exc:
            error, status = str(exc), 400
        except services.BrokerUnavailable as exc:
            return redirect(exc.run.get_absolute_url())
    return render(request, "games/simulate.html", {
        "game": spec, "form": form, "error": error, "shipped": shipped, "starters": starters,
        "policies": run_hook(game, "POLICIES"), "modes": modes}, status=status)


def _run_for(request, game: str, pk: str) -> SimulationRun:
    return access.run_access(request, pk, game=game)


def run_page(request, game: str, pk: int):
    from cards.games import registry

    game = _game(game)
    run = _run_for(request, game, pk)
    result = run.result if run.status == "done" else None
    spec = run.spec or {}

    def label(part, name, fallback):
        return name or ", ".join((part or {}).get("leaders") or []) or (part or {}).get("name") or fallback

    from simulator.views import share_context

    context = {"game": registry.get(game), "run": run, "result": result, **share_context(request, run),
               "charts": charts.charts_for(result, game) if result else [],
               "deck_label": label(spec.get("deck"), run.deck_name, "the first"),
               "opponent_label": label(spec.get("opponent"), run.opponent_name, "the opponent")}
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


def replay_page(request, game: str, pk: int):
    """The sample game (game 0 of the run) step by step: its log lines, one step per turn or round."""
    from cards.games import registry

    game = _game(game)
    run = _run_for(request, game, pk)
    board = run_hook(game, "replay_board")
    if board:  # the game's own board (regions: five Regions, regions_replay.py)
        return board(request, run, registry.get(game))
    sample = (run.result or {}).get("sample_log") if run.status == "done" else None
    if not sample:
        raise Http404("This run has no sample game (goldfish runs keep none).")
    steps = _steps(sample["lines"])
    try:
        at = max(0, min(int(request.GET.get("step", 0)), len(steps) - 1))
    except ValueError:
        at = 0
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


def round_robin_page(request, game: str):
    if _game(game) not in STRATEGY_GAMES:
        raise Http404("The round-robin is of regions strategies.")
    from cards.games import registry

    from . import round_robin as rr_mod

    try:
        games, seed = rr_mod.parse(request.GET)
        games = max(10, games)
    except ValueError:
        games, seed = 100, 1
    context = {"game": registry.get(game), "games": games, "seed": seed}
    try:
        rr = rr_mod.get_or_start(request, games, seed)
    except rr_mod.Busy as exc:  # computed on the workers: the page says so (and reloads while it is computed)
        return render(request, "games/round_robin.html", {**context, "busy": str(exc), "status": exc.status},
                      status=exc.status)
    return render(request, "games/round_robin.html", {**context, "rr": rr, "chart": charts.matrix_chart(rr),
                                                      "rows": list(zip(rr["strategies"], [_hero_name(h) for h in rr["heroes"]],
                                                                       rr["matrix"]))})


# ---- the API --------------------------------------------------------------------------------------------------
def _body(request) -> dict:
    try:
        data = loads(request.body or b"{}", field="", max_bytes=None)  # the body's size: InputGuardMiddleware
    except InputError as exc:
        raise GameSpecError(f"Send a JSON object: {str(exc).lstrip(': ')}") from None
    if not isinstance(data, dict):
        raise GameSpecError("Send a JSON object with mode and text.")
    return data


def api_create(request, game: str, data: dict):
    """POST a run of a hosted game: 202 with the run's id and url; 400 {"detail"} for bad input."""
    user, session_key = _owner(request, api=True)
    try:
        mode = data.get("mode")
        if not isinstance(mode, str):
            raise GameSpecError("mode: goldfish or versus")
        for key in ("text", "opponent", "policy", "opponent_policy", "format", "name", "opponent_name",
                    "strategy", "opponent_strategy"):
            if data.get(key) is not None and not isinstance(data[key], str):
                raise GameSpecError(f"{key}: a string")
        games, seed = data.get("games"), data.get("seed", 1)
        for key, value in (("games", games), ("seed", seed)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise GameSpecError(f"{key}: a whole number")
        text, opponent = data.get("text") or "", data.get("opponent") or None
        shipped = _shipped(game)   # a strategy game's API takes a shipped strategy's name
        text = shipped.get(data.get("strategy") or "", text)
        opponent = shipped.get(data.get("opponent_strategy") or "", opponent)
        run, created = game_run_request(game, mode=mode, text=text, opponent_text=opponent, games=games, seed=seed,
                                        policy=data.get("policy"), opponent_policy=data.get("opponent_policy"),
                                        fmt=data.get("format"), user=user, session_key=session_key,
                                        deck_name=data.get("name") or "", opponent_name=data.get("opponent_name") or "")
    except (GameSpecError, services.LimitExceeded) as exc:
        return JsonResponse({"detail": str(exc)}, status=400)
    except services.BrokerUnavailable as exc:
        saved = access.reachable_by_maker(request, exc.run)
        return JsonResponse({"detail": str(exc), "id": saved.pk,
                             "url": request.build_absolute_uri(f"/api/simulations/{saved.ref}/")}, status=503)
    body = game_run_json(access.reachable_by_maker(request, run), request)
    body["cached"] = not created
    return JsonResponse(body, status=202)


def game_run_json(run: SimulationRun, request) -> dict:
    body = run_json(run, request)
    body["game"] = (run.spec or {}).get("game") or "r1"
    return json.loads(json.dumps(body, default=str))


def api_simulations(request, game: str):
    """/<game>/api/simulations/: POST a run; GET the visitor's runs of this game."""
    game = _game(game)
    if request.method == "POST":
        try:
            data = _body(request)
        except GameSpecError as exc:
            return JsonResponse({"detail": str(exc)}, status=400)
        return api_create(request, game, data)
    if request.method != "GET":
        return JsonResponse({"detail": "GET or POST."}, status=405)
    runs = [r for r in selectors.runs_for(request).filter(spec__game=game)[:50]]
    return JsonResponse({"count": len(runs), "results": [game_run_json(r, request) for r in runs]})


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
