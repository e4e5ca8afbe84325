#!/usr/bin/env bash
# Serve the site on 127.0.0.1:8000 (PORT=8080 for another port, ROC_BIND=0.0.0.0:8000 for another address)
# together with a Celery worker; Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
"$PY" -m celery -A roc_site worker --loglevel=INFO --concurrency="${WORKER_CONCURRENCY:-2}" &
worker=$!
trap 'kill -TERM "$worker" 2>/dev/null; wait "$worker" 2>/dev/null || true' EXIT INT TERM
"$PY" manage.py runserver "${ROC_BIND:-127.0.0.1:${PORT:-8000}}"
