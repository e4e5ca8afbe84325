"""Settings: production refuses to start without a secret, is clean under `check --deploy`, and every CELERY_*
name is one Celery knows (a typo such as CELERT_TASK_TIME_LIMIT would be silently ignored — STYLE §10)."""
import pytest
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args, env_extra):
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.mark.processes
def test_production_refuses_to_start_without_a_secret_key():
    r = _manage("check", env_extra={"DJANGO_SETTINGS_MODULE": "roc_site.settings.production"})
    assert r.returncode != 0
    assert "SECRET_KEY must be set" in r.stderr


@pytest.mark.processes
def test_production_settings_pass_check_deploy():
    r = _manage("check", "--deploy", "--fail-level", "WARNING",
                env_extra={"DJANGO_SETTINGS_MODULE": "roc_site.settings.production",
                           "SECRET_KEY": "x" * 20 + "a-long-random-production-secret-for-the-test-0123456789"})
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_celery_setting_is_a_real_celery_setting():
    from celery.app.defaults import flatten, NAMESPACES
    from django.conf import settings

    known = {key.upper() for key, _ in flatten(NAMESPACES)}
    ours = [name[len("CELERY_"):] for name in dir(settings) if name.startswith("CELERY_")]
    unknown = [n for n in ours if n not in known]
    assert not unknown, f"Celery ignores these settings: {unknown}"
