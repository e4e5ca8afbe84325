"""gunicorn settings for production; every value can be overridden with GUNICORN_* environment variables."""
import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# 2 x CPUs + 1 gthread workers of 2 threads. On 2 cores, the cached card search under 50 connections
# (scripts/load/sweep.py, docs/performance.md "Load test") showed no setting among 2-5 workers x 1-4 threads,
# gthread or sync, better than another beyond the run-to-run noise of that shared machine, so this stays.
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
accesslog = os.environ.get("GUNICORN_ACCESSLOG")  # e.g. "-" for stdout
raw_env = [f"DJANGO_SETTINGS_MODULE={os.environ.get('DJANGO_SETTINGS_MODULE', 'roc_site.settings.production')}"]

# The application is imported once in the master and forked (less memory; a restarted worker is ready sooner).
# Django opens database connections lazily, per process, so none is shared across the fork.
preload_app = os.environ.get("GUNICORN_PRELOAD", "1") == "1"
# Recycling workers bounds slow memory growth; each fresh worker is warmed up before it takes traffic (below).
# A worker stayed at ~100 MB over 70,000 requests of the load test, while a recycle costs a fork and a warm-up:
# at 20,000, cached card searches (~600 requests/s per worker) recycled every worker every half minute.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "200000"))
max_requests_jitter = max_requests // 10


def post_worker_init(worker):
    """Warm a new worker before it accepts connections: URL configuration, templates, the search grammar and
    the card pool are built on first use, which costs the first visitor about a second otherwise."""
    if os.environ.get("GUNICORN_WARMUP", "1") != "1":
        return
    import io
    import sys

    from django.conf import settings

    host = next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if h != "*"), "localhost")
    for path, query in (("/api/cards/", "q=t%3Aunit&page_size=1"), ("/cards/", ""), ("/decklists/", "")):
        environ = {
            "REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": host,
            "SERVER_PORT": "443", "HTTP_HOST": host, "HTTP_X_FORWARDED_PROTO": "https", "SERVER_PROTOCOL": "HTTP/1.1",
            "wsgi.url_scheme": "https", "wsgi.input": io.BytesIO(b""), "wsgi.errors": sys.stderr,
            "wsgi.version": (1, 0), "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
        }
        try:
            body = worker.wsgi(environ, lambda status, headers, exc_info=None: None)
            for _ in body:
                pass
            getattr(body, "close", lambda: None)()
        except Exception as exc:  # a cold worker is slower, never broken: log and serve anyway
            worker.log.warning("warm-up of %s failed: %s", path, exc)
