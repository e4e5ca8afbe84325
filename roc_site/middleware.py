"""Security headers Django does not set itself: a Content-Security-Policy and a Permissions-Policy.

Django's SecurityMiddleware already sends X-Content-Type-Options, Referrer-Policy, Cross-Origin-Opener-Policy
and (in production) HSTS; XFrameOptionsMiddleware sends X-Frame-Options. CSP's `frame-ancestors 'none'` says
the same as X-Frame-Options: DENY for browsers that prefer CSP.

The site's pages load every script and stylesheet from our own origin (htmx is served by django-htmx's static
files), so the policy is `default-src 'self'` with no inline script. Inline `style="..."` attributes are
allowed (`style-src-attr`): they cannot run code, and the deck stats bars are drawn with them. `<style>`
elements are not. The API docs (/api/docs/, Swagger UI) live under the same policy: their bundle comes from
drf-spectacular-sidecar's static files and their start-up script is a file of its own (roc_site/urls.py).

Settings: `CONTENT_SECURITY_POLICY` (a dict directive -> list of sources) replaces the default policy;
`CONTENT_SECURITY_POLICY_REPORT_ONLY = True` sends it as Content-Security-Policy-Report-Only (for trying a
stricter policy out in production without breaking pages).
"""
from __future__ import annotations

import logging

from django import db
from django.conf import settings
from django.http import HttpResponse, JsonResponse

DEFAULT_POLICY: dict[str, list[str]] = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "style-src-elem": ["'self'"],
    "style-src-attr": ["'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

log = logging.getLogger(__name__)

PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"


def policy_header(policy: dict[str, list[str]]) -> str:
    """`{"default-src": ["'self'"], "object-src": ["'none'"]}` -> "default-src 'self'; object-src 'none'"."""
    return "; ".join(f"{directive} {' '.join(sources)}".strip() for directive, sources in policy.items())


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        configured = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        self.default = policy_header(configured or DEFAULT_POLICY)
        self.header = ("Content-Security-Policy-Report-Only"
                       if getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", False)
                       else "Content-Security-Policy")

    def __call__(self, request):
        response = self.get_response(request)
        if self.header not in response:  # a view may set a narrower policy of its own
            response[self.header] = self.default
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        if request.path.startswith("/api/") and response.status_code in (404, 500) and \
                response.get("Content-Type", "").startswith("text/html"):
            response = self._api_error(request, response)
        return response

    def _api_error(self, request, html_response):
        """Django's HTML 404/500 pages for an /api/ URL (no route matched, or an error outside DRF) become
        JSON with a detail, as everywhere else in the API (CONTRACTS §4)."""
        if html_response.status_code == 404:
            detail = f"No API endpoint or object at {request.path}."
        else:
            detail = "Internal error."
        response = JsonResponse({"detail": detail}, status=html_response.status_code)
        for header in (self.header, "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
                       "Cross-Origin-Opener-Policy", "Strict-Transport-Security", "Vary"):
            if header in html_response:
                response[header] = html_response[header]
        response["Permissions-Policy"] = PERMISSIONS_POLICY
        return response

    def process_exception(self, request, exception):
        """The database is unreachable (restarting, failing over): 503 with Retry-After instead of a 500, so
        clients and load balancers retry; the next request opens a fresh connection (CONN_HEALTH_CHECKS)."""
        if not isinstance(exception, (db.OperationalError, db.InterfaceError)):
            return None
        log.warning("database unavailable for %s: %s", request.path, exception)
        detail = "The database is unavailable for a moment; please try again in a few seconds."
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": detail}, status=503)
        else:
            response = HttpResponse(f"<!doctype html><title>Try again shortly</title><h1>Try again shortly</h1>"
                                    f"<p>{detail}</p>", status=503)
        response["Retry-After"] = "5"
        return response
