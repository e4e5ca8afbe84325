"""Account writes: sign-up and API tokens (revocable)."""
from django.contrib.auth.models import User
from django.db import transaction
from rest_framework.authtoken.models import Token


@transaction.atomic
def api_token_create(*, user: User) -> Token:
    """A fresh token for scripts; any previous token stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def api_token_revoke(*, user: User) -> bool:
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)
