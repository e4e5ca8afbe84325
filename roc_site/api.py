"""API-wide behaviour: every error is JSON with a `detail` message (CONTRACTS §4)."""
from django.urls import NoReverseMatch
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler


def _flat(errors, where: str = "") -> list[tuple[str, list[str]]]:
    """DRF's nested field errors as (place, plain messages): {"tags": {0: [ErrorDetail(...)]}} ->
    [("tags[0]", ["Ensure this field has no more than 40 characters."])], never a repr of ErrorDetail."""
    if isinstance(errors, dict):
        out = []
        for key, value in errors.items():
            place = f"{where}[{key}]" if isinstance(key, int) else (f"{where}.{key}" if where else str(key))
            out += _flat(value, place)
        return out
    if isinstance(errors, list) and any(isinstance(e, (dict, list)) for e in errors):
        out = []
        for i, value in enumerate(errors):
            if value:   # a ListField's child errors: {} or [] for the items that were fine
                out += _flat(value, f"{where}[{i}]")
        return out
    msgs = errors if isinstance(errors, list) else [errors]
    return [(where, [str(m) for m in msgs])]


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ParseError):
        response.data = {"detail": f"Malformed request body: {exc.detail}"}
    elif isinstance(response.data, dict) and "detail" not in response.data:
        # Field errors: keep them, and add one readable summary line.
        parts = [f"{where}: {' '.join(msgs)}" for where, msgs in _flat(response.data)]
        response.data = {"detail": "; ".join(parts), "errors": response.data}
    elif isinstance(response.data, list):
        response.data = {"detail": " ".join(str(m) for m in response.data)}
    if response.status_code == status.HTTP_500_INTERNAL_SERVER_ERROR:  # pragma: no cover
        response.data = {"detail": "Internal error."}
    return response


# The API root lists every top-level endpoint (DRF's router root listed only the router it belonged to).
API_ROOT_ENDPOINTS = (
    ("cards", "card-list"), ("decks", "deck-list"), ("decklists", "decklist-list"), ("collection", "collection-list"),
    ("validate", "deck-validate"), ("doctor", "deck-doctor"), ("simulations", "simulation-list"),
    ("tuning", "tuning-list"), ("schema", "api-schema"), ("docs", "api-docs"),
)


@extend_schema(exclude=True)   # an index of the documented endpoints, not one of them
class ApiRootView(APIView):
    """The API's endpoints by name (an endpoint this build lacks is left out)."""
    permission_classes = [permissions.AllowAny]

    def get(self, request, format=None):
        out = {}
        for name, url_name in API_ROOT_ENDPOINTS:
            try:
                out[name] = reverse(url_name, request=request, format=format)
            except NoReverseMatch:
                continue
        return Response(out)
