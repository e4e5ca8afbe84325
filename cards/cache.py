"""Whole-answer cache for the public card API: `GET /api/cards/?...` and `GET /api/cards/CODE/`.

Card searches are the site's busiest read and the same for every anonymous caller, so
`CardApiCacheMiddleware` keeps each JSON answer (status, headers, body) in the `"api"` cache and replays it
without reaching the session, authentication or DRF code (docs/performance.md, "Load test").

What may be served from the cache: a GET of exactly those two paths, without an `Authorization` header and
without a session cookie (so it can only be an anonymous caller), and whose `q` does not mention `owned`
(`owned:` reads the signed-in user's collection, cards/search.py; for an anonymous caller it is a 400, which
is not cached either, to keep the rule simple). Everything else goes down the normal stack untouched.

The key is everything the answer depends on: the catalogue's version stamp (below), the scheme and host
(the answer holds absolute `url`, `image_url`, `next` and `previous` links), the path, the query string
exactly as sent (no reordering: an entry is only ever replayed for an identical request), and the `Accept`
header (DRF picks JSON or the browsable HTML page from it). Stored: 200, 400 and 404 answers in JSON,
without cookies, up to MAX_BODY_BYTES. The middleware sits below the security middlewares, so the CSP,
Permissions-Policy, HSTS and the other security headers are added to a replayed answer exactly as to a fresh
one; the headers set further in (Content-Type, Content-Length, Vary, Allow, X-Frame-Options) are stored.

The catalogue version: a random stamp in the default cache (shared by every web process and management
command: files under var/cache, or Redis with CACHE_URL). Every save or delete of a Card, CardSet or Faction
through Django (loadcards, the admin, the shell) replaces it: once at the first write of a transaction and
again when that transaction commits, so no answer computed from the old catalogue is ever stored under the
new stamp. A stamp that disappears (evicted, cache cleared) is replaced by a new random one: that can only
cause misses. Catalogue changes made outside Django (SQL by hand) must call `bump_catalogue_version()`.
If the cache backend is unreachable the middleware serves every request uncached (never an error), and a
bump that fails is logged: entries then live at most the `"api"` cache's TIMEOUT.
"""
from __future__ import annotations

import hashlib
import logging
import re
import uuid

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import DisallowedHost
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.http import HttpResponse

log = logging.getLogger(__name__)

API_CACHE = "api"
VERSION_KEY = "cards:catalogue-version"
MAX_BODY_BYTES = 256 * 1024
CACHED_STATUSES = frozenset({200, 400, 404})
PATH = re.compile(r"/api/cards/(?:[^/]+/)?")


# ---- the catalogue's version stamp -------------------------------------------------------------------------
_read_since_bump = False  # this process read the stamp since it last replaced it (see catalogue_written)


def catalogue_version() -> str:
    """The current stamp (a new one if there is none yet). Raises whatever the cache backend raises."""
    global _read_since_bump
    _read_since_bump = True
    store = caches["default"]
    stamp = store.get(VERSION_KEY)
    if stamp is None:
        store.add(VERSION_KEY, uuid.uuid4().hex, timeout=None)
        stamp = store.get(VERSION_KEY)
        if stamp is None:  # evicted between the two calls, or a cache that keeps nothing
            stamp = uuid.uuid4().hex
    return stamp


def bump_catalogue_version() -> None:
    """The catalogue changed: every cached card answer is now out of date."""
    global _read_since_bump
    _read_since_bump = False
    try:
        caches["default"].set(VERSION_KEY, uuid.uuid4().hex, timeout=None)
    except Exception:  # the write itself must not fail because the cache is down
        log.exception("could not bump the card catalogue version; cached card answers may be stale for up to "
                      "the api cache's TIMEOUT")


def catalogue_written(sender=None, using: str | None = None, **kwargs) -> None:
    """post_save / post_delete receiver for Card, CardSet and Faction (connected in cards/apps.py)."""
    connection = connections[using or DEFAULT_DB_ALIAS]
    if not connection.in_atomic_block:
        bump_catalogue_version()
        return
    # Inside a transaction: bump now, so that this connection's own reads see its writes at once, and again at
    # commit, because other processes may have cached the old catalogue under the new stamp while the
    # transaction was open. A load of 20,000 cards is one transaction: one bump at commit, and one at the first
    # write and after each time this process read the stamp since (a read may have cached the half-written
    # catalogue), not one per card.
    if not any(func is bump_catalogue_version for _sids, func, _robust in connection.run_on_commit):
        transaction.on_commit(bump_catalogue_version, using=connection.alias, robust=True)
        bump_catalogue_version()
    elif _read_since_bump:
        bump_catalogue_version()


# ---- the middleware ----------------------------------------------------------------------------------------
class CardApiCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.session_cookie = settings.SESSION_COOKIE_NAME

    def __call__(self, request):
        key = self.key_for(request)
        if key is None:
            return self.get_response(request)
        try:
            store = caches[API_CACHE]
            key = "cardapi:" + hashlib.sha256(
                f"{catalogue_version()}\n{key}".encode("utf-8", "surrogatepass")).hexdigest()
            stored = store.get(key)
        except Exception:
            log.warning("card API cache unavailable; answering uncached", exc_info=True)
            return self.get_response(request)
        if stored is not None:
            status, headers, body = stored
            return HttpResponse(body, status=status, headers=headers)
        response = self.get_response(request)
        if self.storable(response):
            try:
                store.set(key, (response.status_code, dict(response.items()), response.content))
            except Exception:
                log.warning("could not store a card API answer", exc_info=True)
        return response

    def key_for(self, request) -> str | None:
        """What the answer depends on, or None when this request must not use the cache."""
        if request.method != "GET" or not PATH.fullmatch(request.path_info):
            return None
        try:
            return self._key_for(request)
        except Exception:  # e.g. too many query fields: the normal stack gives its usual answer
            return None

    def _key_for(self, request) -> str | None:
        meta = request.META
        if "HTTP_AUTHORIZATION" in meta or self.session_cookie in request.COOKIES:
            return None
        if any("owned" in q.lower() for q in request.GET.getlist("q")):
            return None
        try:
            host = request.get_host()
        except DisallowedHost:
            return None  # the normal stack answers 400
        return "\n".join((request.scheme, host, request.path, meta.get("QUERY_STRING", ""),
                          meta.get("HTTP_ACCEPT", "")))

    @staticmethod
    def storable(response) -> bool:
        return (response.status_code in CACHED_STATUSES and not response.streaming and not response.cookies
                and response.get("Content-Type", "").startswith("application/json")
                and "Cache-Control" not in response
                and len(response.content) <= MAX_BODY_BYTES)
