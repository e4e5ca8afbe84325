"""Tests: fast hashing, emails kept in memory; the database follows DATABASE_URL like everywhere else."""
from .base import *  # noqa: F401,F403

DEBUG = False
SECRET_KEY = "test-only-key"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
ALLOWED_HOSTS = ["*"]
CARD_IMAGE_CACHE_DIR = VAR_DIR / "test-card-images"  # noqa: F405
WHITENOISE_USE_FINDERS = True  # serve static/ straight from the source folders, no collectstatic needed
WHITENOISE_AUTOREFRESH = True
# Each test process its own cache; throttles high enough that other tests never meet them (tests/security
# lowers them where it tests throttling).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "roc-tests"},
          # The card API cache keeps nothing here (tests change the catalogue inside transactions that never
          # commit); tests/cards/test_api_cache.py switches it on.
          "api": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {  # noqa: F405
    "simulations_user": "10000/minute", "simulations_anon": "10000/minute"}}
