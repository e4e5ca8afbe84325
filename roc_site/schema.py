"""OpenAPI post-processing (drf-spectacular POSTPROCESSING_HOOKS): document the error answers every operation
can give, so the schema says what the API really does (checked by schemathesis in tests/security/test_schema.py).

Every API error is JSON `{"detail": "..."}` (CONTRACTS §4, roc_site/api.py). Any operation may answer 400 (bad
query or body), 401 (no or a revoked token) and 403 (not allowed), 404 (no such thing, or not yours), 405, 406
(a format it cannot render) and 429 (throttled). Operations that already document a code keep their own.
"""
from __future__ import annotations

from drf_spectacular.openapi import AutoSchema

ERROR_COMPONENT = "ErrorDetail"
ERROR_SCHEMA = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
STANDARD_ERRORS = {
    "400": "Bad request: the detail names the parameter or field and what was wrong.",
    "401": "Authentication needed, or the API token is invalid or revoked.",
    "403": "Not allowed (another user's deck, or a missing CSRF token with session authentication).",
    "404": "No such object, or it is another user's private one.",
    "405": "Method not allowed.",
    "406": "The requested format cannot be produced.",
    "429": "Too many requests; Retry-After says when to try again.",
}
METHODS = {"get", "post", "put", "patch", "delete"}


def add_error_responses(result, generator, request, public):
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault(ERROR_COMPONENT, ERROR_SCHEMA)
    ref = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            # An operation that can answer in another format (a deck export as text, a collection as CSV)
            # gives its errors as plain text when that format was asked for.
            ok_types = set((responses.get("200") or {}).get("content", {}))
            error_content = {"application/json": {"schema": ref}}
            if ok_types - {"application/json"}:
                error_content["text/plain"] = {"schema": {"type": "string"}}
            for code, description in STANDARD_ERRORS.items():
                if code not in responses:
                    responses[code] = {"description": description, "content": dict(error_content)}
            if "text/plain" in error_content:
                for code, response in responses.items():
                    if code.startswith("4"):
                        response.setdefault("content", {}).setdefault("text/plain", error_content["text/plain"])
    return result


class ObjectListSchema(AutoSchema):
    """For a ViewSet whose `list` answers one object (`{"count", "results"}`, `{"cards": {...}}`) rather than a
    bare array: drf-spectacular would otherwise wrap the documented response in an array."""

    def _is_list_view(self, serializer=None) -> bool:
        return False

    def get_operation_id(self) -> str:
        operation_id = super().get_operation_id()  # named as a "retrieve" once it is not a list view
        if getattr(self.view, "action", None) == "list" and operation_id.endswith("_retrieve"):
            operation_id = operation_id[: -len("_retrieve")] + "_list"
        return operation_id
