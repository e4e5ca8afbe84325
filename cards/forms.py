"""Forms that take card illustrations: the admin's card form and a stand-alone upload form.

Both run the upload through `cards.uploads.validate_illustration`, so an invalid file is refused with a message
naming the card and the problem, and nothing is stored.
"""
from django import forms
from django.core.files.base import ContentFile
from django.db import transaction
from django.core.files.uploadedfile import UploadedFile

from .models import Card
from .uploads import IllustrationError, card_label, replace_illustration, validate_illustration

ACCEPT = "image/jpeg,image/png,image/gif,image/webp"


class IllustrationField(forms.FileField):
    """A file field that leaves the image checks to cards/uploads.py (Django's ImageField gives one vague
    message for every problem, and decodes the whole file before our size and pixel limits apply)."""

    widget = forms.ClearableFileInput(attrs={"accept": ACCEPT})


def _validated_content(upload, *, label: str, code: str) -> ContentFile:
    try:
        valid = validate_illustration(upload, card_label=label)
    except IllustrationError as exc:
        raise forms.ValidationError(str(exc), code="invalid_illustration") from exc
    return ContentFile(valid.content, name=valid.filename(code))


class CardAdminForm(forms.ModelForm):
    illustration = IllustrationField(required=False, help_text=(
        "JPEG, PNG, GIF or WebP; re-encoded on upload. Shown cover-cropped in the card image's art box."))

    class Meta:
        model = Card
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._previous_illustration = self.instance.illustration.name if self.instance.illustration else None

    def save(self, commit=True):
        card = super().save(commit)
        old = self._previous_illustration
        if old and self.cleaned_data.get("illustration") is not None and "illustration" in self.changed_data:
            # Replaced or cleared: remove the old file once the new state is committed.
            storage = card.illustration.storage
            transaction.on_commit(lambda: old != card.illustration.name and storage.delete(old))
        return card

    def clean_illustration(self):
        value = self.cleaned_data.get("illustration")
        if not isinstance(value, UploadedFile):
            return value  # unchanged (the stored file), cleared (False) or empty
        code = self.cleaned_data.get("code") or self.instance.code or "new-card"
        name = self.cleaned_data.get("name") or self.instance.name or "new card"
        subtitle = self.cleaned_data.get("subtitle") or ""
        title = f"{name}, {subtitle}" if subtitle else name
        return _validated_content(value, label=f"{title} ({code})", code=code)


class IllustrationUploadForm(forms.Form):
    """Upload a new illustration for one card (for views outside the admin)."""

    illustration = IllustrationField(required=True)

    def __init__(self, *args, card: Card, **kwargs):
        super().__init__(*args, **kwargs)
        self.card = card

    def clean_illustration(self):
        return _validated_content(self.cleaned_data["illustration"], label=card_label(self.card),
                                  code=self.card.code)

    def save(self) -> Card:
        """Store the validated illustration on the card, replacing (and deleting) the previous one."""
        content: ContentFile = self.cleaned_data["illustration"]
        replace_illustration(self.card, content.name, content.read())
        return self.card
