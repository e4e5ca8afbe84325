"""API-wide behaviour: every error is JSON with a `detail` message (CONTRACTS §4)."""
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ParseError):
        response.data = {"detail": f"Malformed request body: {exc.detail}"}
    elif isinstance(response.data, dict) and "detail" not in response.data:
        # Field errors: keep them, and add one readable summary line.
        parts = []
        for field, errors in response.data.items():
            msgs = errors if isinstance(errors, list) else [errors]
            parts.append(f"{field}: {' '.join(str(m) for m in msgs)}")
        response.data = {"detail": "; ".join(parts), "errors": response.data}
    elif isinstance(response.data, list):
        response.data = {"detail": " ".join(str(m) for m in response.data)}
    if response.status_code == status.HTTP_500_INTERNAL_SERVER_ERROR:  # pragma: no cover
        response.data = {"detail": "Internal error."}
    return response
