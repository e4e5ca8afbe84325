"""Pages to watch, judge and play: game replays, the judge sandbox and the playtest table.

Views only translate (STYLE §8): they read the request, call simulator/replay.py, playtest.py and the engine's
judge, and render. Boards are built from a PlayerView (replay.board_of): nothing hidden is sent to a page.
"""
from __future__ import annotations

import json
import re

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from . import access, replay, selectors


# ---------------------------------------------------------------- replays
def _replayed(run, index: int) -> dict:
    key = f"replay4:{run.pk}:{index}:{run.engine_version}"   # replay4: a step's board is the one the sandbox opens at
    out = cache.get(key)
    if out is None:
        out = replay.replay_run_game(run.spec, index)
        cache.set(key, out, 3600)
    return out


def _one_event_each(frames: list[dict]) -> list[dict]:
    """Frames of several lines (a playtest game's: one per decision of the person) as one frame per line, each
    with the board taken after the last of them."""
    out = []
    for f in frames:
        lines = list(zip(f.get("raw") or [], f.get("lines") or [])) or [(None, None)]
        for k, (raw, line) in enumerate(lines):
            last = k == len(lines) - 1
            out.append(dict(f, raw=[raw] if raw is not None else [], lines=[line] if line is not None else [],
                            actor=f.get("actor") if k == 0 else None, action=f.get("action") if k == 0 else None,
                            struggle_start=bool(raw and replay.DECLARE_RE.search(raw)),
                            round=(line or {}).get("round") or f["round"], last_of_stretch=last))
    return out


def replay_page(request, pk: str, index: int):
    run = access.run_access(request, pk)
    other_game = (run.spec or {}).get("game")
    from .games import run_hook

    if run_hook(other_game, "replay_board"):   # another game's run replays on its own board, at its own address
        from .games.views import replay_url
        query = request.META.get("QUERY_STRING", "")
        return redirect(replay_url(other_game, run.ref, index) + (f"?{query}" if query else ""))
    if other_game:   # a game without a board of its own; r1's replayer cannot read its spec
        raise Http404("No such r1 simulation run.")
    try:
        data = _replayed(run, index)
    except replay.ReplayError as exc:
        return render(request, "simulator/replay_error.html", {"run": run, "message": str(exc)}, status=400)
    frames = data["frames"]
    try:
        step, frame, links = replay.select_step(frames, request.GET.get("step"),
                                                reverse("simulator:replay", args=[run.ref, index]) + "?step=")
    except replay.StepError as exc:   # a hand-edited ?step=
        return render(request, "simulator/replay_error.html", {"run": run, "message": str(exc)}, status=exc.status)
    names = list(data["names"])
    sandbox_pos = frame["position"] or frame["base_position"]
    sandbox_url = None
    if sandbox_pos:
        sandbox_url = reverse("simulator:sandbox") + f"?run={run.ref}&game={index}&step={step}"
    context = {"run": run, "data": data, "frame": frame, "board": frame["board"], "names": names, "step": step,
               "steps": len(frames), "links": links, "index": index,
               "sandbox_url": sandbox_url,
               "sandbox_exact": frame["position"] is not None,
               "action_label": _action_label(frame, data.get("cards") or {}),
               "actor_name": names[frame["actor"]] if frame["actor"] in (0, 1) else None,
               **replay_share_context(request, run, lambda ref: reverse("simulator:replay", args=[ref, index])
                                      + f"?step={step}")}
    return render(request, "simulator/replay.html", context)


def replay_share_context(request, run, moment) -> dict:
    """A replay page's Share control, and the shared link of this moment (`moment(ref)`: its address)."""
    from .views import share_context
    ctx = share_context(request, run)
    if run.share_token:
        ctx["share"]["moment"] = request.build_absolute_uri(moment(run.share_token))
    return ctx


def _action_label(frame: dict, cards: dict) -> str | None:
    """The decision taken after this step, its card codes read as names ("play core-020" -> "Play Gawain")."""
    from .playtest import _label
    return _label(frame["action"], cards) if frame.get("action") else None


def _b64(value) -> str:
    import base64
    return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).decode().rstrip("=")


def _unb64(text: str):
    import base64
    pad = "=" * (-len(text) % 4)
    return json.loads(base64.urlsafe_b64decode(text + pad).decode())


# ---------------------------------------------------------------- the judge sandbox
def _sandbox_from_replay(request, catalogue) -> tuple[dict | None, list[str], dict]:
    """?run=ID&game=N&step=S: where that replay step opens (sandbox.at_replay_step): a position, the actions
    since it up to the step's last decision, and what the page says about it."""
    from . import sandbox as sb
    run = access.run_access(request, request.GET.get("run", ""))
    if (run.spec or {}).get("game"):   # the judge sandbox holds r1 positions only
        raise Http404("No such r1 simulation run: the judge sandbox opens r1 games only.")
    try:
        index, step = int(request.GET.get("game", "0")), int(request.GET.get("step", "0"))
        data = _replayed(run, index)
    except (ValueError, replay.ReplayError) as exc:
        raise Http404(str(exc)) from None
    step = max(0, min(step, len(data["frames"]) - 1))
    got = sb.at_replay_step(data, step, catalogue)
    if got is None:
        return None, [], {}
    position, actions, how = got
    return position, actions, {"how": how, "step": step + 1, "game": index + 1, "decisions": len(actions),
                               "url": reverse("simulator:replay", args=[run.ref, index]) + f"?step={step}"}


@require_http_methods(["GET", "POST"])
def sandbox(request):
    from decks.pool import CardPool
    from . import sandbox as sb
    fields = sb.builder_fields()
    ctx: dict = {"zones": sb.ZONES, "phases": list(replay.PHASE_TITLES), "form": request.POST,
                 "builder_fields": fields,
                 "builder_names": {f"p{p}_{k}" for p in (0, 1) for k, _l, _t in fields} | {"round", "first"}}
    position, actions, status = None, [], 200
    op = request.POST.get("op", "") if request.method == "POST" else ""
    try:
        if request.method == "GET":
            if request.GET.get("run"):
                position, actions, ctx["from_replay"] = _sandbox_from_replay(request, CardPool.from_db())
        elif op == "build":
            position = sb.build(request.POST)
        elif op == "load":
            position = sb.posted(request)
        else:
            position = sb.parse(request.POST.get("start", ""))
            actions = sb.parse_actions(request.POST.get("actions") or "[]")
            if op == "step":
                actions = actions + [sb.check_action(request.POST.get("action", ""), len(actions))]
            elif op == "undo":
                actions = actions[:-1]
    except sb.SandboxError as exc:
        ctx.update({"error": str(exc), "error_field": exc.field})
        status = 400
        position, actions = None, []   # nothing runs from a refused input
    if position is not None:
        try:
            g = sb.run(position, actions, CardPool.from_db())
        except sb.SandboxError as exc:
            ctx.update({"error": str(exc), "error_field": exc.field})
            status = 400
            if exc.field == "action" and actions:   # show the state before the refused action
                actions = actions[:exc.index] if exc.index is not None else actions[:-1]
                try:
                    g = sb.run(position, actions, CardPool.from_db())
                except sb.SandboxError:
                    g = None
            else:
                g = None
        if g is not None:
            v = sb.view_context(g)
            before = 0
            if actions:
                try:
                    before = len(sb.run(position, actions[:-1], CardPool.from_db()).logs or [])
                except sb.SandboxError:
                    before = 0
            ctx.update(v)
            ctx.update({"game": True, "start_json": json.dumps(position), "actions_json": json.dumps(actions),
                        "actions": actions, "step_log": v["log"][before:],
                        "action_words": [sb.option_words(a, v["words"], v["names"]) for a in actions],
                        "export_json": json.dumps(dict(position, actions=actions), indent=1),
                        "current_json": json.dumps(v["current"], indent=1) if v["current"] else None})
        ctx["position_text"] = json.dumps(position, indent=1)
    if op == "build" and ctx.get("error_field") == "position":
        # the loader's message about a built position goes next to the builder's field it names
        ctx["error_field"] = sb.builder_field_of(ctx["error"]) or "position"
    if op in ("export", "export_current") and ctx.get("game"):
        body = ctx["current_json"] if op == "export_current" and ctx.get("current_json") else ctx["export_json"]
        resp = HttpResponse(body, content_type="application/json")
        resp["Content-Disposition"] = 'attachment; filename="position.json"'
        return resp
    if request.method == "POST" and "position_text" not in ctx:
        ctx["position_text"] = request.POST.get("position", "")
    return render(request, "simulator/sandbox.html", ctx, status=status)


# ---------------------------------------------------------------- the playtest table
def _session_key(request) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key


def _games_of(request, game: str = ""):
    """This visitor's table games of one game (`game` empty: r1's)."""
    from .models import PlaytestGame
    if request.user.is_authenticated:
        return PlaytestGame.objects.filter(user=request.user, game=game)
    tokens = request.session.get("playtests", [])
    return PlaytestGame.objects.filter(user__isnull=True, token__in=tokens, game=game)


def _game_or_404(request, token: str, game: str = ""):
    """The visitor's own table game of that token in that game (`game` empty: r1's), else 404."""
    from .models import PlaytestGame
    # the decks are read only to rebuild a game this process does not hold (playtest.game_for)
    rec = PlaytestGame.objects.filter(token=token[:40], game=game).defer("deck", "opponent").first()
    if rec is None:
        raise Http404("No such game.")
    mine = (rec.user_id is not None and request.user.is_authenticated and rec.user_id == request.user.pk) or (
        rec.user_id is None and token in request.session.get("playtests", []))
    if not mine:
        raise Http404("No such game.")
    if rec.user_id is None and request.user.is_authenticated:
        rec.user = request.user   # an anonymous game follows its player into their account
        rec.save(update_fields=["user"])
    return rec


def _deck_choice(request, prefix: str, pool, decklist=None) -> dict:
    """A deck from the form: pasted text, else a published `decklist` picked (the AI's side), else a starter
    (starter:SLUG) or one of your decks (mine:ID)."""
    from cards.starters import starter
    from .deckinput import read_deck
    from .runner import SpecError
    label = "your deck" if prefix == "deck" else "the opponent's deck"
    text = (request.POST.get(prefix + "_text") or "").strip()
    source = request.POST.get(prefix + "_source") or ""
    name = None
    if not text:
        if decklist is not None:
            text, name = selectors.decklist_text(decklist), decklist.title
        elif source.startswith("starter:"):
            st = starter(source.split(":", 1)[1])
            if st is None:
                raise SpecError(f"{label}: no starter deck {source.split(':', 1)[1]!r}")
            text, name = st.text, f"{st.faction} starter"
        elif source.startswith("mine:"):
            got = selectors.deck_version_for(user=request.user, deck_id=source.split(":", 1)[1])
            if got is None:
                raise SpecError(f"{label}: that saved deck is not yours or does not exist")
            text = got[1]
        else:
            raise SpecError(f"{label}: choose a deck or paste a decklist")
    return read_deck(text, pool, label=label, name=name)


def _picker(data) -> tuple:
    """The published-decklist picker of the set-up form (forms.PublishedDecklistForm) read from `data`: (the
    form, the decklist picked or None, the error of its fields by name)."""
    from .forms import PublishedDecklistForm
    form = PublishedDecklistForm(data)
    errors = {}
    if not form.is_valid():
        errors = {name: "; ".join(msgs) for name, msgs in form.errors.items()}
    picked = form.cleaned_data.get("opponent_decklist") if hasattr(form, "cleaned_data") else None
    return form, picked, errors


def _picker_context(form, picked) -> dict:
    query = (form.cleaned_data.get("decklist_q") if hasattr(form, "cleaned_data") else "") or ""
    return {"decklists": selectors.published_decklists(query=query, chosen=picked),
            "decklist_q": form.data.get("decklist_q", ""), "picked_decklist": picked.pk if picked else None}


def _form_context(request, picker=None, **extra) -> dict:
    from cards.starters import starters
    from . import playtest
    decks = selectors.saved_decks_for(user=request.user) if request.user.is_authenticated else []
    form, picked, _errors = picker if picker is not None else _picker(request.GET)
    ctx = {"starters": starters(), "my_decks": decks, "policies": playtest.available_policies(),
           "games": list(_games_of(request)[:20]), "form": request.POST if request.method == "POST" else {}}
    ctx.update(_picker_context(form, picked))
    ctx.update(extra)
    return ctx


def playtest_decklists(request):
    """The picker's list for a search (htmx, GET ?decklist_q=&opponent_decklist=): published decklists titled
    like the query, the one already picked kept at the top."""
    form, picked, errors = _picker(request.GET)
    ctx = _picker_context(form, picked)
    ctx["picker_error"] = errors.get("opponent_decklist")
    ctx["errors"] = {"decklist_q": errors["decklist_q"]} if "decklist_q" in errors else {}
    return render(request, "simulator/_decklist_picker.html", ctx, status=400 if errors else 200)


@require_http_methods(["GET", "POST"])
def playtest_new(request):
    from decks.pool import CardPool
    from simulator.engines import r1 as engine
    from . import playtest
    from .models import PlaytestGame
    from .runner import SpecError
    if request.method == "GET":
        return render(request, "simulator/playtest_new.html", _form_context(request))
    picker = _picker(request.POST)
    _form, picked, picker_errors = picker
    errors = {}
    if "opponent_decklist" in picker_errors:
        errors["opponent"] = f"the opponent's deck: {picker_errors['opponent_decklist']}"
    if "decklist_q" in picker_errors:
        errors["decklist_q"] = picker_errors["decklist_q"]
    if request.POST.get("op") == "search":   # the picker's search without scripts: the form again, with results
        return render(request, "simulator/playtest_new.html", _form_context(request, picker, errors=errors),
                      status=400 if errors else 200)
    pool = CardPool.from_db()
    decks = {}
    for prefix in ("deck", "opponent"):
        if prefix in errors:
            continue
        try:
            decks[prefix] = _deck_choice(request, prefix, pool, picked if prefix == "opponent" else None)
        except SpecError as exc:
            errors[prefix] = str(exc)
    policy = request.POST.get("policy") or "greedy"
    if policy not in playtest.available_policies():
        errors["policy"] = f"unknown AI {policy!r}: one of {', '.join(playtest.available_policies())}"
    seat = request.POST.get("seat") or "rules"
    if seat not in playtest.SEATS:
        errors["seat"] = f"seat: {seat!r} is not a choice (first, second or rules)"
    if errors:
        return render(request, "simulator/playtest_new.html", _form_context(request, picker, errors=errors),
                      status=400)
    first_player = playtest.SEATS[seat]
    seed = int.from_bytes(__import__("os").urandom(6), "big")
    try:
        g, notes = playtest.start_with_notes(decks["deck"], decks["opponent"], policy, seed, first_player)
    except engine.DeckError as exc:
        return render(request, "simulator/playtest_new.html",
                      _form_context(request, picker, errors={"deck": str(exc)}), status=400)
    token = playtest.new_token()
    rec = PlaytestGame(token=token, user=request.user if request.user.is_authenticated else None,
                       session_key=_session_key(request), deck_name=decks["deck"]["name"],
                       opponent_name=decks["opponent"]["name"], deck=decks["deck"], opponent=decks["opponent"],
                       policy=policy, seed=seed, first_player=first_player, engine_version=engine.ENGINE_VERSION)
    _save_progress(rec, g, None, notes)
    playtest.remember(token, g)
    request.session["playtests"] = (request.session.get("playtests", []) + [token])[-50:]
    return redirect("simulator:playtest_table", token=token)


def _names(rec) -> tuple[str, str]:
    name = replay.short_name(rec.opponent_name, "its deck")
    if name.endswith(" starter") and len(name) > len(" starter"):
        name = name[:-len(" starter")]
    return ("You", f"AI ({name})")


def _save_progress(rec, g, action, notes=()) -> None:
    """Store the history and a replay frame of what happened since the last one: the person's action, the AI's
    moves and the rules' consequences, in order (what the table shows as "What happened")."""
    from . import playtest
    logs = g.logs or []
    names = _names(rec)
    seen = rec.seen_log if rec.pk else 0
    new = playtest.lines_since(g, seen, list(notes))
    narrator = replay.Narrator(names, playtest.card_names(rec.deck, rec.opponent))
    # the struggle a result line belongs to may have been declared before the last decision
    narrator.attacker = next((int(m.group(1)) for x in reversed(logs[:seen])
                              for m in [replay.DECLARE_RE.search(x)] if m), None)
    frame = {"board": replay.board_of(g.view(playtest.HUMAN)), "raw": list(new),
             "lines": [_r1_line(narrator.line(x), names) for x in new], "actor": 0 if action else None,
             "action": action, "position": None, "base_position": None,
             "round": g.round_no, "struggle_no": 0}
    rec.history = playtest.history_of(g)
    rec.finished = g.is_terminal()
    rec.winner = g.winner
    rec.reason = (g.reason or "round_limit") if g.is_terminal() else ""
    rec.seen_log = len(logs)
    from .models import PlaytestFrame
    number = rec.frames_saved
    rec.frames_saved = number + 1
    if rec.pk is None:
        rec.save()
    else:   # the decks never change: write only what a decision changes
        rec.save(update_fields=["history", "finished", "winner", "reason", "seen_log", "frames_saved",
                                "updated_at"])
    PlaytestFrame.objects.create(game=rec, number=number, data=frame)
    rec.last_frame = frame


def _r1_line(line: dict, names: tuple[str, str]) -> dict:
    """A stored line of an r1 table game as the table shows it: whose it is (its colour), §5.1's choice in words."""
    from . import playtest
    text = playtest.first_player_words(line.get("text") or "", names)
    seat = 0 if text.startswith(names[0] + " ") else 1 if text.startswith(names[1] + " ") else None
    return dict(line, text=text, seat=seat)


def _table(request, rec, error: str = "", status: int = 200, elapsed=None):
    from cards.games import registry
    from . import playtest
    g = playtest.game_for(rec)
    names = _names(rec)
    ctx = playtest.table_context(g, names, playtest.card_names(rec.deck, rec.opponent))
    frames = [f.data for f in rec.frames.order_by("number")]
    last = getattr(rec, "last_frame", None) or (frames[-1] if frames else None)
    older = frames[:-1] if frames else []
    ctx.update({"rec": rec, "error": error, "elapsed_ms": round(elapsed * 1000, 1) if elapsed is not None else None,
                "happened": [_r1_line(x, names) for x in (last["lines"] if last else [])],
                "log": [_r1_line(x, names) for f in older for x in f.get("lines") or []][-400:],
                "token": rec.token, "game": registry.get(None), "base_template": "base.html",
                "board_template": "games/r1/_play_board.html", "img_prefix": "/cards/",
                "act_url": reverse("simulator:playtest_act", args=[rec.token]),
                "new_url": reverse("simulator:playtest"),
                "replay_url": reverse("simulator:playtest_replay", args=[rec.token]),
                "ai_label": "Strong" if rec.policy == "expert" else "Fast",
                "reason": {"influence": "15 Influence", "elimination": "elimination",
                           "round_limit": "the round limit"}.get(ctx.get("reason") or "", ctx.get("reason") or "")})
    template = "simulator/play_table_body.html" if getattr(request, "htmx", False) else "simulator/play_table.html"
    return render(request, template, ctx, status=status)


def playtest_table(request, token):
    rec = _game_or_404(request, token)
    return _table(request, rec)


@require_http_methods(["POST"])
def playtest_act(request, token):
    from . import playtest
    rec = _game_or_404(request, token)
    g = playtest.game_for(rec)
    text = (request.POST.get("action") or "").strip()
    try:
        elapsed, notes = playtest.act(g, text)
    except playtest.PlaytestError as exc:
        return _table(request, rec, error=str(exc), status=400)
    _save_progress(rec, g, text, notes)
    playtest.remember(rec.token, g)
    if not getattr(request, "htmx", False):
        return redirect("simulator:playtest_table", token=token)
    return _table(request, rec, elapsed=elapsed)


def _board_per_event(rec, frames: list[dict]) -> None:
    """Give each event of a playtest replay the board right after its own line: the game is played again from
    its seed and saved choices with a board taken at every log line (playtest.boards_by_line), cached per game
    and length. Lines that are the table's own notes, or a game that no longer replays, keep the stored board
    (the one taken at the person's next decision)."""
    from . import playtest
    key = f"playtest-boards1:{rec.token}:{len(rec.history or [])}"
    got = cache.get(key)
    if got is None:
        try:
            got = playtest.boards_by_line(rec.deck, rec.opponent, rec.seed, rec.history or [],
                                          getattr(rec, "first_player", None))
        except Exception:   # noqa: BLE001 - an old game the engine no longer replays: the stored boards serve
            got = ([], {})
        cache.set(key, got, 3600)
    logs, boards = got
    at = 0
    for f in frames:
        raw = f["raw"][0] if f.get("raw") else None
        if raw is None:
            continue
        j = next((k for k in range(at, len(logs)) if logs[k] == raw), None)
        if j is None:
            continue   # a note of the table's, not an engine line
        at = j + 1
        if boards.get(j) is not None:
            f["board"] = boards[j]


def playtest_replay(request, token):
    from . import playtest
    rec = _game_or_404(request, token)
    names = _names(rec)
    stored = [dict(f.data, lines=[_r1_line(x, names) for x in f.data.get("lines") or []])
              for f in rec.frames.order_by("number")]
    frames = _one_event_each(stored)
    if not frames:
        raise Http404("No replay yet.")
    _board_per_event(rec, frames)
    try:
        step, frame, links = replay.select_step(frames, request.GET.get("step"),
                                                reverse("simulator:playtest_replay", args=[token]) + "?step=")
    except replay.StepError as exc:   # a hand-edited ?step=
        return render(request, "simulator/replay_error.html", {"run": None, "message": str(exc)},
                      status=exc.status)
    names = list(_names(rec))
    data = {"names": names, "seed": rec.seed, "winner": rec.winner, "reason": rec.reason,
            "rounds": frame["board"]["round"] if not frames else frames[-1]["board"]["round"]}
    return render(request, "simulator/replay.html", {
        "run": None, "rec": rec, "data": data, "frame": frame, "board": frame["board"], "names": names,
        "step": step, "steps": len(frames), "links": links, "index": 0, "sandbox_url": None,
        "action_label": _action_label(frame, playtest.card_names(rec.deck, rec.opponent)),
        "actor_name": names[0] if frame["actor"] == 0 else None, "back_url": reverse("simulator:playtest_table", args=[token])})


# ---------------------------------------------------------------- every other game: /<game>/play/…
# The same table and sandbox for a hosted game, through its play kit (simulator/games/<game>_play.py): the kit gives
# the set-up form's sides, the engine's game, the AI, the board and the words; these views and the templates are the
# same for every game.

def _kit(game: str):
    from . import playtest
    kit = playtest.kit_for(game)
    if kit is None:
        raise Http404("This game has no playtest table.")
    return kit


def _spec(game: str):
    from cards.games import registry
    return registry.get(game)


def _players(spec) -> list[dict]:
    """Fast / Strong, with the AI policy each is (the game's runs module `PLAYERS`)."""
    from .games import picks
    return picks.players(spec)


def _hosted_names(rec) -> tuple[str, str]:
    # a starter is "The Deepwood Kin — Wardens of the Marches": its first part names it
    name = replay.short_name(rec.opponent_name, "its side").split(" — ")[0]
    return ("You", f"AI ({name})")


def _hosted_form(request, game, spec, kit, **extra) -> dict:
    ctx = {"game": spec, "kit": kit, "choices": kit.side_choices(request, spec), "players": _players(spec),
           "games": list(_games_of(request, game)[:20]), "form": request.POST if request.method == "POST" else {},
           "errors": {}, "signed_in": request.user.is_authenticated}
    ctx.update(extra)
    return ctx


@require_http_methods(["GET", "POST"])
def game_playtest_new(request, game: str):
    """/<game>/play/: the set-up form (the person's side, the AI's side, Fast or Strong, who goes first), and a
    new game from it."""
    from . import playtest
    from .models import PlaytestGame
    kit = _kit(game)
    spec = _spec(game)
    if request.method == "GET":
        return render(request, "simulator/play_new.html", _hosted_form(request, game, spec, kit))
    errors: dict[str, str] = {}
    sides = {}
    for prefix in ("deck", "opponent"):
        try:
            sides[prefix] = kit.read_side(request, spec, request.POST, prefix)
        except kit.SetupError as exc:
            errors[exc.field] = str(exc)
    players = {p["key"]: p for p in _players(spec)}
    player = request.POST.get("player") or next(iter(players), "")
    if player not in players:
        errors["player"] = "The AI: choose Fast or Strong."
    seat = request.POST.get("seat") or "rules"
    if seat not in playtest.SEATS:
        errors["seat"] = "Who goes first: choose you, the AI or by the rules."
    if errors:
        return render(request, "simulator/play_new.html", _hosted_form(request, game, spec, kit, errors=errors),
                      status=400)
    policy = players[player]["policy"]
    seed = int.from_bytes(__import__("os").urandom(6), "big")
    first_player = playtest.SEATS[seat]
    t, notes = playtest.hosted_start(kit, sides["deck"], sides["opponent"], policy, seed, first_player)
    token = playtest.new_token()
    rec = PlaytestGame(token=token, game=game, user=request.user if request.user.is_authenticated else None,
                       session_key=_session_key(request), deck_name=sides["deck"]["name"][:200],
                       opponent_name=sides["opponent"]["name"][:200], deck=sides["deck"], opponent=sides["opponent"],
                       policy=policy, seed=seed, first_player=first_player, engine_version=kit.ENGINE_VERSION)
    _save_hosted(rec, t, None, notes)
    playtest.remember(token, t)
    request.session["playtests"] = (request.session.get("playtests", []) + [token])[-50:]
    return redirect("game-play-table", game=game, token=token)


def _save_hosted(rec, t, action, notes=()) -> None:
    """The history, and a frame of what happened since the person's last decision (the log lines they may read,
    with the notes of decisions taken by themselves in their places)."""
    from . import playtest
    from .models import PlaytestFrame
    kit, g = t.kit, t.g
    names = _hosted_names(rec)
    logs = g.logs or []
    seen = rec.seen_log if rec.pk else 0
    lines: list[dict] = []
    pending_notes = sorted(notes)
    for k, raw in enumerate(logs[seen:], start=seen):
        while pending_notes and pending_notes[0][0] <= k:
            lines.append({"who": None, "text": pending_notes.pop(0)[1], "seat": 0})
        lines.extend(playtest.hosted_lines(kit, [raw], names))
    lines.extend({"who": None, "text": n[1], "seat": 0} for n in pending_notes)
    frame = {"lines": lines, "actor": 0 if action else None,
             "action": kit.option_label(g, action) if action else None}
    rec.history = list(t.history)
    rec.finished = g.is_terminal()
    rec.winner = kit.winner(g)
    rec.reason = (g.reason or "")[:20] if g.is_terminal() else ""
    rec.seen_log = len(logs)
    number = rec.frames_saved
    rec.frames_saved = number + 1
    if rec.pk is None:
        rec.save()
    else:
        rec.save(update_fields=["history", "finished", "winner", "reason", "seen_log", "frames_saved", "updated_at"])
    PlaytestFrame.objects.create(game=rec, number=number, data=frame)
    rec.last_frame = frame


def _cannot_resume(request, message: str):
    return render(request, "error.html", {"title": "This game cannot be resumed", "message": message}, status=409)


def _hosted_table(request, game, rec, error: str = "", status: int = 200, elapsed=None):
    from . import playtest
    kit = _kit(game)
    try:
        t = playtest.hosted_game_for(kit, rec)
    except playtest.PlaytestError as exc:
        return _cannot_resume(request, str(exc))
    names = _hosted_names(rec)
    ctx = playtest.hosted_table_context(t, names)
    frames = [f.data for f in rec.frames.order_by("number")]
    log = [ln for f in frames[:-1] for ln in f.get("lines") or []]
    ctx.update({"rec": rec, "game": _spec(game), "kit": kit, "error": error, "token": rec.token,
                "elapsed_ms": round(elapsed * 1000, 1) if elapsed is not None else None,
                "happened": frames[-1]["lines"] if frames else [], "log": log[-400:],
                "board_template": kit.BOARD_TEMPLATE, "track": kit.TRACK, "img_prefix": kit.IMAGES,
                "act_url": reverse("game-play-act", args=[game, rec.token]),
                "new_url": reverse("game-play", args=[game]),
                "replay_url": reverse("game-play-replay", args=[game, rec.token]),
                "ai_label": "Strong" if rec.policy.startswith(("expert", "search")) else "Fast"})
    template = "simulator/play_table_body.html" if getattr(request, "htmx", False) else "simulator/play_table.html"
    return render(request, template, ctx, status=status)


def game_playtest_table(request, game: str, token: str):
    _kit(game)
    rec = _game_or_404(request, token, game)
    return _hosted_table(request, game, rec)


@require_http_methods(["POST"])
def game_playtest_act(request, game: str, token: str):
    from . import playtest
    kit = _kit(game)
    rec = _game_or_404(request, token, game)
    try:
        t = playtest.hosted_game_for(kit, rec)
    except playtest.PlaytestError as exc:
        return _cannot_resume(request, str(exc))
    text = (request.POST.get("action") or "").strip()[:500]
    try:
        elapsed, notes = playtest.hosted_act(t, text)
    except playtest.PlaytestError as exc:
        return _hosted_table(request, game, rec, error=str(exc), status=400)
    _save_hosted(rec, t, text, notes)
    playtest.remember(rec.token, t)
    if not getattr(request, "htmx", False):
        return redirect("game-play-table", game=game, token=token)
    return _hosted_table(request, game, rec, elapsed=elapsed)


def _hosted_replay(kit, rec) -> dict:
    """The table game played again from its seed and the action texts of every decision (both players'), with a
    frame at each decision and one at the end: the board a run's replay draws (`kit.replay_board`), the engine's
    log lines since the frame before, who decided and — the person's only — the choice in words. Cached an hour
    per game, length of history and engine version. PlaytestError when the history no longer plays."""
    from . import playtest
    history = [str(a) for a in (rec.history or [])]
    key = f"play-replay1:{rec.game}:{rec.token}:{len(history)}:{kit.ENGINE_VERSION}"
    got = cache.get(key)
    if got is not None:
        return got
    frames: list[dict] = []
    try:
        g = kit.new_game(rec.deck, rec.opponent, rec.seed, rec.first_player)
        seen = 0

        def snap(actor, kind, label):
            nonlocal seen
            logs = g.logs or []
            board = kit.replay_board(g)
            frames.append({"board": board, "turn": board["turn"], "lines": list(logs[seen:]), "actor": actor,
                           "kind": kind, "label": label, "first": not frames})
            seen = len(logs)

        for text in history:
            d = g.pending
            if d is None or g.is_terminal():
                raise ValueError("the history goes on after the game's end")
            mine = d.player == playtest.HUMAN
            snap(d.player, d.kind, kit.option_label(g, text, d.player) if mine else None)
            g.apply_action(text)
        snap(None, None, None)
    except (ValueError, KeyError, TypeError) as exc:   # IllegalAction, a deck or Hero that no longer reads
        raise playtest.PlaytestError(f"this game was played by another version of the rules engine and cannot be "
                                     f"replayed ({str(exc)[:120]})") from None
    got = {"frames": frames, "over": g.is_terminal(), "winner": kit.winner(g),
           "reason": kit.reason(g) if g.is_terminal() else ""}
    cache.set(key, got, 3600)
    return got


def _turn_targets(frames: list[dict], step: int) -> dict:
    """A replay's stepping controls by decisions and turns: one step back and forward, the first step of this
    or the previous turn and of the next, the first and the last."""
    n = len(frames)
    starts = [i for i in range(n) if i == 0 or frames[i]["turn"] != frames[i - 1]["turn"]]
    return {"prev": step - 1 if step > 0 else None, "next": step + 1 if step < n - 1 else None, "first": 0,
            "last": n - 1, "prev_turn": max((i for i in starts if i < step), default=None),
            "next_turn": min((i for i in starts if i > step), default=None)}


def game_playtest_replay(request, game: str, token: str):
    """/<game>/play/TOKEN/replay/?step=S: the visitor's table game, finished or not, a step per decision on the
    board of the game's run replays (its template extended), the log of each step as the table told it."""
    from . import playtest
    kit = _kit(game)
    rec = _game_or_404(request, token, game)
    try:
        data = _hosted_replay(kit, rec)
    except playtest.PlaytestError as exc:
        return render(request, "error.html", {"title": "This game cannot be replayed", "message": str(exc)},
                      status=409)
    frames = data["frames"]
    asked = request.GET.get("step") or "0"
    step = int(asked) if re.fullmatch(r"\d{1,6}", asked or "") else None
    if step is None or step >= len(frames):
        return render(request, "error.html", {
            "title": "No such step", "game_prefix": f"/{game}",
            "message": f"step {asked[:20]!r}: this game's steps are 0 to {len(frames) - 1}."}, status=400)
    frame = frames[step]
    names = _hosted_names(rec)
    base = reverse("game-play-replay", args=[game, token]) + "?step="
    links = {k: (f"{base}{v}" if v is not None else None) for k, v in _turn_targets(frames, step).items()}
    starts = [(f["turn"], i) for i, f in enumerate(frames) if i == 0 or f["turn"] != frames[i - 1]["turn"]]
    if data["over"]:
        who = {0: "You won", 1: f"{names[1]} won"}.get(data["winner"], "No winner")
        outcome = f"{who}: {data['reason']}." if data["reason"] else f"{who}."
    else:
        outcome = "The game goes on: the last step is where it stands now."
    ctx = {"game": _spec(game), "rec": rec, "frame": frame, "board": frame["board"], "names": list(names),
           "step": step, "at": step, "steps": len(frames), "total": len(frames), "links": links,
           "events": playtest.hosted_lines(kit, frame["lines"], names),
           "choice": {"who": names[frame["actor"]], "label": frame["label"]} if frame["label"] else None,
           "turns": [{"turn": t, "step": i, "url": f"{base}{i}", "now": t == frame["turn"]} for t, i in starts],
           "outcome": outcome, "back_url": reverse("game-play-table", args=[game, token])}
    ctx.update(kit.replay_context(frame, names))
    return render(request, kit.REPLAY_TEMPLATE, ctx)


def _seat_names(kit, g) -> tuple[str, str]:
    """The judge's names of the two sides: each side's own (its Leader, its Hero), never "player 0/1"."""
    names = kit.seat_names(g)
    if names[0] == names[1]:
        names = (f"{names[0]} (first seat)", f"{names[1]} (second seat)")
    return names


def _hosted_run(kit, position: dict, actions: list[str]):
    """The game of `position` after its own "actions" and then `actions`, with the log's length before the last
    one; SandboxError (the action's index, its options in words) when one is not an option there."""
    from . import sandbox as sb
    sb.check_size(position)
    saved = position.get("actions") or []
    if not isinstance(saved, list) or not all(isinstance(a, str) for a in saved):
        raise sb.SandboxError("actions: a list of action texts")
    body = {k: v for k, v in position.items() if k != "actions"}
    try:
        g = kit.load_position(body)
    except kit.PositionError as exc:
        raise sb.SandboxError(str(exc)) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:   # a shape no check foresaw
        raise sb.SandboxError(f"this position cannot be loaded: {exc}") from None
    todo = list(saved) + list(actions)
    before = 0
    for n, text in enumerate(todo):
        if g.pending is None or g.is_terminal():
            raise sb.SandboxError(f"action {n + 1}: the game is over", field="action", index=n)
        opts = kit.option_texts(g)
        if text not in opts:
            names = _seat_names(kit, g)
            raise sb.SandboxError(
                f"action {n + 1} ({kit.option_label(g, text, g.pending.player)}) is not an option for "
                f"{names[g.pending.player]}; the options: "
                + "; ".join(kit.option_label(g, o, g.pending.player) for o in opts), field="action", index=n)
        before = len(g.logs or [])
        try:
            g.apply_action(text)
        except kit.IllegalAction as exc:
            raise sb.SandboxError(f"action {n + 1}: {exc}", field="action", index=n) from None
    return g, before


@require_http_methods(["GET", "POST"])
def game_sandbox(request, game: str):
    """/<game>/play/sandbox/: a position of that game loaded (pasted, uploaded or the page's example), its
    decision's options as buttons in words, stepped one action at a time, undone, exported."""
    from . import sandbox as sb
    kit = _kit(game)
    spec = _spec(game)
    ctx: dict = {"game": spec, "kit": kit, "help": kit.SANDBOX_HELP, "board_template": kit.BOARD_TEMPLATE,
                 "img_prefix": kit.IMAGES, "card_actions": {}}
    position, actions, status = None, [], 200
    op = request.POST.get("op", "") if request.method == "POST" else ""
    try:
        if request.method == "GET":
            position = kit.sample_position()
            ctx["example"] = True
        elif op == "load":
            position = sb.posted(request)
        else:
            position = sb.parse(request.POST.get("start", ""))
            actions = sb.parse_actions(request.POST.get("actions") or "[]")
            if op == "step":
                actions = actions + [sb.check_action(request.POST.get("action", "").strip(), len(actions))]
            elif op == "undo":
                actions = actions[:-1]
            elif op not in ("export", "export_current"):
                raise sb.SandboxError(f"{op[:40]!r} is not something the sandbox does", field="action")
    except sb.SandboxError as exc:
        ctx.update({"error": str(exc), "error_field": exc.field})
        status = 400
        position, actions = None, []
    g = None
    if position is not None:
        try:
            g, before = _hosted_run(kit, position, actions)
        except sb.SandboxError as exc:
            ctx.update({"error": str(exc), "error_field": exc.field})
            status = 400
            if exc.field == "action" and exc.index is not None:
                keep = max(0, exc.index - len(position.get("actions") or []))
                actions = actions[:keep]
                try:
                    g, before = _hosted_run(kit, position, actions)
                except sb.SandboxError:
                    g = None
        ctx["position_text"] = json.dumps(position, indent=1)
    elif request.method == "POST":
        ctx["position_text"] = request.POST.get("position", "")[:sb.MAX_POSITION_BYTES]
    if g is not None:
        names = _seat_names(kit, g)
        lines = [kit.line(x, names) for x in (g.logs or [])]
        pending = None
        if g.pending is not None and not g.is_terminal():
            p = g.pending.player
            # the kit's help speaks to the person at the table ("Your Actions step"); a judge reads of a side
            pending = {"player": p, "name": names[p], "help": re.sub(r"^Your ", "Their ", kit.decision_help(g)),
                       "options": [{"text": o, "label": kit.option_label(g, o, p), "pass": kit.is_pass(o)}
                                   for o in kit.option_texts(g)]}
        current = kit.to_position(g) if not g.is_terminal() else None
        ctx.update({"loaded": True, "board": kit.board(g, names, judge=True), "names": list(names), "pending": pending,
                    "over": g.is_terminal(), "winner": kit.winner(g), "reason": kit.reason(g) if g.is_terminal() else "",
                    "log": lines[-400:], "step_log": lines[before:] if actions else [],
                    "start_json": json.dumps(position), "actions_json": json.dumps(actions),
                    "actions_done": len(actions),
                    "export_json": json.dumps(dict(position, actions=actions), indent=1),
                    "current_json": json.dumps(current, indent=1) if current else None})
        if op in ("export", "export_current"):
            body = ctx["current_json"] if op == "export_current" and ctx["current_json"] else ctx["export_json"]
            resp = HttpResponse(body, content_type="application/json")
            resp["Content-Disposition"] = f'attachment; filename="{game}-position.json"'
            return resp
    return render(request, "simulator/play_sandbox.html", ctx, status=status)
