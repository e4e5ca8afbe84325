from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from .forms import SignupForm
from .services import api_token_create, api_token_revoke


def signup(request):
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Your decks are private until you publish them.")
        return redirect(request.GET.get("next") or "/decks/")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request):
    token = Token.objects.filter(user=request.user).first()
    new_token = request.session.pop("new_api_token", None)
    return render(request, "accounts/profile.html", {"token": token, "new_token": new_token})


@login_required
@require_POST
def token_create(request):
    token = api_token_create(user=request.user)
    # Shown once on the next page; afterwards only its first characters are displayed.
    request.session["new_api_token"] = token.key
    messages.success(request, "A new API token was created. Any older token no longer works.")
    return redirect("profile")


@login_required
@require_POST
def token_revoke(request):
    if api_token_revoke(user=request.user):
        messages.success(request, "Your API token was revoked; scripts using it will now be refused.")
    else:
        messages.info(request, "You had no API token.")
    return redirect("profile")
