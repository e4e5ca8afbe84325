"""How often a signed-in player may post a comment, on the page and through the API alike (shared counters).

The rate is REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["comments_user"] (COMMENT_RATE_USER in the environment,
"5/minute" by default), read on every request like the simulation throttles (roc_site/throttling.py); no rate set
means no limit. Only posting a comment counts: reading, hiding and deleting do not.
"""
from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

SCOPE = "comments_user"


class CommentRateThrottle(SimpleRateThrottle):
    scope = SCOPE

    def __init__(self):  # the rate is read per request (a settings change needs no restart)
        pass

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(SCOPE)

    def allow_request(self, request, view):
        if request.method != "POST":
            return True
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        ident = user.pk if user is not None and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": SCOPE, "ident": ident}


def comment_wait_message(wait: float | None) -> str:
    seconds = max(1, int(round(wait or 1)))
    return (f"You are commenting too fast: wait {seconds} second{'s' if seconds != 1 else ''} and post again "
            "(your text is kept below).")


def comment_throttle(request) -> str | None:
    """For the page's view: None when the comment may be posted, else the message to show (answer 429)."""
    throttle = CommentRateThrottle()
    if throttle.allow_request(request, None):
        return None
    return comment_wait_message(throttle.wait())
