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
