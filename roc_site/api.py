"""API-wide behaviour: every error is JSON with a `detail` message (CONTRACTS §4)."""
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
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
