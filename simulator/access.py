"""Who may see a run: one rule for every game (r1, realms, regions) and every kind of run (simulation runs, their
reports, replays and sandbox-from-replay links; tuning runs, their cells and games), pages and API alike.

- A run is private to its owner: a signed-in user, or an anonymous visitor's session (`owner_key`: a random id
  kept in the session, so it follows the visitor into their account at log-in and is never their address).
- Its owner may share it: the run gets an unguessable token and is then read, never changed, by anyone who has
  its link (`/simulate/runs/<token>/`, `/tune/runs/<token>/`, `/api/simulations/<token>/`, ... — the same
  addresses with the token where the id was). Stopping sharing forgets the token: the link is dead, and sharing
  again makes a new one.
- Ids are not a way in: `/simulate/runs/<id>/` is for its owner only. Missing and forbidden answer the same 404
  (as Zulip's access_stream_by_id), so counting ids finds nothing.
- An anonymous API client keeps no session, so it is nobody's owner: its run is shared when made, and the
  `url` it is given (the token's) is its only way back. Its address is used for limits only (`limit_key`).
"""
from __future__ import annotations

import re
import secrets

from django.db.models import Q
from django.http import Http404

from .models import SimulationRun, TuningRun

SESSION_OWNER = "run_owner"
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{16,40}")
PK_RE = re.compile(r"[0-9]{1,18}")


class RunNotFound(Http404):
    """No such run, or not this visitor's: the same answer, so that a run's existence is not revealed."""


def new_share_token() -> str:
    """An unguessable token (128 random bits), as the playtest table's; never all digits, which would read as an
    id."""
    while True:
        token = secrets.token_urlsafe(16)
        if not token.isdigit():
            return token


def owner_key(request, *, create: bool = False) -> str:
    """An anonymous web visitor's owner identity: 'o:' and a random id kept in their session ('' if they have
    none and `create` is false). A signed-in user is identified by their account instead."""
    session = getattr(request, "session", None)
    if session is None:
        return ""
    owner = session.get(SESSION_OWNER)
    if not owner and create:
        owner = session[SESSION_OWNER] = secrets.token_urlsafe(18)
    return f"o:{owner}" if owner else ""


def _owner_keys(request) -> set[str]:
    keys = {owner_key(request)} - {""}
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        keys.add("s:" + session.session_key)  # runs saved before owner ids: keyed by the session itself
    return keys


def limit_key(request, *, create: bool = False) -> str:
    """What an anonymous request's runs are stored under: its owner key, else its address — which only counts
    its runs in flight (services.limits_for) and never makes it an owner (`owns`)."""
    return owner_key(request, create=create) or "ip:" + (request.META.get("REMOTE_ADDR") or "unknown")


def owns(run, *, user=None, keys=()) -> bool:
    """Whether the signed-in `user`, or the visitor with owner `keys` (their session's: a user keeps the runs
    they made before logging in, since Django keeps the session's data then), owns `run`."""
    if user is not None and getattr(user, "is_authenticated", False) and run.user_id == user.pk:
        return True
    return run.user_id is None and bool(run.session_key) and run.session_key[:2] in ("o:", "s:") \
        and run.session_key in set(keys)


def can_own(user, key: str) -> bool:
    """Whether a requester (a user, or an anonymous one stored under `key`) can own a run."""
    return (user is not None and getattr(user, "is_authenticated", False)) or key[:2] in ("o:", "s:")


def ownerless(run) -> bool:
    """Nobody owns `run`: made by an API client without a session (shared when made) or by a command."""
    return run.user_id is None and run.session_key[:2] not in ("o:", "s:")


def request_owns(request, run) -> bool:
    return owns(run, user=getattr(request, "user", None), keys=_owner_keys(request))


def owner_filter(request) -> Q | None:
    """Query filter for the runs this visitor owns (their lists); None if they can own none."""
    user = getattr(request, "user", None)
    keys = _owner_keys(request)
    mine = Q(user__isnull=True, session_key__in=sorted(keys)) if keys else None
    if user is not None and user.is_authenticated:
        return Q(user=user) | mine if mine is not None else Q(user=user)
    return mine


def owned_runs(request, model=SimulationRun):
    owner = owner_filter(request)
    return model.objects.filter(owner) if owner is not None else model.objects.none()


def run_access(request, ref, *, model=SimulationRun, game: str | None = None, write: bool = False):
    """The run `ref` names, if this visitor may see it — the only check of runs' pages and API.

    `ref` is an id (its owner only) or a share token (anyone, read-only; `write` asks for the owner). `game`:
    the run must be of that hosted game ('' or None: any). Raises RunNotFound (a 404) otherwise, whatever the
    reason. The run comes back with `ref` (what its links use) and `viewer_owns` set."""
    ref = str(ref)
    run = None
    if PK_RE.fullmatch(ref):
        run = model.objects.filter(pk=int(ref)).first()
        if run is not None and not request_owns(request, run):
            run = None
    elif TOKEN_RE.fullmatch(ref):
        run = model.objects.filter(share_token=ref).first()
        if run is not None and write and not request_owns(request, run):
            run = None
    if run is not None and game is not None and model is SimulationRun \
            and ((run.spec or {}).get("game") or None) != (game or None):
        run = None
    if run is None:
        raise RunNotFound("No such run, or it is not shared with you.")
    run.ref = ref
    run.viewer_owns = request_owns(request, run)
    return run


def set_shared(run, shared: bool) -> None:
    """Share `run` (a new token, unless it has one) or stop sharing it (its link stops working)."""
    if shared and not run.share_token:
        run.share_token = new_share_token()
    elif not shared:
        run.share_token = None
    type(run).objects.filter(pk=run.pk).update(share_token=run.share_token)


def share_url(request, run) -> str | None:
    """The absolute shared link of `run`'s report, or None while it is not shared."""
    if not run.share_token:
        return None
    saved, run.ref = getattr(run, "_ref", None), run.share_token
    path = run.get_absolute_url()
    run.ref = saved
    return request.build_absolute_uri(path)


def api_owner_key(request) -> str:
    """The key an anonymous API request's new run is stored under: the owner id of the session it sends (a
    browser's, or a client that keeps cookies), made if that session has none yet; else its address (limits
    only). The API never starts a session of its own."""
    session = getattr(request, "session", None)
    return limit_key(request, create=bool(session is not None and session.session_key))


def reachable_by_maker(request, run):
    """A run just made (or found) for an API request: if the request does not own it (an anonymous client
    without a session), it is shared, and named by its token, so the `url` it is answered with is its way back.
    """
    if request_owns(request, run):
        run.ref = run.pk
        return run
    set_shared(run, True)
    run.ref = run.share_token
    return run


def keep_session(request, response):
    """Save the session and send its cookie even on a 5xx answer (Django's middleware saves neither then): a run
    saved while the queue was down (503) is its anonymous maker's, who must be able to come back to it."""
    from django.conf import settings

    session = getattr(request, "session", None)
    if session is None or not session.get(SESSION_OWNER) or response.status_code < 500:
        return response
    session.save()
    response.set_cookie(settings.SESSION_COOKIE_NAME, session.session_key, max_age=settings.SESSION_COOKIE_AGE,
                        domain=settings.SESSION_COOKIE_DOMAIN, path=settings.SESSION_COOKIE_PATH,
                        secure=settings.SESSION_COOKIE_SECURE or None, httponly=settings.SESSION_COOKIE_HTTPONLY or None,
                        samesite=settings.SESSION_COOKIE_SAMESITE)
    return response
