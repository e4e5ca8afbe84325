"""Shared fixtures. The core card set is loaded once per test session (STYLE §12)."""
import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")
