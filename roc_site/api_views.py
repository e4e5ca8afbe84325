"""Hand-written JSON views served through DRF, so every API of the site authenticates alike (CONTRACTS §4, §7).

The hosted games' APIs (/<game>/api/…, cards/game_views.py, decks/game_views.py, simulator/games/views.py) are
plain Django views that answer JsonResponse. Mounted with `drf_view(...)`, they run behind a DRF APIView with the
project's authentication classes (REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]: a profile-page token, or the
session): a token-authenticated script is recognised as on r1's API and needs no CSRF token, while a
session-authenticated POST must carry one (DRF's SessionAuthentication enforces it; a cross-site POST riding a
user's session cookie gets 403). Throttles are DRF's too (roc_site/throttling.py). URLs and response JSON stay
those of the plain view, which receives the underlying HttpRequest with `request.user` set by DRF.
"""
from __future__ import annotations

from django.http import QueryDict
from django.utils.datastructures import MultiValueDict
from rest_framework.permissions import AllowAny
from rest_framework.request import is_form_media_type
from rest_framework.views import APIView

_METHODS = ("get", "post", "put", "patch", "delete")


def drf_view(func, *, throttle_classes=(), authenticate: bool = True):
    """`func(request, **kwargs)` (a plain view answering JSON) behind DRF's authentication, CSRF and throttles.

    Every method goes to `func`, which answers its own 405 as before; permissions stay `func`'s own checks.
    `authenticate=False`: no user at all (so no session, no CSRF), for a check with no login and no side effect,
    as r1's /api/decks/validate/ (decks/api.py) is."""

    def handler(self, request, *args, **kwargs):
        return func(request._request, *args, **kwargs)

    def initial(self, request, *args, **kwargs):
        # `func` reads and checks the body itself, so DRF's parsers never run: the CSRF check of
        # SessionAuthentication (which reads request.POST) sees the form fields of a form post and nothing else,
        # and a cross-site text/plain post riding the session is refused 403 for its missing token, not parsed.
        django_request = request._request
        if django_request.method not in ("GET", "HEAD", "OPTIONS"):
            django_request.body  # noqa: B018  (read once, kept: `func` reads it again)
        form = is_form_media_type(request.content_type)
        request._data = request._full_data = django_request.POST if form else QueryDict()
        request._files = django_request.FILES if form else MultiValueDict()
        APIView.initial(self, request, *args, **kwargs)

    attrs = {"permission_classes": [AllowAny], "throttle_classes": list(throttle_classes), "initial": initial,
             **({} if authenticate else {"authentication_classes": []}),
             # documented beside the games (docs/games/), not in r1's OpenAPI schema
             "schema": None, "__doc__": func.__doc__, "__module__": func.__module__}
    attrs.update({method: handler for method in _METHODS})
    view = type(f"{func.__name__}_api", (APIView,), attrs)
    return view.as_view()
