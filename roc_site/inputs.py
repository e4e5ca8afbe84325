"""The input edge: every text and JSON document a request brings is checked here once, before a view reads it.

- `loads(raw, field)`: JSON from a request body or a form field, bounded in size and depth (a document nested
  5,000 deep made the decoder and every walk over it recurse until Python gave up: a 500), every string and key
  valid text (`check_text`). The DRF parser (roc_site/parsers.py) and the views that read JSON themselves call it.
- `check_text(value, field)`: a string holds no NUL character (PostgreSQL's text columns refuse it, and no field
  of the site means one) and only Unicode scalar values (a lone surrogate such as "\\ud800", which JSON's escapes
  can carry, cannot be encoded back into the UTF-8 of a response or the database).
- `InputGuardMiddleware`: a body over DATA_UPLOAD_MAX_MEMORY_SIZE is a 413 before anything reads it; a NUL in the
  path, a query parameter or a form field is a 400 naming it (surrogates cannot come that way: Django decodes URLs
  and forms as UTF-8 with replacement).

Every refusal is an `InputError` carrying the field it names; answered as {"detail": ...} where JSON is due
(CONTRACTS §4) and as a short page elsewhere.
"""
from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.html import escape

MAX_JSON_DEPTH = 32           # the deepest real document (an account archive) nests 6 levels
MAX_JSON_BYTES = 1_000_000    # a default for JSON read from a form field or an upload; request bodies have their own


class InputError(ValueError):
    """Input refused at the edge; `field` is what it names, `status` 400 (or 413 for too large)."""

    def __init__(self, message: str, field: str = "body", status: int = 400):
        super().__init__(message)
        self.field = field
        self.status = status


def text_problem(value: str) -> str | None:
    """What makes `value` unusable as text, or None: a NUL character or a lone surrogate (not a scalar value)."""
    at = value.find("\x00")
    if at >= 0:
        return f"contains a NUL character (\\u0000) at character {at + 1}; remove it"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (f"contains a lone surrogate (\\u{ord(value[exc.start]):04x}) at character {exc.start + 1}, which "
                "is not a Unicode character; send valid UTF-8 text")
    return None


def check_text(value: str, field: str) -> str:
    problem = text_problem(value)
    if problem:
        raise InputError(f"{field}: {problem}", field=field)
    return value


def _where(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def check_json(value: Any, field: str = "body", max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Walk a decoded document without recursion: at most `max_depth` levels, every key and string valid text.
    The message names the place, e.g. `settings.mulligan` or `decks[0].name`."""
    stack: list[tuple[Any, tuple, int]] = [(value, (field,) if field else (), 0)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, str):
            problem = text_problem(node)
            if problem:
                raise InputError(f"{_where(path)}: {problem}", field=field)
        elif isinstance(node, (dict, list)):
            if depth >= max_depth:
                raise InputError(f"{_where(path)}: nested more than {max_depth} levels deep", field=field)
            if isinstance(node, dict):
                for key, child in node.items():
                    problem = text_problem(key)
                    if problem:
                        raise InputError(f"{_where(path)}: a key {problem}", field=field)
                    stack.append((child, (*path, key), depth + 1))
            else:
                stack.extend((child, (*path, n), depth + 1) for n, child in enumerate(node))
    return value


def loads(raw: bytes | str, field: str = "body", max_bytes: int | None = MAX_JSON_BYTES,
          max_depth: int = MAX_JSON_DEPTH) -> Any:
    """JSON text (bytes as UTF-8, a BOM allowed) checked by `check_json`; InputError with a plain message for
    anything else: too large (413), not UTF-8, not JSON, nested too deep, not text."""
    size = len(raw)
    if max_bytes is not None and size > max_bytes:
        raise InputError(f"{field}: {size:,} bytes is too large; the limit is {max_bytes:,}", field=field,
                         status=413)
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InputError(f"{field}: not UTF-8 text (byte {exc.start + 1})", field=field) from None
    elif raw.startswith("\ufeff"):
        raw = raw[1:]
    _too_deep(raw, field, max_depth)
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:   # pragma: no cover - _too_deep refuses these first
        raise InputError(f"{field}: nested more than {max_depth} levels deep", field=field) from None
    except ValueError as exc:
        raise InputError(f"{field}: not JSON ({exc})", field=field) from None
    return check_json(data, field, max_depth)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _too_deep(text: str, field: str, max_depth: int) -> None:
    """Refuse a document nested deeper than `max_depth` before the decoder recurses into it: brackets outside
    strings, counted in one pass (only when the text has that many brackets at all)."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                raise InputError(f"{field}: nested more than {max_depth} levels deep", field=field)
        elif ch in "]}":
            depth -= 1


def wants_json(request) -> bool:
    """An API address, or a client asking for JSON (the realms and regions APIs live under /<game>/api/)."""
    return "/api/" in request.path or "application/json" in request.headers.get("Accept", "")


def error_response(request, exc: InputError):
    if wants_json(request):
        return JsonResponse({"detail": str(exc)}, status=exc.status)
    title = "Too large" if exc.status == 413 else "Bad request"
    try:
        from django.template.loader import render_to_string

        # the site's own page (navigation, footer), so a refused form reads like the rest of the site
        body = render_to_string("error.html", {"title": title, "message": str(exc)}, request=request)
    except Exception:   # a request too broken for the site's context processors still gets its message
        body = f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{escape(str(exc))}</p>"
    return HttpResponse(body, status=exc.status)


class InputGuardMiddleware:
    """Size, path, query and form fields of every request (see the module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            self._check(request)
        except InputError as exc:
            return error_response(request, exc)
        return self.get_response(request)

    @staticmethod
    def _check(request) -> None:
        from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
        from django.http.multipartparser import MultiPartParserError

        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            raise InputError("Malformed Content-Length header.") from None
        if limit is not None and length > limit:
            raise InputError(f"Request body too large: {length:,} bytes, the limit is {limit:,}.", status=413)
        if "\x00" in request.path:
            raise InputError("The address contains a NUL character (%00); no page or object has one.",
                             field="path")
        try:
            query = request.GET
        except TooManyFieldsSent:
            raise InputError(f"Too many query parameters: the limit is {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,}.",
                             field="query") from None
        for name, values in query.lists():
            _check_param(name, values, "query parameter")
        if request.method == "POST" and request.content_type in ("application/x-www-form-urlencoded",
                                                                  "multipart/form-data"):
            try:
                # the raw body first (bounded above): the form is then parsed from it, and a view or DRF that
                # reads request.body afterwards still can
                request.body  # noqa: B018
                fields, files = request.POST, request.FILES
            except RequestDataTooBig:
                raise InputError(f"Request body too large: the limit is {limit:,} bytes.",
                                 status=413) from None
            except (TooManyFieldsSent, TooManyFilesSent, MultiPartParserError) as exc:
                raise InputError(f"The form could not be read: {exc}") from None
            for name, values in fields.lists():
                _check_param(name, values, "field")
            for name, upload in files.items():
                _check_param(f"{name} (its file name)", [upload.name or ""], "file")


def _check_param(name: str, values: list[str], kind: str) -> None:
    if "\x00" in name:
        raise InputError(f"A {kind} name contains a NUL character (%00); remove it.", field=name)
    for value in values:
        if "\x00" in value:
            raise InputError(f"{name} contains a NUL character (%00) at character {value.index(chr(0)) + 1}; "
                             "remove it.", field=name)
