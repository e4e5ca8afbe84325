"""`/api/tuning/`: POST a compare, tune or matrix run (202 with `id` and `url`, like simulations),
GET its status, progress and result, POST `/api/tuning/ID/cancel/` to stop it. Bad input: 400 `{"detail"}`.
A hosted game's run names its `game` (as on /api/simulations/), or is posted to `/<game>/api/tuning/`, which lists
that game's runs too."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from roc_site.schema import ObjectListSchema
from roc_site.throttling import SimulationRateThrottle

from . import access, runner, selectors, tuning
from . import tuning_services as services
from .api import ERROR_SCHEMA, share_response
from .deckinput import MAX_TEXT_CHARS
from .models import TuningRun
from .services import BrokerUnavailable, LimitExceeded


def _tuned_games() -> list[str]:
    """The games a tuning run may name: the default game and every game under its own prefix with a tuning module."""
    from cards.games import registry

    from .games import run_hook

    return [registry.DEFAULT] + [g.slug for g in registry.games() if g.prefix and run_hook(g.slug, "tuning")]


class TuningCreateSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=_tuned_games(), required=False,
                                   help_text="the game (CONTRACTS §7), default r1; a regions side is a strategy's "
                                             "text, and its swaps are of Heroes")
    kind = serializers.ChoiceField(choices=tuning.KINDS)
    decks = serializers.ListField(child=serializers.JSONField(), min_length=1, max_length=tuning.MAX_DECKS["matrix"],
                                  help_text='decklist texts, {"name", "text"} objects, or {"deck": ID} (a saved deck '
                                            'you may read): two for compare, one for tune, 2-12 for matrix')
    gauntlet = serializers.ListField(child=serializers.JSONField(), required=False, max_length=tuning.MAX_GAUNTLET,
                                     help_text="opponents for compare and tune --target winrate (default: the "
                                               "starter decks), same forms as decks")
    games = serializers.IntegerField(required=False, min_value=1)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**63 - 1)
    policy = serializers.CharField(required=False, max_length=40)
    opponent_policy = serializers.CharField(required=False, max_length=40)
    target = serializers.ChoiceField(choices=tuning.TARGETS, required=False)
    owned = serializers.BooleanField(required=False, help_text="tune: only cards in your collection")


def tuning_json(run: TuningRun, request=None) -> dict:
    """As simulator/run_json.py run_json: addresses by id for the owner, by share token for the shared link."""
    api_url, page_url = f"/api/tuning/{run.ref}/", run.get_absolute_url()
    share = f"/api/tuning/{run.share_token}/" if run.share_token else None
    if request is not None:
        api_url, page_url = request.build_absolute_uri(api_url), request.build_absolute_uri(page_url)
        share = request.build_absolute_uri(share) if share else None
    from cards.games import registry

    return {"id": run.pk, "game": run.game or registry.DEFAULT, "url": api_url, "page_url": page_url,
            "share_url": share, "kind": run.kind, "status": run.status,
            "progress": 1.0 if run.status == "done" else round(run.progress, 4), "games_done": run.games_done,
            "games_planned": run.games_planned, "stage": run.stage, "title": run.title, "games": run.games,
            "seed": run.seed, "policies": [run.policy, run.opponent_policy], "target": run.target or None,
            "created_at": run.created_at, "finished_at": run.finished_at, "error": run.error or None,
            "result": run.result if run.status == "done" else None}


class BadDeck(ValueError):
    pass


def read_decks(items, *, user, what: str, game: str | None = None, request=None) -> tuple[list[tuple[str, str]], bool]:
    """(name, text) pairs from the request's forms of a deck; True when a saved deck was used. A hosted game's
    `{"deck": ID}` is one of its saved decks (simulator/games/picks.py, as its simulate page picks them)."""
    out, private = [], False
    for i, item in enumerate(items or []):
        if isinstance(item, str):
            out.append((f"{what} {i + 1}", item))
        elif game and isinstance(item, dict) and "deck" in item:
            from cards.games import registry

            from .games import picks
            try:
                text, name = picks.resolve(request, registry.get(game), f"deck:{str(item['deck'])[:20]}")
            except picks.PickError as exc:
                raise BadDeck(f"{what}s[{i}]: {exc}") from None
            out.append((name, text))
            private = True
        elif isinstance(item, dict) and "deck" in item:
            found = selectors.deck_version_for(user=user, deck_id=item["deck"])
            if found is None:
                raise BadDeck(f"{what}s[{i}]: no saved deck with id {item['deck']!r} that you may read.")
            out.append((found[0].name, found[1]))
            private = True
        elif isinstance(item, dict) and isinstance(item.get("text"), str):
            out.append((str(item.get("name") or f"{what} {i + 1}")[:120], item["text"]))
        else:
            raise BadDeck(f"{what}s[{i}]: give decklist text, {{\"name\", \"text\"}} or {{\"deck\": ID}}.")
        if len(out[-1][1]) > MAX_TEXT_CHARS:
            raise BadDeck(f"{what}s[{i}] is longer than {MAX_TEXT_CHARS} characters.")
    return out, private


TUNING_SCHEMA = inline_serializer("TuningRun", fields={
    "id": serializers.IntegerField(), "url": serializers.URLField(), "kind": serializers.CharField(),
    "status": serializers.CharField(), "progress": serializers.FloatField(),
    "result": serializers.JSONField(allow_null=True)})


class TuningViewSet(viewsets.ViewSet):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [SimulationRateThrottle]
    schema = ObjectListSchema()

    def _game(self, request) -> str | None:
        """The game of this address (/<game>/api/tuning/) or of the request (`game`, `?game=`); None for r1."""
        from cards.games import registry

        game = self.kwargs.get("game") or (request.data.get("game") if isinstance(request.data, dict) else None) \
            or request.query_params.get("game")
        return None if game in (None, "", registry.DEFAULT) else game

    @extend_schema(parameters=[OpenApiParameter("game", str, OpenApiParameter.QUERY, required=False,
                                                description="only this game's runs (r1, realms, regions)")],
                   responses={200: inline_serializer("TuningRunList", fields={
        "count": serializers.IntegerField(), "results": TUNING_SCHEMA.__class__(many=True)})})
    def list(self, request, game=None):   # game: /<game>/api/tuning/, read as self.kwargs
        runs = access.owned_runs(request, TuningRun)
        game = self._game(request)
        if game is not None or self.kwargs.get("game") or request.query_params.get("game"):
            runs = runs.filter(game=game or "")
        runs = runs[:50]
        return Response({"count": len(runs), "results": [tuning_json(r, request) for r in runs]})

    @extend_schema(parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH)],
                   responses={200: TUNING_SCHEMA, 404: ERROR_SCHEMA})
    def retrieve(self, request, pk=None):
        try:
            run = access.run_access(request, pk, model=TuningRun)
        except access.RunNotFound:
            return Response({"detail": f"No tuning run {pk!r} that you may see."}, status=status.HTTP_404_NOT_FOUND)
        return Response(tuning_json(run, request))

    @extend_schema(request=None, parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH)],
                   responses={200: TUNING_SCHEMA, 403: ERROR_SCHEMA, 404: ERROR_SCHEMA})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        try:
            run = access.run_access(request, pk, model=TuningRun)
        except access.RunNotFound:
            return Response({"detail": f"No tuning run {pk!r} that you may see."}, status=status.HTTP_404_NOT_FOUND)
        if not run.viewer_owns:   # came by the shared link: read-only
            return Response({"detail": "Only whoever started a run may cancel it."}, status=status.HTTP_403_FORBIDDEN)
        return Response(tuning_json(services.tuning_cancel(run), request))

    @extend_schema(request=inline_serializer("TuningShare", fields={"shared": serializers.BooleanField()}),
                   parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH)],
                   responses={200: TUNING_SCHEMA, 400: ERROR_SCHEMA, 404: ERROR_SCHEMA})
    @action(detail=True, methods=["post"])
    def share(self, request, pk=None):
        """Share your run (`{"shared": true}`) or stop sharing it (`false`), as /api/simulations/ID/share/."""
        return share_response(request, pk, TuningRun, tuning_json)

    @extend_schema(request=TuningCreateSerializer, responses={202: TUNING_SCHEMA, 400: ERROR_SCHEMA, 503: ERROR_SCHEMA})
    def create(self, request, game=None):
        if not isinstance(request.data, dict):
            return Response({"detail": "Send a JSON object with kind and decks."}, status=status.HTTP_400_BAD_REQUEST)
        body = dict(request.data)
        if self.kwargs.get("game"):
            if body.get("game") not in (None, self.kwargs["game"]):
                return Response({"detail": f"game: this address is {self.kwargs['game']}'s; send no game, or post to "
                                 "/api/tuning/."}, status=status.HTTP_400_BAD_REQUEST)
            body["game"] = self.kwargs["game"]
        serializer = TuningCreateSerializer(data=body)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game = self._game(request) if not self.kwargs.get("game") else self.kwargs["game"]
        if game is not None and data.get("owned"):
            return Response({"detail": "owned: this game keeps no collection; its swaps use every card."},
                            status=status.HTTP_400_BAD_REQUEST)
        user = request.user if request.user.is_authenticated else None
        try:
            decks, private_a = read_decks(data["decks"], user=request.user, what="deck", game=game, request=request)
            gauntlet, private_b = read_decks(data.get("gauntlet"), user=request.user, what="gauntlet deck", game=game,
                                             request=request)
        except BadDeck as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        owned = None
        if data.get("owned"):
            if user is None:
                return Response({"detail": "owned: sign in to tune with your collection."},
                                status=status.HTTP_400_BAD_REQUEST)
            owned = dict(user.collection.values_list("card_code", "count"))
        try:
            run, created = services.tuning_request(
                kind=data["kind"], decks=decks, gauntlet=gauntlet, games=data.get("games"), seed=data.get("seed"),
                policy=data.get("policy"), opponent_policy=data.get("opponent_policy"), target=data.get("target"),
                owned=owned, user=user, session_key="" if user else access.api_owner_key(request),
                private=private_a or private_b, game=game)
        except (tuning.TuningError, LimitExceeded, runner.EngineUnavailable) as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        except BrokerUnavailable as exc:
            saved = access.reachable_by_maker(request, exc.run)
            return Response({"detail": str(exc), "id": saved.pk,
                             "url": request.build_absolute_uri(f"/api/tuning/{saved.ref}/")},
                            status=status.HTTP_503_SERVICE_UNAVAILABLE)
        body = tuning_json(access.reachable_by_maker(request, run), request)
        body["cached"] = not created
        return Response(body, status=status.HTTP_202_ACCEPTED)

