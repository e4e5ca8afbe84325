"""The API's JSON parser: DRF's, reading through roc_site.inputs.loads (size, depth and text checked once)."""
from __future__ import annotations

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class BodyTooLarge(ParseError):
    status_code = 413
    default_code = "too_large"


class SafeJSONParser(JSONParser):
    """A body nested deeper than inputs.MAX_JSON_DEPTH, or holding a NUL or a lone surrogate, is a 400 naming
    the place (e.g. `body.settings.mulligan: contains a lone surrogate`), never a RecursionError or an encoding
    error when the answer echoes it."""

    def parse(self, stream, media_type=None, parser_context=None):
        from roc_site.inputs import InputError, loads

        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1 if limit is not None else -1) if stream is not None else b""
        try:
            return loads(raw, field="", max_bytes=limit)
        except InputError as exc:
            raise (BodyTooLarge if exc.status == 413 else ParseError)(str(exc).lstrip(": ")) from None
