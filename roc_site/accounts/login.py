"""The log-in page with throttling of failed attempts (throttle.py): the form refuses early, before checking
the password, once a username+address has used up its failures; the page then answers 429."""
from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from . import throttle


class ThrottledAuthenticationForm(AuthenticationForm):
    error_messages = {**AuthenticationForm.error_messages, "throttled": "%(message)s"}
    throttled = False

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = throttle.client_address(self.request) if self.request is not None else "unknown"
        wait = throttle.retry_after(username, address)
        if wait is not None:
            self.throttled = True
            raise ValidationError(self.error_messages["throttled"], code="throttled",
                                  params={"message": throttle.wait_message(wait)})
        try:
            cleaned = super().clean()
        except ValidationError:
            if username and self.request is not None:
                throttle.record_failure(username, address)
            raise
        if self.request is not None:
            throttle.record_success(username, address)
        return cleaned


class ThrottledLoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if getattr(form, "throttled", False):
            response.status_code = 429
        return response
