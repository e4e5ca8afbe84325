"""Throttles for the CPU-heavy simulation requests, shared by the API and the /simulate/ page.

A signed-in user is counted by user id, an anonymous visitor by address (REMOTE_ADDR, or the proxy's
X-Forwarded-For when REST_FRAMEWORK["NUM_PROXIES"] says how many proxies to trust). Rates come from
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (`simulations_user`, `simulations_anon`), read on every request so a
settings change takes effect without a restart of the class. Only starting a run counts; reading one does not.
The hosted games' run API and pages (simulator/games/) and the regions round-robin's uncached requests count on
the same counters.
"""
from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class SimulationRateThrottle(SimpleRateThrottle):
    scope = "simulations_anon"
    counts_reads = False  # a GET that starts work (the regions round-robin) counts through page_throttle(reads=True)

    def __init__(self):  # the rate depends on who asks: chosen per request in allow_request
        pass

    def _scope_for(self, request) -> str:
        user = getattr(request, "user", None)
        return "simulations_user" if user is not None and user.is_authenticated else "simulations_anon"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view):
        if request.method in ("GET", "HEAD", "OPTIONS") and not self.counts_reads:
            return True
        self.scope = self._scope_for(request)
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        ident = user.pk if user is not None and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def simulation_wait_message(wait: float | None) -> str:
    seconds = max(1, int(round(wait or 1)))
    return (f"Too many simulation requests: try again in {seconds} second{'s' if seconds != 1 else ''}. "
            "Simulations are limited per user (per address when not signed in).")


def page_throttle(request, *, reads: bool = False) -> str | None:
    """For plain Django views: None when the request may go ahead, else the message to show (answer 429).
    `reads`: count this request even if it is a GET (one that starts work on the workers)."""
    throttle = SimulationRateThrottle()
    throttle.counts_reads = reads
    if throttle.allow_request(request, None):
        return None
    return simulation_wait_message(throttle.wait())
