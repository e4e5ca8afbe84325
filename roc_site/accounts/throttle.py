"""Login throttling: after LOGIN_FAILURE_LIMIT failed log-ins for one username from one address within
LOGIN_FAILURE_WINDOW_S seconds, further attempts for that username from that address are refused (even with
the right password) until the window ends. Other addresses, and other usernames from the same address, are
not affected, so an attacker cannot lock a user out from elsewhere.

The counters live in Django's cache (settings.CACHES: shared by every web process). A successful log-in clears
the counter for its username and address.
"""
from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache


@dataclass(frozen=True)
class Limit:
    failures: int
    window_s: int


def current_limit() -> Limit:
    return Limit(int(settings.LOGIN_FAILURE_LIMIT), int(settings.LOGIN_FAILURE_WINDOW_S))


def client_address(request) -> str:
    # Behind a proxy, SECURE_PROXY_SSL_HEADER's proxy sets X-Forwarded-For; the right-most entry is the one
    # our own proxy added (the others are whatever the client claimed).
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "") if getattr(settings, "LOGIN_TRUST_X_FORWARDED_FOR",
                                                                        False) else ""
    if forwarded:
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.strip().lower()}\x00{address}".encode()).hexdigest()[:32]
    return f"login-failures:{digest}"


def retry_after(username: str, address: str) -> int | None:
    """Seconds until this username may try again from this address, or None if it may try now."""
    limit = current_limit()
    state = cache.get(_key(username, address))
    if not state or state["count"] < limit.failures:
        return None
    remaining = state["since"] + limit.window_s - time.time()
    return math.ceil(remaining) if remaining > 0 else None


def record_failure(username: str, address: str) -> int:
    """Count one failed log-in; returns the number of failures in the current window."""
    limit = current_limit()
    key = _key(username, address)
    now = time.time()
    state = cache.get(key)
    if not state or now - state["since"] >= limit.window_s:
        state = {"count": 0, "since": now}
    state["count"] += 1
    cache.set(key, state, timeout=max(1, int(state["since"] + limit.window_s - now)) + 1)
    return state["count"]


def record_success(username: str, address: str) -> None:
    cache.delete(_key(username, address))


def wait_message(seconds: int) -> str:
    minutes = max(1, -(-seconds // 60))
    limit = current_limit()
    return (f"Too many failed log-ins for this username from your address ({limit.failures} within "
            f"{limit.window_s // 60} minutes). Try again in {minutes} minute{'s' if minutes != 1 else ''}, "
            "or reset your password.")
