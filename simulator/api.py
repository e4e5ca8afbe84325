"""`/api/simulations/` (CONTRACTS §4, §7): POST a run of any game (202 with `id` and `url`), GET its status,
progress and result. One view for every game: the `game` field picks it (default r1), and `/<game>/api/simulations/`
is the same view with the game taken from the address (simulator/games/urls.py).

Views only translate: input checks here, the work in services.py and simulator/games/services.py.
"""
from __future__ import annotations

import json

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from django.http import Http404, QueryDict
from django.utils.datastructures import MultiValueDict
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Empty
from rest_framework.response import Response

from cards.games import registry
from roc_site.schema import ObjectListSchema
from roc_site.throttling import SimulationRateThrottle

from . import access, runner, selectors, services
from .deckinput import MAX_TEXT_CHARS
from .games import run_hook, simulated
from .games.services import GameSpecError, game_run_request
from .models import SimulationRun
from .run_json import anonymous_key, run_json  # noqa: F401  (anonymous_key: imported from here by other modules)


def share_response(request, ref, model, to_json) -> Response:
    """POST .../ID/share/ of either API: the owner turns sharing on or off (access.set_shared)."""
    try:
        run = access.run_access(request, ref, model=model, write=True)
    except access.RunNotFound:
        return Response({"detail": f"No run {ref!r} of yours."}, status=status.HTTP_404_NOT_FOUND)
    shared = request.data.get("shared", True) if isinstance(request.data, dict) else None
    if not isinstance(shared, bool):
        return Response({"detail": "shared: true (share the run) or false (stop sharing it)."},
                        status=status.HTTP_400_BAD_REQUEST)
    access.set_shared(run, shared)
    return Response(to_json(run, request))


class RunCreateSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=[], required=False,
                                   help_text="the game (CONTRACTS §7), default r1; realms and regions runs are "
                                             "described in docs/games/simulations.md")
    mode = serializers.ChoiceField(choices=runner.MODES)
    # the games come from the registry when the serializer is made, so a game registered later is one of them
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = list(simulated())

    text = serializers.CharField(max_length=MAX_TEXT_CHARS, trim_whitespace=False, required=False,
                                 help_text="the deck as decklist text (CONTRACTS §2); or give `deck`")
    deck = serializers.IntegerField(required=False, help_text="id of a saved deck you may read (its latest version)")
    opponent_deck = serializers.IntegerField(required=False, help_text="id of a saved deck, as the opponent")
    opponent = serializers.CharField(max_length=MAX_TEXT_CHARS, required=False, allow_blank=True,
                                     trim_whitespace=False, help_text="the opponent's decklist (versus only)")
    games = serializers.IntegerField(required=False, min_value=1,
                                     help_text="games to play, or opening hands to sample for mode 'hands'")
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**63 - 1)
    settings = serializers.DictField(required=False, help_text="mode settings, e.g. {\"mulligan\": {\"kind\": "
                                                               "\"min_units\", \"value\": 2}}")
    name = serializers.CharField(required=False, max_length=200, allow_blank=True)
    policy = serializers.CharField(required=False, max_length=40,
                                   help_text="who plays the deck (goldfish, versus): random, greedy (default), "
                                             "greedy-v1 or expert (expert:N: N simulations per decision); "
                                             "the same as settings.policy")
    opponent_policy = serializers.CharField(required=False, max_length=40,
                                            help_text="who plays the opponent (versus); as `policy`")


RUN_SCHEMA = inline_serializer("SimulationRun", fields={
    "id": serializers.IntegerField(), "url": serializers.URLField(), "status": serializers.CharField(),
    "progress": serializers.FloatField(), "result": serializers.JSONField(allow_null=True),
})
ERROR_SCHEMA = inline_serializer("SimulationError", fields={"detail": serializers.CharField()})


class SimulationViewSet(viewsets.ViewSet):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [SimulationRateThrottle]  # starting a run is CPU-heavy; reads are not throttled
    schema = ObjectListSchema()  # list answers {"count", "results"}, not an array

    def initial(self, request, *args, **kwargs):
        # The CSRF check of SessionAuthentication reads request.POST, which makes DRF parse the body: a body no
        # parser reads (what a form on another site can send without a preflight: text/plain riding a session)
        # would answer 415 before the CSRF refusal. So the checks run on an empty body, and the body is parsed
        # (415 if it cannot be) only once they pass.
        if request.method in ("GET", "HEAD", "OPTIONS") or \
                request.negotiator.select_parser(request, request.parsers) is not None:
            return super().initial(request, *args, **kwargs)
        request._data, request._files, request._full_data = QueryDict(), MultiValueDict(), QueryDict()
        try:
            super().initial(request, *args, **kwargs)
        finally:
            request._data = request._files = request._full_data = Empty

    @extend_schema(responses={200: inline_serializer("SimulationRunList", fields={
        "count": serializers.IntegerField(), "results": RUN_SCHEMA.__class__(many=True)})})
    def list(self, request, game: str | None = None):
        # the visitor's runs, newest first; `?game=` (or the game's own address) keeps one game's
        _check_game_address(game)
        runs = selectors.runs_for(request)
        slug = game or request.query_params.get("game")
        if slug:  # a run of the default game names no game in its spec
            runs = runs.filter(spec__game=slug) if slug != registry.DEFAULT else runs.exclude(spec__has_key="game")
        runs = runs[:50]
        to_json = game_run_json if game else run_json   # the game's own address names each run's game
        return Response({"count": len(runs), "results": [to_json(r, request) for r in runs]})

    @extend_schema(parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH)],
                   responses={200: RUN_SCHEMA, 404: ERROR_SCHEMA})
    def retrieve(self, request, pk=None):
        try:
            run = access.run_access(request, pk)
        except access.RunNotFound:
            return Response({"detail": f"No simulation run {pk!r} that you may see."},
                            status=status.HTTP_404_NOT_FOUND)
        return Response(run_json(run, request))

    @extend_schema(request=inline_serializer("RunShare", fields={"shared": serializers.BooleanField()}),
                   parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH)],
                   responses={200: RUN_SCHEMA, 400: ERROR_SCHEMA, 404: ERROR_SCHEMA})
    @action(detail=True, methods=["post"])
    def share(self, request, pk=None):
        """Share your run (`{"shared": true}`: `share_url` is its unguessable link, read-only for whoever has
        it) or stop sharing it (`false`: that link stops working)."""
        return share_response(request, pk, SimulationRun, run_json)

    @extend_schema(request=RunCreateSerializer,
                   responses={202: RUN_SCHEMA, 400: ERROR_SCHEMA,
                              503: OpenApiResponse(ERROR_SCHEMA, description="the queue is down; run saved")})
    def create(self, request, game: str | None = None):
        _check_game_address(game)
        if not isinstance(request.data, dict):
            return Response({"detail": "Send a JSON object with mode and text."}, status=status.HTTP_400_BAD_REQUEST)
        slug = game or request.data.get("game") or registry.DEFAULT   # the game's own address picks it
        if slug not in simulated():
            return Response({"detail": f"game: {str(slug)[:40]!r} has no simulations; {', '.join(simulated())}"},
                            status=status.HTTP_400_BAD_REQUEST)
        if not run_hook(slug, "SAVED_DECKS", False):
            return _create_from_fields(request, slug, request.data)
        serializer = RunCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = request.user if request.user.is_authenticated else None
        text, opponent_text = data.get("text"), data.get("opponent") or None
        versions = {}
        for field, label in (("deck", "deck"), ("opponent_deck", "opponent deck")):
            if data.get(field) is not None:
                found = selectors.deck_version_for(user=request.user, deck_id=data[field])
                if found is None:
                    return Response({"detail": f"No saved {label} with id {data[field]} that you may read."},
                                    status=status.HTTP_400_BAD_REQUEST)
                versions[field] = found
        if "deck" in versions:
            text = versions["deck"][1]
        if "opponent_deck" in versions:
            opponent_text = versions["opponent_deck"][1]
        if not text:
            return Response({"detail": "text: give the deck as decklist text, or `deck` (a saved deck's id)."},
                            status=status.HTTP_400_BAD_REQUEST)
        settings = data.get("settings")
        for key in ("policy", "opponent_policy"):
            if data.get(key):
                if settings is not None and settings.get(key) not in (None, data[key]):
                    return Response({"detail": f"{key} is given twice, differently (as a field and in settings)."},
                                    status=status.HTTP_400_BAD_REQUEST)
                settings = {**(settings or {}), key: data[key]}
        return _answer(request, lambda: services.run_request(
            mode=data["mode"], text=text, opponent_text=opponent_text,
            deck_version=versions["deck"][0] if "deck" in versions else None,
            opponent_version=versions["opponent_deck"][0] if "opponent_deck" in versions else None,
            games=data.get("games"), seed=data.get("seed"), settings=settings, user=user,
            session_key="" if user else access.api_owner_key(request), deck_name=data.get("name") or None),
            run_json)


def _check_game_address(game: str | None) -> None:
    """At a game's own address, a game whose simulations run here (any other answers 404)."""
    if game is not None and game not in simulated():
        raise Http404(f"The game {game!r} has no simulations.")


def game_run_json(run: SimulationRun, request) -> dict:
    """A run as a game's own address and a game's POST answer it: `run_json` naming its game."""
    body = run_json(run, request)
    body["game"] = (run.spec or {}).get("game") or registry.DEFAULT
    return json.loads(json.dumps(body, default=str))


def _answer(request, make, to_json) -> Response:
    """202 with the run made (or found) by `make()`; 400 for a request that cannot run, 503 (run saved) when the
    queue is down."""
    try:
        run, created = make()
    except (runner.SpecError, runner.EngineUnavailable, GameSpecError, services.LimitExceeded) as exc:
        return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
    except services.BrokerUnavailable as exc:
        saved = access.reachable_by_maker(request, exc.run)
        return Response({"detail": str(exc), "id": saved.pk, "url": request.build_absolute_uri(
            f"/api/simulations/{saved.ref}/")}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
    body = to_json(access.reachable_by_maker(request, run), request)
    body["cached"] = not created
    return Response(body, status=status.HTTP_202_ACCEPTED)


TEXT_FIELDS = ("text", "opponent", "policy", "opponent_policy", "format", "name", "opponent_name", "strategy",
               "opponent_strategy")


def _create_from_fields(request, game: str, data) -> Response:
    """A run of a game whose decks (or strategies) come as text fields: its run module builds the spec
    (simulator/games/services.py); a strategy game also takes a shipped strategy's name (`strategy`)."""
    user = request.user if request.user.is_authenticated else None

    def make():
        mode = data.get("mode")
        if not isinstance(mode, str):
            raise GameSpecError("mode: goldfish or versus")
        for key in TEXT_FIELDS:
            if data.get(key) is not None and not isinstance(data[key], str):
                raise GameSpecError(f"{key}: a string")
        games, seed = data.get("games"), data.get("seed", 1)
        for key, value in (("games", games), ("seed", seed)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise GameSpecError(f"{key}: a whole number")
        text, opponent = data.get("text") or "", data.get("opponent") or None
        shipped_hook = run_hook(game, "shipped_strategies")
        shipped = shipped_hook() if shipped_hook else {}
        text = shipped.get(data.get("strategy") or "", text)
        opponent = shipped.get(data.get("opponent_strategy") or "", opponent)
        return game_run_request(game, mode=mode, text=text, opponent_text=opponent, games=games, seed=seed,
                                policy=data.get("policy"), opponent_policy=data.get("opponent_policy"),
                                fmt=data.get("format"), user=user,
                                session_key="" if user else access.api_owner_key(request),
                                deck_name=data.get("name") or "", opponent_name=data.get("opponent_name") or "")

    return _answer(request, make, game_run_json)
