"""GET /api/cards/?q=QUERY&sort=... and GET /api/cards/CODE/ (CONTRACTS §4)."""
from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.exceptions import APIException, NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from .search import SORTS, SearchError
from .selectors import card_data_from_row, card_get, card_rows, card_search
from .serializers import CardSerializer, SearchErrorSerializer


class BadRequest(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "bad_request"


class CardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def paginate_queryset(self, queryset, request, view=None):
        # CONTRACTS §4: an impossible request is a 400 naming what was wrong, not DRF's bare 404 "Invalid page".
        for param in ("page", self.page_size_query_param):
            raw = request.query_params.get(param)
            if raw is not None and (not raw.isascii() or not raw.isdigit() or int(raw) < 1):
                raise BadRequest(f'{param} must be a whole number ≥ 1, not "{raw[:20]}"')
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            count = queryset.count()
            size = self.get_page_size(request) or 1
            pages = max(1, -(-count // size))
            raise BadRequest(f'page {request.query_params.get("page", "")[:20]} does not exist; there '
                             f'{"is" if pages == 1 else "are"} {pages} page{"s" if pages != 1 else ""}') from None


Q_PARAM = OpenApiParameter(
    "q", OpenApiTypes.STR, description=(
        "Card search (CONTRACTS §5): bare words match the name, \"quoted phrases\", key:value or key OP number "
        "with OP one of : = != < <= > >=, -term negates, a|b is OR inside one key, `or` between terms, "
        "parentheses group. Keys: t f c p i a k x l s w m sp lv is legal owned. See /cards/syntax/."),
    examples=[OpenApiExample("Cheap Camelot units", value="f:camelot t:unit c<=2"),
              OpenApiExample("Knights or Lords", value="a:knight|lord -is:unique")])
GAME_PARAM = OpenApiParameter(
    "game", OpenApiTypes.STR, description="The game (CONTRACTS §7): r1 (default), realms, regions; the same as "
    "the /<game>/api/cards/ prefix. Another game's cards have its own fields and search keys (its syntax page).")
SORT_PARAM = OpenApiParameter(
    "sort", OpenApiTypes.STR, enum=[*SORTS, *(f"-{s}" for s in SORTS)],
    description="Sort by name (default), cost, power, faction, type or set (set and number); prefix - to reverse.")
BAD_QUERY = OpenApiResponse(SearchErrorSerializer, description="Malformed query or sort: the detail names the "
                            "term and its 1-based position")


@extend_schema_view(
    list=extend_schema(summary="Search cards", parameters=[Q_PARAM, SORT_PARAM, GAME_PARAM],
                       responses={200: CardSerializer(many=True), 400: BAD_QUERY}),
    retrieve=extend_schema(summary="One card by code",
                           responses={200: CardSerializer, 404: OpenApiResponse(description="No card with this code")}),
)
class CardViewSet(viewsets.ViewSet):
    """The card catalogue, read-only and public."""

    permission_classes = [AllowAny]
    serializer_class = CardSerializer
    pagination_class = CardPagination
    lookup_field = "code"
    lookup_value_regex = "[^/]+"

    def _other_game(self, request):
        """`?game=G` (CONTRACTS §7): another game's catalogue, answered by cards/game_views.py; None for r1."""
        from .games import registry

        slug = request.query_params.get("game")
        if not slug or slug == registry.DEFAULT:
            return None
        try:
            game = registry.get(slug)
        except registry.UnknownGame as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        return game

    def list(self, request):
        game = self._other_game(request)
        if isinstance(game, Response):
            return game
        if game is not None:
            from . import game_views

            return game_views.api_cards(request._request, game.slug)
        q = request.query_params.get("q", "")
        sort = request.query_params.get("sort") or None
        try:
            cards = card_search(q=q, sort=sort, user=request.user)
        except SearchError as exc:
            return Response({"detail": exc.message, "position": exc.position}, status=status.HTTP_400_BAD_REQUEST)
        paginator = self.pagination_class()
        rows = paginator.paginate_queryset(card_rows(cards), request, view=self)
        data = CardSerializer([card_data_from_row(r) for r in rows], many=True, context={"request": request}).data
        return paginator.get_paginated_response(data)

    def retrieve(self, request, code=None):
        game = self._other_game(request)
        if isinstance(game, Response):
            return game
        if game is not None:
            from . import game_views

            return game_views.api_card(request._request, game.slug, code)
        card = card_get(code=code)
        if card is None:
            raise Http404(f"No card with code {code!r}.")
        return Response(CardSerializer(card, context={"request": request}).data)
