"""Pages: /simulate/ (paste a list, pick a report; no login) and /simulate/runs/ID/ (live progress -> report).

Views only translate (STYLE §8): read the form, call services, render. The run page polls with htmx and gets
back only the `run-body` fragment; without JavaScript it refreshes itself until the report is ready.
"""
from __future__ import annotations

from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from cards.starters import starter, starters
from roc_site.throttling import page_throttle

from . import access, charts, runner, selectors, services
from .api import anonymous_key
from .forms import SimulateForm
from .hands import POLICY_KINDS

GAMES_CHOICES = {"hands": [1_000, 10_000, 100_000], "goldfish": [100, 1_000, 10_000], "versus": [100, 1_000, 10_000]}


def _int_or_none(value):
    value = (value or "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        return value  # the service names the bad value in its message


@require_http_methods(["GET", "POST"])
def simulate(request):
    form = {"mode": "hands", "text": "", "opponent": "", "games": "", "seed": "1", "mulligan_kind": "min_units",
            "mulligan_value": "2", "query": "", "query_k": "1", "player": "fast"}
    error = None
    status = 200
    deck_id = request.GET.get("deck") or request.POST.get("deck") or ""
    version = None
    if deck_id:
        found = selectors.deck_version_for(user=request.user, deck_id=deck_id)
        if found is None:
            raise Http404("No such deck, or it is private.")
        version, form["text"] = found
    # ?starter=SLUG / ?opponent_starter=SLUG: start from a core-set starter deck (no typing needed);
    # ?decklist=ID: a published decklist ("Simulate this decklist" on its page)
    picked = starter(request.GET.get("starter")) if not deck_id else None
    if picked is not None:
        form["text"] = picked.text
    elif not deck_id and request.GET.get("decklist") and request.method == "GET":
        published = selectors.decklist_text_for(request.GET["decklist"])
        if published is None:
            raise Http404("No such decklist.")
        form["text"] = published
    picked_opp = starter(request.GET.get("opponent_starter"))
    if picked_opp is not None:
        form["opponent"] = picked_opp.text
        form["mode"] = "versus"
    # One of my saved decks as the opponent (?opponent_deck=ID, or the page's choice of my decks)
    opponent_id = request.GET.get("opponent_deck") or request.POST.get("opponent_deck") or ""
    opponent_version = opponent_found = None
    if opponent_id:
        opponent_found = selectors.deck_version_for(user=request.user, deck_id=opponent_id)
        if opponent_found is None:
            raise Http404("No such deck, or it is private.")
        opponent_version, form["opponent"] = opponent_found
        form["mode"] = "versus"
    if request.GET.get("mode") in runner.MODES and request.method == "GET":
        form["mode"] = request.GET["mode"]
    problems: list[str] = []
    fill = request.method == "POST" and (request.POST.get("use_starter") or request.POST.get("use_opponent_starter"))
    loading = request.method == "POST" and request.POST.get("load") == "1"
    throttled = request.method == "POST" and not fill and not loading and page_throttle(request)
    if request.method == "POST":
        form.update({k: request.POST.get(k, v) for k, v in form.items()})
    if fill:
        # A starter deck button inside the form: fill that box and keep everything else typed (a link would
        # reload the page and lose the list the player pasted).
        chosen = starter(request.POST.get("use_starter") or request.POST.get("use_opponent_starter"))
        if chosen is not None and request.POST.get("use_starter"):
            form["text"] = chosen.text
        elif chosen is not None:
            form["opponent"], form["mode"] = chosen.text, "versus"
    elif throttled:
        error, status = throttled, 429  # the same per-user/per-address limit as the API
    elif loading:  # "Load" (no JavaScript): the chosen saved decks fill their lists; the rest stays as typed
        form["text"] = found[1] if deck_id else form["text"]
        if opponent_found:
            form["opponent"], form["mode"] = opponent_found[1], "versus"
    elif request.method == "POST":
        checked = SimulateForm(data=form)
        problems = checked.problems() if not checked.is_valid() else []
        problems += _decklist_problems(form)
        if problems:
            error, status = _problems_summary(problems), 400
    if request.method == "POST" and not fill and not loading and not throttled and not problems:
        if version is not None and form["text"].replace("\r\n", "\n").strip() != found[1].strip():
            version = None  # the list was edited on the page: it is no longer that saved version
        if opponent_version is not None and \
                form["opponent"].replace("\r\n", "\n").strip() != opponent_found[1].strip():
            opponent_version = None
        if form["mode"] != "versus":
            opponent_version = None
        settings = {}
        if form["mode"] == "hands":
            settings["mulligan"] = {"kind": form["mulligan_kind"], "value": _int_or_none(form["mulligan_value"]) or 0}
            if form["query"].strip():
                settings["targets"] = [{"query": form["query"].strip(), "k": _int_or_none(form["query_k"]) or 1}]
        else:
            # Fast or strong players: the same policy plays both sides, so the win rate measures
            # the decks, not a difference in play
            policy = runner.PLAYERS.get(form["player"], runner.DEFAULT_POLICY)
            settings["policy"] = policy
            if form["mode"] == "versus":
                settings["opponent_policy"] = policy
        user = request.user if request.user.is_authenticated else None
        if user is None and not request.session.session_key:
            request.session.save()
        try:
            run, _ = services.run_request(
                mode=form["mode"], text=form["text"], opponent_text=form["opponent"] if form["mode"] == "versus"
                else None, games=_int_or_none(form["games"]), seed=_int_or_none(form["seed"]), settings=settings,
                user=user, session_key="" if user else anonymous_key(request, create=True), deck_version=version,
                deck_name=version.name if version is not None else None, opponent_version=opponent_version,
                opponent_name=opponent_version.name if opponent_version is not None else None)
            return redirect(run.get_absolute_url(), permanent=False)
        except (runner.SpecError, services.LimitExceeded, runner.EngineUnavailable) as exc:
            error, status = str(exc), 400
        except services.BrokerUnavailable as exc:
            error, status = str(exc), 503
    recent = selectors.runs_for(request)[:10]
    my_decks = selectors.saved_decks_for(user=request.user)
    mine = {str(pk) for pk, _ in my_decks}
    loaded = deck_id if version is not None else ""
    return access.keep_session(request, render(request, "simulator/simulate.html", {
        "form": form, "error": error, "problems": problems, "modes": runner.MODES, "games_choices": GAMES_CHOICES,
        "policy_kinds": POLICY_KINDS, "recent": recent, "player_times": player_times(),
        # another player's public deck stays a hidden field; one of mine is chosen in the list of my decks
        "deck_id": loaded if loaded not in mine else "", "deck_loaded": loaded,
        "my_decks": my_decks, "deck_choice": loaded if loaded in mine else "",
        "opponent_choice": str(opponent_id) if opponent_version is not None and str(opponent_id) in mine else "",
        "opponent_extra": opponent_found is not None and opponent_version is not None and str(opponent_id) not in mine,
        "opponent_deck_id": opponent_id if opponent_version is not None else "",
        # The starter whose list is in each box now (so its button shows as chosen, whichever way it got there).
        "starters": starters(), "starter": _holding(form["text"]), "opponent_starter": _holding(form["opponent"]),
    }, status=status))


def player_times() -> list[dict]:
    """The page's fast/strong choice with its expected run time for 1,000 games (CPU time on one worker; more
    workers share a run's chunks, so two workers take about half as long)."""
    out = []
    for key, label, about in (("fast", "Fast", "the greedy player: rules of thumb, no look-ahead"),
                              ("strong", "Strong", "the expert player: searches each important decision by "
                                                   "playing it out")):
        secs = {m: runner.expected_seconds(m, 1_000, key) for m in ("goldfish", "versus")}
        out.append({"key": key, "label": label, "about": about, "goldfish": _duration(secs["goldfish"]),
                    "versus": _duration(secs["versus"])})
    return out


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    if seconds < 5400:
        return f"about {round(seconds / 60)} min"
    return f"about {seconds / 3600:.1f} h"


def _holding(text: str) -> str:
    text = text.replace("\r\n", "\n").strip()
    return next((s.slug for s in starters() if text and s.text.strip() == text), "")


def _decklist_problems(form: dict) -> list[str]:
    """Each unreadable line of the pasted lists, one message per line (the service would join them into one
    paragraph). Empty lists are left to the service, whose message says what to paste."""
    from decks.decklist import parse_decklist
    from decks.pool import CardPool

    out = []
    boxes = [("Decklist", form["text"])] + ([("Opponent decklist", form["opponent"])]
                                            if form["mode"] == "versus" else [])
    pool = None
    for label, text in boxes:
        if not text.strip() or len(text) > 100_000:
            continue
        pool = pool or CardPool.from_db()
        out += [f"{label}: {p.message}" for p in parse_decklist(text, pool).problems[:20]]
    return out


def _problems_summary(problems: list[str]) -> str:
    n = len(problems)
    return f"{'This needs' if n == 1 else f'These {n} things need'} fixing before the simulation can start:"


def _sample_game(run, result) -> dict:
    """The report's sample game: its log lines and the decks' short names, for the round-by-round
    summary. A head-to-head run keeps game 1's log; a goldfish run keeps none, so game 1 is replayed (it is
    reproducible, and the replay is cached: views_play._replayed)."""
    from . import replay
    from .views_play import _replayed
    names = (replay.short_name(run.deck_name, "The deck"),
             replay.short_name(run.opponent_name, "The opponent") if result.get("mode") == "versus" else "The goldfish")
    if names[0] == names[1]:
        names = (names[0] + " (1)", names[1] + " (2)")
    if result.get("mode") == "versus" and result.get("sample_log"):
        return {"sample_lines": result["sample_log"]["lines"], "sample_names": names}
    if result.get("mode") == "goldfish":
        try:
            data = _replayed(run, 0)
        except Exception:   # the report stands without its sample (a run of an engine that cannot replay it)
            import logging
            logging.getLogger(__name__).warning("run %s: game 1 could not be replayed for the report", run.pk,
                                                exc_info=True)
            return {}
        return {"sample_lines": [x for f in data["frames"] for x in f["raw"]], "sample_names": names,
                "sample_cards": data.get("cards") or {}, "sample_influence": data.get("influence_by_round"),
                "sample_result": {"winner": data["winner"], "reason": data["reason"], "rounds": data["rounds"],
                                  "seed": data["seed"]}}
    return {}


def run_doctor(run, user, game: str | None = None) -> dict | None:
    """The deck doctor's reading of a run's deck (decks/doctor.py), for its report; a finished versus run of the
    deck is among the stored games it reads."""
    from cards.games import registry
    from decks.doctor import diagnose_counts, for_page
    if not run.deck_counts or not registry.get(game).has("doctor"):
        return None
    return for_page(diagnose_counts(run.deck_counts, game_slug=game, user=user, name=run.deck_name))


@vary_on_headers("HX-Request")
def run_detail(request, pk: str):
    run = access.run_access(request, pk)
    if (run.spec or {}).get("game"):  # a realms or regions run has its own report page (simulator/games/views.py)
        return redirect(run.get_absolute_url())
    context = {"run": run, "result": run.result if run.status == "done" else None, **share_context(request, run)}
    if context["result"]:
        result = context["result"]
        context["charts"] = charts.charts_for(result)
        context["uncertainty"] = uncertainty_statement(result)
        context["first_rows"] = first_player_rows(result, run)
        context.update(_sample_game(run, result))
        context["doctor"] = run_doctor(run, request.user)
    template = "simulator/run_body.html" if getattr(request, "htmx", False) else "simulator/run.html"
    return render(request, template, context)


@require_http_methods(["POST"])
def run_retry(request, pk: int):
    """A run saved while the queue was down: hand it to the workers now (nothing is recomputed if done)."""
    run = access.run_access(request, pk, write=True)
    if run.status == "pending":
        try:
            services.run_dispatch(run)
        except services.BrokerUnavailable as exc:
            run.refresh_from_db()
            return render(request, "simulator/run.html", {"run": run, "result": None, "retry_error": str(exc),
                                                          **share_context(request, run)},
                          status=503)
    return redirect(run.get_absolute_url())


def share_context(request, run) -> dict:
    """What the Share / Stop sharing control shows (templates/simulator/_share.html): for the run's owner only."""
    from .models import TuningRun

    name = "simulator:tuning_share" if isinstance(run, TuningRun) else "simulator:share"
    return {"share": {"owner": run.viewer_owns, "url": access.share_url(request, run),
                      "action": reverse(name, args=[run.ref]) if run.viewer_owns else None}}


@require_http_methods(["POST"])
def run_share(request, pk: str):
    """Share (`shared=1`) or stop sharing (`shared=0`) a simulation run of any game, by its owner. htmx gets the
    control back; without JavaScript the report page again."""
    return _share(request, access.run_access(request, pk, write=True))


@require_http_methods(["POST"])
def tuning_share(request, pk: str):
    from .models import TuningRun

    return _share(request, access.run_access(request, pk, model=TuningRun, write=True))


def _share(request, run):
    shared = request.POST.get("shared", "1")
    if shared not in ("0", "1"):
        return HttpResponseBadRequest("shared: 1 to share the run, 0 to stop sharing it.")
    access.set_shared(run, shared == "1")
    if getattr(request, "htmx", False):
        return render(request, "simulator/_share.html", share_context(request, run))
    return redirect(run.get_absolute_url())


def first_player_rows(result: dict, run) -> list[tuple[str, dict]]:
    """The versus report's "going first" table: who was first player in round 1, with the share of games."""
    if result.get("mode") != "versus" or not result.get("going_first"):
        return []
    n = result["games"] or 1
    return [(label, {**side, "share": side["games"] / n})
            for label, side in (("The deck", result["going_first"]), ("The opponent", result["going_second"]))]


def uncertainty_statement(result: dict) -> str:
    """The sample size and what it means for the numbers, in plain words."""
    mode = result["mode"]
    if mode == "hands":
        n = result["setup"]["samples"]
        worst = charts.margin_95(0.5, n)
        return (f"The card probabilities are exact (computed, not sampled). The setup figures come from {n:,} "
                f"sampled opening hands, each with its exact best setup: any rate shown is within about "
                f"±{100 * worst:.1f} percentage points of the true value (95% confidence, at worst).")
    n = result["games"]
    if mode == "goldfish":
        # Against the goldfish nobody can lose: a "win" is reaching 15 Influence (§12), so say that.
        lo, hi = result.get("win_rate_ci95") or (None, None)
        margin = charts.margin_95(0.5, n)
        text = f"Based on {n:,} games against the goldfish (an opponent that never acts)."
        rate = result.get("win_rate")
        if lo is not None and rate is not None:
            if rate >= 1:
                text += (f" The deck reached 15 Influence in every game; with 95% confidence it does so in at "
                         f"least {100 * lo:.1f}% of games.")
            elif rate <= 0:
                text += (f" The deck never reached 15 Influence; with 95% confidence it does so in at most "
                         f"{100 * hi:.1f}% of games.")
            else:
                text += (f" It reached 15 Influence in {100 * rate:.1f}% of games (95% interval {100 * lo:.1f}%–"
                         f"{100 * hi:.1f}%).")
            text += f" Other rates are within about ±{100 * margin:.1f} points."
        return text
    lo, hi = result["ci95"] or (0, 0)
    return (f"Based on {n:,} games. The win rate (the first deck's) is {100 * result['win_rate']:.1f}% with "
            f"a 95% Wilson interval of {100 * lo:.1f}%–{100 * hi:.1f}%: differences smaller than that interval "
            f"are not evidence that one deck is better.")
