"""gunicorn settings for production; every value can be overridden with GUNICORN_* environment variables."""
import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = "gthread"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
max_requests = 2000
max_requests_jitter = 200
accesslog = os.environ.get("GUNICORN_ACCESSLOG")  # e.g. "-" for stdout
raw_env = [f"DJANGO_SETTINGS_MODULE={os.environ.get('DJANGO_SETTINGS_MODULE', 'roc_site.settings.production')}"]
