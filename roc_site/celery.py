"""The Celery app. Configured from Django settings (CELERY_* names only)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roc_site.settings.dev")

app = Celery("roc_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
