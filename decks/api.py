"""The decks API (CONTRACTS §4): validate without login, CRUD for the owner, versions, stats and export.

Views only translate: they check input and permissions, call a service or selector, and render.
"""
from __future__ import annotations

import re

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field,
                                   inline_serializer)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ParseError, PermissionDenied, UnsupportedMediaType, ValidationError
from rest_framework.fields import empty
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.utils import html

from roc_site.inputs import InputError, check_text
from roc_site.parsers import SafeJSONParser
from roc_site.schema import ObjectListSchema

from .collection import export_collection_csv
from .decklist import DecklistProblem, check_decklist_text, export_decklist
from .legality import check_deck
from .models import Deck, Decklist
from .pool import CardPool
from .selectors import (collection_counts, comment_can_delete, comment_can_moderate, deck_buildability,
                        deck_list_deleted, deck_list_owned, deck_list_visible, deck_versions, decklist_comments,
                        decklist_search, format_active, format_by_slug, version_changes)
from .services import (MAX_COMMENT_CHARS, DeckInputError, account_export, account_import, collection_add_set,
                       collection_import_csv, collection_set, comment_create, comment_delete, comment_hide, deck_copy,
                       deck_create, deck_delete, deck_import_text, deck_restore_version, deck_undelete, deck_update,
                       decklist_copy, decklist_favourite, decklist_like, decklist_publish)
from .throttling import CommentRateThrottle
from .stats import deck_stats

MAX_TEXT_CHARS = 100_000  # a decklist is a few kilobytes
ARCHIVE_MAX_BYTES = 10_000_000  # an account file: thousands of decks and versions (under DATA_UPLOAD_MAX_MEMORY_SIZE)


# ---- parsers and renderers -------------------------------------------------------------------------------
class PlainTextParser(BaseParser):
    """A decklist posted as the raw request body (text/plain)."""

    media_type = "text/plain"

    def parse(self, stream, media_type=None, parser_context=None):
        data = stream.read(MAX_TEXT_CHARS * 4 + 1) if stream is not None else b""
        if len(data) > MAX_TEXT_CHARS * 4:
            raise ParseError(f"The decklist is too long: at most {MAX_TEXT_CHARS:,} characters.")
        try:
            return {"text": check_text(data.decode("utf-8-sig"), "text")}
        except UnicodeDecodeError as e:
            raise ParseError(f"The body is not UTF-8 text (byte {e.start}).") from e
        except InputError as e:
            raise ParseError(str(e)) from e


class OctetStreamParser(PlainTextParser):
    """A decklist file posted as bytes: read as UTF-8 text, or a 400 saying it is not."""

    media_type = "application/octet-stream"


class PlainTextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "text"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode("utf-8")
        return str((data or {}).get("detail", data)).encode("utf-8")


class ExportNegotiation(DefaultContentNegotiation):
    """`?format=text|json` chooses the export form; anything else falls to JSON so the 400 can explain."""

    def select_renderer(self, request, renderers, format_suffix=None):
        wanted = request.query_params.get("format", "text")
        for renderer in renderers:
            if renderer.format == wanted:
                return renderer, renderer.media_type
        json_renderer = next(r for r in renderers if r.format == "json")
        return json_renderer, json_renderer.media_type


# ---- serializers -----------------------------------------------------------------------------------------
class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    rule = serializers.CharField()
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    line = serializers.IntegerField(required=False, help_text="Decklist line, for problems reading the text")


class VerdictCountsSerializer(serializers.Serializer):
    draw = serializers.IntegerField()
    quests = serializers.IntegerField()
    faction = serializers.IntegerField()
    destiny = serializers.IntegerField()


class VerdictSerializer(serializers.Serializer):
    """The object `validatedeck --json` prints (CONTRACTS §3)."""

    legal = serializers.BooleanField()
    errors = ProblemSerializer(many=True)
    warnings = ProblemSerializer(many=True)
    counts = VerdictCountsSerializer()
    faction = serializers.CharField(allow_null=True)
    destiny = serializers.CharField(allow_null=True)
    format = serializers.CharField(allow_null=True, help_text="The organised-play format applied, if any (§11)")


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class DoctorSuggestionSerializer(serializers.Serializer):
    add = serializers.CharField(allow_null=True, help_text="a card to add (from the pool, or your collection)")
    remove = serializers.CharField(allow_null=True, help_text="a card of the deck to cut")
    why = serializers.CharField(help_text="the reason, in a sentence")


class DoctorFindingSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="undefended_icon, dead_card, needs_opponent, cost_curve, setup_budget, "
                                           "loyalty_surcharge, restricted_cards, draw_size (docs/decks.md), or a "
                                           "legality error code (CONTRACTS §3)")
    rule = serializers.CharField(help_text="the rulebook section it rests on")
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    evidence = serializers.DictField(help_text="exact probabilities and figures from simulated games")
    suggestions = DoctorSuggestionSerializer(many=True)
    severity = serializers.ChoiceField(choices=["error", "warning", "info"])


class DoctorSampleSerializer(serializers.Serializer):
    source = serializers.CharField(help_text="goldfish or versus")
    games = serializers.IntegerField()
    mean_rounds = serializers.FloatField(allow_null=True)
    note = serializers.CharField()


class DoctorReportSerializer(serializers.Serializer):
    """The object `manage.py doctor --json` prints (CONTRACTS §3)."""

    deck = serializers.DictField(help_text="name, game, hash, legal, cards and the deck's identity")
    findings = DoctorFindingSerializer(many=True)
    samples = DoctorSampleSerializer(many=True, help_text="the simulated games the findings read")


class ValidateRequestSerializer(serializers.Serializer):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                 help_text=f"Decklist text (CONTRACTS §2), at most {MAX_TEXT_CHARS:,} characters")
    format = serializers.CharField(required=False, help_text="Slug of a format; leave it out for the active one "
                                                             "(null or an empty string is a 400)")


class CardCountsField(serializers.DictField):
    """card code -> number of copies. JSON: an object. A form (multipart or urlencoded) body sends one field per
    card, `cards.CODE=N`; a plain `cards` form value is refused (400), never read as "no cards" — DRF's DictField
    would take it as an empty object, which replaced a whole collection or emptied a deck."""

    default_error_messages = {
        "not_a_dict": "Expected an object of card code -> number of copies, not {input_type}"
                      " (in a form: one field cards.CODE=N per card).",
    }

    def __init__(self, *, max_count: int = 99, **kwargs):
        kwargs.setdefault("child", serializers.IntegerField(min_value=0, max_value=max_count))
        super().__init__(**kwargs)

    def get_value(self, dictionary):
        if html.is_html_input(dictionary) and self.field_name in dictionary:
            return dictionary.get(self.field_name)  # a plain form value: not an object, refused below
        return super().get_value(dictionary)

    def run_child_validation(self, data):
        try:
            return super().run_child_validation(data)
        except ValidationError as e:  # {"code": ["message"]} -> ["code: message"], readable in the 400's detail
            detail = e.detail if isinstance(e.detail, dict) else {"": e.detail}
            raise ValidationError([f"{str(code)[:40]}: {' '.join(str(m) for m in messages)}"
                                   for code, messages in detail.items()]) from e


class OptionalBooleanField(serializers.BooleanField):
    """A boolean that is absent when a form body leaves it out (DRF reads a missing form checkbox as false, which
    made a private deck public when a form-encoded save did not mention is_private)."""

    default_empty_html = empty


class DeckSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    owner = serializers.CharField(source="owner.username", read_only=True)
    faction = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)  # none yet: null
    destiny = serializers.SlugRelatedField(slug_field="code", read_only=True, allow_null=True)
    cards = serializers.SerializerMethodField(help_text="card code -> count")

    class Meta:
        model = Deck
        fields = ["id", "url", "owner", "name", "faction", "destiny", "notes", "tags", "is_private", "cards",
                  "content_hash", "version", "created_at", "updated_at"]
        read_only_fields = fields

    def get_url(self, deck) -> str:
        return f"/api/decks/{deck.pk}/"

    def get_cards(self, deck) -> dict[str, int]:
        return deck.counts


class DeckDetailSerializer(DeckSerializer):
    verdict = serializers.SerializerMethodField()
    unknown_cards = serializers.SerializerMethodField(help_text="Codes no longer in the catalogue")

    class Meta(DeckSerializer.Meta):
        fields = DeckSerializer.Meta.fields + ["verdict", "unknown_cards"]
        read_only_fields = fields

    @extend_schema_field(VerdictSerializer)
    def get_verdict(self, deck) -> dict:
        return check_deck(deck.counts, self.context["pool"], self.context.get("format")).to_json()

    def get_unknown_cards(self, deck) -> list[str]:
        pool = self.context["pool"]
        return [code for code in deck.counts if pool.get(code) is None]


class DeckWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    cards = CardCountsField(required=False, help_text="card code -> count (0 removes the card)")
    text = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False,
                                 help_text="Decklist text instead of `cards` (CONTRACTS §2)")
    notes = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, max_length=20_000)
    tags = serializers.ListField(child=serializers.CharField(max_length=40), required=False, max_length=20)
    is_private = OptionalBooleanField(required=False, help_text="Absent: private for a new deck, unchanged on a save")
    base_version = serializers.IntegerField(required=False, min_value=1,
                                            help_text="The version the editor started from (conflict detection)")

    def validate_text(self, value):
        if len(value) > MAX_TEXT_CHARS:
            raise ValidationError(f"The decklist is too long: {len(value):,} characters, at most {MAX_TEXT_CHARS:,}.")
        return value

    def validate(self, attrs):
        if "cards" in attrs and "text" in attrs:
            raise ValidationError("Give either `cards` or `text`, not both.")
        return attrs


class DeckVersionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    notes = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    cards = serializers.DictField(child=serializers.IntegerField())
    content_hash = serializers.CharField()
    based_on = serializers.IntegerField(allow_null=True)
    restored_from = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    changes = serializers.DictField(child=serializers.DictField(child=serializers.IntegerField()),
                                    help_text="Cards added and removed since the previous version")


class SaveResponseSerializer(DeckDetailSerializer):
    conflict = serializers.SerializerMethodField(help_text="True when another save came in after base_version; "
                                                           "both saves are kept as versions")

    class Meta(DeckDetailSerializer.Meta):
        fields = DeckDetailSerializer.Meta.fields + ["conflict"]
        read_only_fields = fields

    def get_conflict(self, deck) -> bool:
        return bool(self.context.get("conflict"))


def _problems_detail(exc: DeckInputError) -> dict:
    data = {"detail": exc.message}
    if exc.problems:
        data["problems"] = [p.to_json() for p in exc.problems]
    return data


def _posted_decklist(request) -> tuple:
    """(the request's data, its decklist text) for the endpoints that read posted text (validate, doctor): JSON
    `{"text": ...}`, a form, or the raw text/plain body; a 400 saying what to send otherwise."""
    try:
        data = request.data
    except UnsupportedMediaType as e:
        raise ValidationError({"detail": f"Send the decklist as JSON {{\"text\": \"...\"}} or as text/plain, "
                                         f"not {str(request.content_type)[:60]}."}) from e
    if not hasattr(data, "get"):
        raise ValidationError({"detail": 'Send a JSON object {"text": "..."}.'})
    text = data.get("text")
    if not isinstance(text, str):
        raise ValidationError({"detail": 'The field "text" (the decklist, as a string) is required.'})
    if len(text) > MAX_TEXT_CHARS:
        raise ValidationError({"detail": f"The decklist is too long: {len(text):,} characters, "
                                         f"at most {MAX_TEXT_CHARS:,}."})
    if "\x00" in text:
        raise ValidationError({"detail": "The decklist contains binary data (NUL bytes), not text."})
    return data, text


def _fmt_from_request(data):
    """The format a validation applies: the active one when `format` is left out; otherwise `format` must be the
    slug of a format (null or "" is a 400: in a verdict null means "no format", so it cannot mean "the active one")."""
    if "format" not in data:
        return format_active()
    slug = data.get("format")
    if not isinstance(slug, str) or not slug.strip():
        shown = "null" if slug is None else repr(slug)[:30]
        raise ValidationError({"detail": f"format must be the slug of a format, not {shown}; "
                                         f"leave it out to use the active format."})
    fmt = format_by_slug(slug)
    if fmt is None:
        raise ValidationError({"detail": f"No format with slug {slug[:50]!r}."})
    return fmt


class PublishRequestSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, max_length=20_000)


class DecklistSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    owner = serializers.CharField(source="owner.username", read_only=True)
    faction = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    destiny = serializers.SlugRelatedField(slug_field="code", read_only=True)
    derived_from = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)   # null: no source
    previous = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)   # null: the first one
    cards = serializers.DictField(child=serializers.IntegerField(), read_only=True)

    class Meta:
        model = Decklist
        fields = ["id", "url", "page_url", "owner", "title", "slug", "description", "faction", "destiny", "cards",
                  "content_hash", "derived_from", "previous", "like_count", "favourite_count", "published_at"]
        read_only_fields = fields

    def get_url(self, obj) -> str:
        return f"/api/decklists/{obj.pk}/"

    def get_page_url(self, obj) -> str:
        return obj.get_absolute_url()


class CommentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    decklist = serializers.IntegerField(source="decklist_id")
    author = serializers.CharField(source="author.username")
    body = serializers.CharField(help_text="Markdown, as written")
    html = serializers.SerializerMethodField(help_text="The body rendered and sanitised, as the page shows it")
    created_at = serializers.DateTimeField()
    hidden = serializers.BooleanField(help_text="Hidden by the decklist's author or staff (shown only to them and "
                                                "to the comment's writer)")

    def get_html(self, comment) -> str:
        from .markdown import render_markdown

        return render_markdown(comment.body)


class CommentWriteSerializer(serializers.Serializer):
    body = serializers.CharField(trim_whitespace=False, max_length=MAX_COMMENT_CHARS * 2,
                                 help_text=f"Markdown, at most {MAX_COMMENT_CHARS:,} characters once trimmed")


class BuildableSerializer(serializers.Serializer):
    buildable = serializers.BooleanField()
    missing = serializers.DictField(child=serializers.IntegerField(), help_text="card code -> copies lacking")


# ---- views -------------------------------------------------------------------------------------------------
class IsOwnerForWrites(permissions.BasePermission):
    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        return obj.owner_id == request.user.pk


@extend_schema(tags=["decks"])
def _other_game_list(request, view_name: str):
    """`?game=G` (CONTRACTS §7): another game's decks or decklists (decks/game_views.py); None for r1."""
    from cards.games import registry

    slug = request.query_params.get("game")
    if not slug or slug == registry.DEFAULT:
        return None
    try:
        registry.get(slug)
    except registry.UnknownGame as exc:
        return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
    from . import game_views

    return getattr(game_views, view_name)(request._request, slug)


class DeckViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.DestroyModelMixin,
                  viewsets.GenericViewSet):
    """Your decks. Private decks are visible to their owner only (another user gets 404)."""

    permission_classes = [permissions.IsAuthenticated, IsOwnerForWrites]
    serializer_class = DeckSerializer
    queryset = Deck.objects.none()

    def list(self, request, *args, **kwargs):
        other = _other_game_list(request, "api_decks")
        return other if other is not None else super().list(request, *args, **kwargs)

    def get_queryset(self):
        if self.action == "list":
            return deck_list_owned(user=self.request.user).prefetch_related("cards")
        if self.action == "undelete":
            return deck_list_deleted(user=self.request.user)
        return deck_list_visible(user=self.request.user).prefetch_related("cards")

    def get_serializer_context(self):
        context = super().get_serializer_context()
        context["pool"] = CardPool.from_db()
        context["format"] = format_active()
        return context

    def get_object(self):
        pk = self.kwargs.get("pk", "")
        if not str(pk).isdigit():
            raise Http404
        return super().get_object()

    def _owned(self) -> Deck:
        deck = self.get_object()
        if deck.owner_id != self.request.user.pk:
            raise PermissionDenied("Only the deck's owner can change it.")
        return deck

    def _saved(self, result, code=status.HTTP_200_OK) -> Response:
        context = self.get_serializer_context() | {"conflict": result.conflict}
        deck = Deck.objects.prefetch_related("cards").get(pk=result.deck.pk)
        return Response(SaveResponseSerializer(deck, context=context).data, status=code)

    @extend_schema(methods=["GET"], request=None, responses={200: OpenApiResponse(
        OpenApiTypes.OBJECT, description="account file: {format, version, exported_at, user, decks: [{name, "
        "is_private, deleted, created_at, versions: [{number, name, notes, tags, cards, based_on, restored_from, "
        "created_at}]}], collection: {code: n}, decklists: [{id, title, description, cards, published_at, "
        "source_deck (index into decks), source_version}], likes: [decklist id], favourites: [decklist id]}")})
    @extend_schema(methods=["POST"], request=OpenApiTypes.OBJECT, responses={
        201: inline_serializer("AccountImport", {"decks": serializers.ListField(child=serializers.IntegerField()),
                                                 "versions": serializers.IntegerField(),
                                                 "collection_cards": serializers.IntegerField(),
                                                 "decklists": serializers.IntegerField(),
                                                 "likes": serializers.IntegerField(),
                                                 "favourites": serializers.IntegerField(),
                                                 "missing_marks": serializers.IntegerField()}),
        400: DetailSerializer})
    @action(detail=False, methods=["get", "post"], url_path="archive", pagination_class=None)
    def archive(self, request):
        """GET: all your decks (every version, deleted ones flagged), your collection, the decklists you published
        and the ones you liked or marked as favourite, as one JSON file. POST that file back: everything is
        checked first (400 with `problems`, nothing saved), then every deck is added as a new deck with its
        versions, your published decklists are re-created (ones you still have are not doubled) and your likes
        and favourites restored on decklists that still exist; nothing you have is overwritten."""
        if request.method == "GET":
            response = Response(account_export(user=request.user))
            response["Content-Disposition"] = 'attachment; filename="reign-of-kings-account.json"'
            return response
        if len(request.body or b"") > ARCHIVE_MAX_BYTES:
            return Response({"detail": "The account file is larger than 10 MB."}, status=status.HTTP_400_BAD_REQUEST)
        try:
            summary = account_import(user=request.user, data=request.data)
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)
        return Response({"decks": [d.pk for d in summary.decks], "versions": summary.versions,
                         "collection_cards": summary.collection_cards, "decklists": summary.decklists,
                         "likes": summary.likes, "favourites": summary.favourites,
                         "missing_marks": summary.missing_marks}, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: DeckDetailSerializer, 404: DetailSerializer})
    def retrieve(self, request, *args, **kwargs):
        return Response(DeckDetailSerializer(self.get_object(), context=self.get_serializer_context()).data)

    @extend_schema(request=DeckWriteSerializer, responses={201: SaveResponseSerializer, 400: DetailSerializer})
    def create(self, request, *args, **kwargs):
        data = DeckWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            if "text" in v:
                result = deck_import_text(owner=request.user, text=v["text"], name=v.get("name", ""),
                                          notes=v.get("notes", ""), tags=v.get("tags", ()),
                                          is_private=v.get("is_private", True))
            else:
                result = deck_create(owner=request.user, name=v.get("name", ""), counts=v.get("cards", {}),
                                     notes=v.get("notes", ""), tags=v.get("tags", ()),
                                     is_private=v.get("is_private", True))
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)
        return self._saved(result, status.HTTP_201_CREATED)

    @extend_schema(request=DeckWriteSerializer,
                   responses={200: SaveResponseSerializer, 400: DetailSerializer, 403: DetailSerializer,
                              404: DetailSerializer})
    def update(self, request, *args, **kwargs):
        deck = self._owned()
        data = DeckWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            if "text" in v:
                result = deck_import_text(owner=request.user, text=v["text"], name=v.get("name"), deck=deck,
                                          notes=v.get("notes"), tags=v.get("tags"), is_private=v.get("is_private"),
                                          base_version=v.get("base_version"))
            else:
                result = deck_update(deck=deck, name=v.get("name"), counts=v.get("cards"), notes=v.get("notes"),
                                     tags=v.get("tags"), is_private=v.get("is_private"),
                                     base_version=v.get("base_version"))
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)
        return self._saved(result)

    @extend_schema(request=DeckWriteSerializer,
                   responses={200: SaveResponseSerializer, 400: DetailSerializer, 403: DetailSerializer,
                              404: DetailSerializer})
    def partial_update(self, request, *args, **kwargs):
        return self.update(request, *args, **kwargs)

    def perform_destroy(self, instance):
        if instance.owner_id != self.request.user.pk:
            raise PermissionDenied("Only the deck's owner can delete it.")
        deck_delete(deck=instance)

    @extend_schema(request=None, responses={200: DeckSerializer, 404: DetailSerializer})
    @action(detail=True, methods=["post"])
    def undelete(self, request, pk=None):
        """Undo a DELETE: the deck comes back with all its versions."""
        deck = deck_undelete(deck=self.get_object())
        return Response(DeckSerializer(deck).data)

    @extend_schema(request=None, responses={201: DeckSerializer, 404: DetailSerializer})
    @action(detail=True, methods=["post"])
    def copy(self, request, pk=None):
        """Copy this deck (yours or a public one) into a new private deck of yours."""
        result = deck_copy(deck=self.get_object(), owner=request.user)
        return Response(DeckSerializer(Deck.objects.prefetch_related("cards").get(pk=result.deck.pk)).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: DeckVersionSerializer(many=True), 404: DetailSerializer})
    @action(detail=True, methods=["get"], pagination_class=None)   # a plain array, as the schema then says
    def versions(self, request, pk=None):
        """Every saved version, newest first, with the cards added and removed by each."""
        deck = self.get_object()
        versions = list(deck_versions(deck=deck))
        rows = []
        for i, v in enumerate(versions):
            previous = versions[i + 1].cards if i + 1 < len(versions) else None
            rows.append({"number": v.number, "name": v.name, "notes": v.notes, "tags": v.tags, "cards": v.cards,
                         "content_hash": v.content_hash, "based_on": v.based_on, "restored_from": v.restored_from,
                         "created_at": v.created_at, "changes": version_changes(previous, v.cards)})
        return Response(DeckVersionSerializer(rows, many=True).data)

    @extend_schema(request=None, responses={201: SaveResponseSerializer, 400: DetailSerializer,
                                            403: DetailSerializer, 404: DetailSerializer})
    @action(detail=True, methods=["post"], url_path=r"versions/(?P<number>\d+)/restore")
    def restore(self, request, pk=None, number=None):
        """Make an old version the latest again (as a new version; nothing is lost)."""
        deck = self._owned()
        try:
            result = deck_restore_version(deck=deck, number=int(number))
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)
        return self._saved(result, status.HTTP_201_CREATED)

    @extend_schema(responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="deck_stats()"),
                              404: DetailSerializer})
    @action(detail=True, methods=["get"])
    def stats(self, request, pk=None):
        """Counts by type/faction/attribute, cost curve with Loyalty surcharge (§9.3), Power curve, icons, quest
        totals and averages, setup-placeable cards (§4)."""
        deck = self.get_object()
        return Response(deck_stats(deck.counts, CardPool.from_db()))

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["text", "json"], default="text",
                                     description="text: the canonical decklist (CONTRACTS §2); json: cards by code")],
        responses={(200, "text/plain"): OpenApiTypes.STR,
                   (200, "application/json"): inline_serializer("DeckExport", {
                       "name": serializers.CharField(), "faction": serializers.CharField(allow_null=True),
                       "destiny": serializers.CharField(allow_null=True), "content_hash": serializers.CharField(),
                       "version": serializers.IntegerField(),
                       "cards": serializers.ListField(child=inline_serializer("DeckExportCard", {
                           "code": serializers.CharField(), "count": serializers.IntegerField(),
                           "title": serializers.CharField(allow_null=True),
                           "type": serializers.CharField(allow_null=True)}))}),
                   (400, "application/json"): DetailSerializer, (404, "application/json"): DetailSerializer})
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, PlainTextRenderer],
            content_negotiation_class=ExportNegotiation)
    def export(self, request, pk=None):
        """The deck as decklist text or JSON."""
        fmt = request.query_params.get("format", "text")
        if fmt not in ("text", "json"):
            raise ValidationError({"detail": f"format must be 'text' or 'json' (left out: text), not {fmt[:20]!r}."})
        deck = self.get_object()
        pool = CardPool.from_db()
        counts = deck.counts
        filename = f"deck-{deck.pk}-v{deck.version}"
        if fmt == "text":
            response = Response(export_decklist(counts, pool, name=deck.name), content_type="text/plain; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{filename}.txt"'
            return response
        cards = []
        for code, n in counts.items():
            card = pool.get(code)
            cards.append({"code": code, "count": n, "title": None if card is None else
                          (f"{card['name']}, {card['subtitle']}" if card.get("subtitle") else card["name"]),
                          "type": None if card is None else card["type"]})
        return Response({"name": deck.name, "faction": deck.faction.slug if deck.faction else None,
                         "destiny": deck.destiny.code if deck.destiny else None, "content_hash": deck.content_hash,
                         "version": deck.version, "cards": cards})

    @extend_schema(request=PublishRequestSerializer,
                   responses={201: DecklistSerializer, 400: DetailSerializer, 403: DetailSerializer,
                              404: DetailSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Publish the deck's latest version as a public, immutable decklist (the deck must be legal)."""
        deck = self._owned()
        data = PublishRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            decklist = decklist_publish(deck=deck, title=data.validated_data["title"],
                                        description=data.validated_data.get("description", ""), fmt=format_active())
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)
        return Response(DecklistSerializer(decklist).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: BuildableSerializer, 404: DetailSerializer})
    @action(detail=True, methods=["get"])
    def buildable(self, request, pk=None):
        """The copies this deck needs beyond your collection."""
        deck = self.get_object()
        return Response(deck_buildability(deck_counts=deck.counts, user=request.user))

    @extend_schema(request=ValidateRequestSerializer,
                   responses={200: VerdictSerializer, 400: DetailSerializer},
                   description="Check decklist text (CONTRACTS §2) against §11 and the active format; no login.")
    @action(detail=False, methods=["post"], permission_classes=[permissions.AllowAny], authentication_classes=[],
            parser_classes=[SafeJSONParser, FormParser, MultiPartParser, PlainTextParser, OctetStreamParser])
    def validate(self, request):
        """The verdict of `validatedeck --json` for posted decklist text."""
        data, text = _posted_decklist(request)
        from cards.games import registry

        game = data.get("game") or request.query_params.get("game")
        if game and game != registry.DEFAULT:
            return self._validate_other_game(game, text, data)
        fmt = _fmt_from_request(data)
        verdict = check_decklist_text(text, CardPool.from_db(), fmt)
        return Response(verdict.to_json())

    @staticmethod
    def _validate_other_game(slug, text: str, data) -> Response:
        """`"game": G` (CONTRACTS §7): the game's own legality hook and formats."""
        from cards.games import registry
        from cards.selectors import game_cards

        try:
            game = registry.get(str(slug))
        except registry.UnknownGame as exc:
            raise ValidationError({"detail": str(exc)}) from None
        if not game.has("check_text"):
            raise ValidationError({"detail": f"The game {game.slug!r} has no deckbuilding to check."})
        fmt = data.get("format") or game.formats[0]
        if fmt not in game.formats:
            raise ValidationError({"detail": f'"format" must be one of {", ".join(game.formats)} for {game.slug}.'})
        return Response(game.hook("check_text")(text, game_cards(game.slug), fmt))

    @extend_schema(request=ValidateRequestSerializer,
                   responses={200: DoctorReportSerializer, 400: DetailSerializer},
                   parameters=[OpenApiParameter("game", str, description="the game (CONTRACTS §7); default r1")],
                   description="The deck doctor (CONTRACTS §3 `doctor`) for posted decklist text: findings with their "
                               "rule, evidence and suggestions (from your collection when signed in). No login; "
                               "a line that names no card is a 400 naming the line.")
    @action(detail=False, methods=["post"], permission_classes=[permissions.AllowAny], authentication_classes=[],
            parser_classes=[SafeJSONParser, FormParser, MultiPartParser, PlainTextParser, OctetStreamParser])
    def doctor(self, request):
        """`manage.py doctor --json` for posted decklist text."""
        from .doctor import DoctorInputError, diagnose_text

        data, text = _posted_decklist(request)
        game = data.get("game") or request.query_params.get("game") or None
        if game is not None and not isinstance(game, str):
            raise ValidationError({"detail": '"game" must be the slug of a game, e.g. "realms".'})
        # Anonymous as validation is (no authentication class, so no CSRF check on a read); a signed-in visitor's
        # session still says whose collection the suggestions come from.
        from django.contrib.auth import get_user
        user = get_user(request._request)
        try:
            return Response(diagnose_text(text, game_slug=game, user=user))
        except DoctorInputError as e:
            raise ValidationError({"detail": str(e)}) from None




# ---- publishing, decklists and the collection -------------------------------------------------------
DECKLIST_FILTER_LIMITS = {"faction": 16, "destiny": 32, "author": 150, "q": 500, "sort": 10}
MAX_DECKLIST_CARDS = 20
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _decklist_filters(params) -> dict:
    """The decklist browser's query parameters, read strictly (CONTRACTS §4: a bad query answers 400 and names the
    parameter). A parameter left out means no filter; one that is given must hold a value: `until=` (as an empty
    form field sends it) is a 400, like `faction=` or `card=` — an empty value used to be read silently as "no
    filter" for some parameters and as "matches nothing" for others. Nothing is truncated: a value too long is a 400."""
    from datetime import date

    filters = {}
    for key in ("faction", "destiny", "author", "q", "sort", "since", "until", "card"):
        values = params.getlist(key)
        if not values:
            continue
        if key != "card" and len(values) > 1:
            raise ValidationError({"detail": f"{key} is given {len(values)} times: give it once."})
        if key == "card" and len(values) > MAX_DECKLIST_CARDS:
            raise ValidationError({"detail": f"card is given {len(values)} times: at most {MAX_DECKLIST_CARDS}."})
        for value in values:
            if not value.strip():
                raise ValidationError({"detail": f"{key} is empty: give a value or leave the parameter out."})
            limit = 32 if key == "card" else DECKLIST_FILTER_LIMITS.get(key)
            if limit and len(value) > limit:
                raise ValidationError({"detail": f"{key} is {len(value):,} characters long: at most {limit}."})
        if key in ("since", "until"):
            value = values[0]
            try:
                if not _ISO_DAY.fullmatch(value):
                    raise ValueError
                filters[key] = date.fromisoformat(value)
            except ValueError as e:
                raise ValidationError({"detail": f"{key} must be a date YYYY-MM-DD, not {value[:20]!r}."}) from e
        elif key == "card":
            filters["cards"] = values
        else:
            filters["query" if key == "q" else key] = values[0]
    return filters


class CommentPagination(PageNumberPagination):
    page_size = 100
    max_page_size = 100


@extend_schema(tags=["decklists"])
class DecklistViewSet(viewsets.ReadOnlyModelViewSet):
    """Published decklists: public, immutable snapshots of decks."""

    serializer_class = DecklistSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    queryset = Decklist.objects.none()

    def get_queryset(self):
        from cards.search import SearchError

        if self.action != "list":
            return Decklist.objects.select_related("owner", "faction", "destiny")
        try:
            return decklist_search(user=self.request.user, **_decklist_filters(self.request.query_params))
        except (ValueError, SearchError) as e:
            raise ValidationError({"detail": str(e)}) from e

    def get_object(self):
        if not str(self.kwargs.get("pk", "")).isdigit():
            raise Http404
        return super().get_object()

    @extend_schema(parameters=[
        OpenApiParameter("faction", {"type": "string", "minLength": 1, "maxLength": 16},
                         description="faction slug; an unknown one is a 400"),
        OpenApiParameter("destiny", {"type": "string", "minLength": 1, "maxLength": 32},
                         description="destiny card code; an unknown one is a 400"),
        OpenApiParameter("card", {"type": "array", "maxItems": MAX_DECKLIST_CARDS,
                                  "items": {"type": "string", "minLength": 1, "maxLength": 32}},
                         style="form", explode=True,
                         description=f"card code the list must hold (repeatable, at most {MAX_DECKLIST_CARDS})"),
        OpenApiParameter("q", {"type": "string", "minLength": 1, "maxLength": 500},
                         description="card search (CONTRACTS §5): a card of the list matches"),
        OpenApiParameter("author", {"type": "string", "minLength": 1, "maxLength": 150}),
        OpenApiParameter("since", OpenApiTypes.DATE, description="published on or after this day (UTC)"),
        OpenApiParameter("until", OpenApiTypes.DATE, description="published on or before this day (UTC)"),
        OpenApiParameter("sort", str, enum=["date", "likes"])],
        description="Every filter is optional; one that is given must hold a value (an empty `until=` is a 400).",
        responses={200: DecklistSerializer(many=True), 400: DetailSerializer})
    def list(self, request, *args, **kwargs):
        other = _other_game_list(request, "api_decklists")
        return other if other is not None else super().list(request, *args, **kwargs)

    def _toggle(self, request, service):
        decklist = self.get_object()
        try:
            decklist = service(decklist=decklist, user=request.user, on=request.method == "POST")
        except DeckInputError as e:  # e.g. liking one's own decklist
            return Response({"detail": e.message}, status=status.HTTP_400_BAD_REQUEST)
        return Response(DecklistSerializer(decklist).data)

    @extend_schema(request=None, responses={200: DecklistSerializer, 400: DetailSerializer, 401: DetailSerializer,
                                            404: DetailSerializer})
    @action(detail=True, methods=["post", "delete"], permission_classes=[permissions.IsAuthenticated])
    def like(self, request, pk=None):
        """POST likes, DELETE takes the like back (idempotent). An author cannot like their own decklist (400)."""
        return self._toggle(request, decklist_like)

    @extend_schema(request=None, responses={200: DecklistSerializer, 401: DetailSerializer, 404: DetailSerializer})
    @action(detail=True, methods=["post", "delete"], permission_classes=[permissions.IsAuthenticated])
    def favourite(self, request, pk=None):
        return self._toggle(request, decklist_favourite)

    # ---- comments --------------------------------------------------------------------------------
    def _comment(self, comment_id):
        decklist = self.get_object()
        if not str(comment_id).isdigit() or len(str(comment_id)) > 18:
            raise Http404
        comment = decklist.comments.select_related("author", "decklist").filter(pk=int(comment_id)).first()
        if comment is None:
            raise Http404
        return comment

    @extend_schema(methods=["get"], responses={200: CommentSerializer(many=True), 404: DetailSerializer},
                   description="The decklist's comments, oldest first (paginated). Hidden ones are listed only for "
                               "the decklist's author, staff and their writer.")
    @extend_schema(methods=["post"], request=CommentWriteSerializer,
                   responses={201: CommentSerializer, 400: DetailSerializer, 401: DetailSerializer,
                              404: DetailSerializer, 429: DetailSerializer},
                   description="Comment on the decklist (signed in; at most a few comments a minute).")
    @action(detail=True, methods=["get", "post"], permission_classes=[permissions.IsAuthenticatedOrReadOnly],
            throttle_classes=[CommentRateThrottle], pagination_class=CommentPagination)
    def comments(self, request, pk=None):
        decklist = self.get_object()
        if request.method == "GET":
            qs = decklist_comments(decklist=decklist, user=request.user)
            page = self.paginate_queryset(qs)
            return self.get_paginated_response(CommentSerializer(page, many=True).data)
        data = CommentWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            comment = comment_create(decklist=decklist, author=request.user, body=data.validated_data["body"])
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)
        return Response(CommentSerializer(comment).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None, 401: DetailSerializer, 403: DetailSerializer,
                                            404: DetailSerializer},
                   parameters=[OpenApiParameter("comment_id", int, OpenApiParameter.PATH)],
                   description="Delete a comment: its writer, the decklist's author and staff may.")
    @action(detail=True, methods=["delete"], url_path=r"comments/(?P<comment_id>[^/.]+)",
            permission_classes=[permissions.IsAuthenticated])
    def comment_delete(self, request, pk=None, comment_id=None):
        comment = self._comment(comment_id)
        if not comment_can_delete(comment=comment, user=request.user):
            raise PermissionDenied("Only the comment's writer, the decklist's author and staff can delete it.")
        comment_delete(comment=comment, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: CommentSerializer, 401: DetailSerializer, 403: DetailSerializer,
                                            404: DetailSerializer},
                   parameters=[OpenApiParameter("comment_id", int, OpenApiParameter.PATH)],
                   description="POST hides the comment, DELETE shows it again: the decklist's author and staff.")
    @action(detail=True, methods=["post", "delete"], url_path=r"comments/(?P<comment_id>[^/.]+)/hide",
            permission_classes=[permissions.IsAuthenticated])
    def comment_hide(self, request, pk=None, comment_id=None):
        comment = self._comment(comment_id)
        if not comment_can_moderate(comment=comment, user=request.user):
            raise PermissionDenied("Only the decklist's author and staff can hide comments.")
        comment = comment_hide(comment=comment, by=request.user, hidden=request.method == "POST")
        return Response(CommentSerializer(comment).data)

    @extend_schema(request=None, responses={201: DeckSerializer, 401: DetailSerializer, 404: DetailSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def copy(self, request, pk=None):
        """Copy to my decks (a new private deck whose later publication links back here)."""
        result = decklist_copy(decklist=self.get_object(), owner=request.user)
        deck = Deck.objects.prefetch_related("cards").get(pk=result.deck.pk)
        return Response(DeckSerializer(deck).data, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[OpenApiParameter("format", str, enum=["text", "json"], default="text")],
                   responses={(200, "text/plain"): OpenApiTypes.STR, (200, "application/json"): DecklistSerializer,
                              (400, "application/json"): DetailSerializer})
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, PlainTextRenderer],
            content_negotiation_class=ExportNegotiation)
    def export(self, request, pk=None):
        fmt = request.query_params.get("format", "text")
        if fmt not in ("text", "json"):
            raise ValidationError({"detail": f"format must be 'text' or 'json' (left out: text), not {fmt[:20]!r}."})
        decklist = self.get_object()
        if fmt == "json":
            return Response(DecklistSerializer(decklist).data)
        response = Response(export_decklist(decklist.cards, CardPool.from_db(), name=decklist.title),
                            content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="decklist-{decklist.pk}.txt"'
        return response


class CollectionCountsSerializer(serializers.Serializer):
    cards = CardCountsField(max_count=999, help_text="card code -> copies owned (0 removes the card); in a form body "
                                                     "one field cards.CODE=N per card")


class CollectionImportSerializer(serializers.Serializer):
    csv = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                help_text="CSV with a card column (code/card/name/title) and a count column")
    replace = serializers.BooleanField(default=True, help_text="false adds to the collection instead")

    def validate_csv(self, value):
        if len(value) > 2_000_000:
            raise ValidationError("The CSV is too long (at most 2,000,000 characters).")
        return value


class CollectionSetSerializer(serializers.Serializer):
    set = serializers.CharField(max_length=32)
    copies = serializers.IntegerField(min_value=1, max_value=10, default=1)


@extend_schema(tags=["collection"])
class CollectionViewSet(viewsets.ViewSet):
    """The signed-in player's collection: copies owned per card code."""

    permission_classes = [permissions.IsAuthenticated]
    schema = ObjectListSchema()  # list answers {"cards": {...}}, not an array

    def _answer(self, counts):
        return Response({"cards": counts})

    @extend_schema(responses={200: CollectionCountsSerializer})
    def list(self, request):
        return self._answer(collection_counts(user=request.user))

    def _write(self, request, *, replace: bool):
        data = CollectionCountsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            return self._answer(collection_set(user=request.user, counts=data.validated_data["cards"],
                                               replace=replace))
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)

    @extend_schema(request=CollectionCountsSerializer, responses={200: CollectionCountsSerializer,
                                                                 400: DetailSerializer})
    @action(detail=False, methods=["put"], url_path="replace")
    def replace(self, request):
        """Make these counts the whole collection."""
        return self._write(request, replace=True)

    @extend_schema(request=CollectionCountsSerializer, responses={200: CollectionCountsSerializer,
                                                                 400: DetailSerializer})
    @action(detail=False, methods=["post"], url_path="cards")
    def cards(self, request):
        """Set the counts of these cards (0 removes one); the others stay."""
        return self._write(request, replace=False)

    @extend_schema(request=CollectionSetSerializer, responses={200: CollectionCountsSerializer,
                                                              400: DetailSerializer})
    @action(detail=False, methods=["post"])
    def sets(self, request):
        """Add whole boxes of a set."""
        data = CollectionSetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            return self._answer(collection_add_set(user=request.user, set_code=data.validated_data["set"],
                                                   copies=data.validated_data["copies"]))
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)

    @extend_schema(request=CollectionImportSerializer, responses={200: CollectionCountsSerializer,
                                                                 400: DetailSerializer})
    @action(detail=False, methods=["post"], url_path="import")
    def import_csv(self, request):
        """Import CSV; any unreadable row saves nothing and every bad row is listed in `problems`."""
        data = CollectionImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            return self._answer(collection_import_csv(user=request.user, text=data.validated_data["csv"],
                                                      replace=data.validated_data["replace"]))
        except DeckInputError as e:
            return Response(_problems_detail(e), status=status.HTTP_400_BAD_REQUEST)

    @extend_schema(parameters=[OpenApiParameter("format", str, enum=["text"], default="text",
                                                description="CSV text, the only form; any other value is a 400")],
                   responses={(200, "text/csv"): OpenApiTypes.STR, (400, "application/json"): DetailSerializer})
    @action(detail=False, methods=["get"], renderer_classes=[PlainTextRenderer, JSONRenderer],
            content_negotiation_class=ExportNegotiation)
    def export(self, request):
        """Your collection as CSV (code,title,count)."""
        fmt = request.query_params.get("format", "text")
        if fmt != "text":
            raise ValidationError({"detail": f"format must be 'text' (the CSV; left out: the same), not {fmt[:20]!r}."})
        text = export_collection_csv(collection_counts(user=request.user), CardPool.from_db())
        response = Response(text, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="collection.csv"'
        return response
