"""Development: the embedded default (SQLite, filesystem broker), debug on, emails to the console."""
from .base import *  # noqa: F401,F403
from .env import env_bool

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = SECRET_KEY or "dev-only-insecure-key-change-me"  # noqa: F405
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
WHITENOISE_USE_FINDERS = True  # serve static/ straight from the source folders, no collectstatic needed
WHITENOISE_AUTOREFRESH = True
