"""Validation of card illustration uploads (bad input: an invalid image).

`validate_illustration(upload, card_label=...)` reads an uploaded file and either returns a re-encoded,
metadata-free image ready to store, or raises `IllustrationError` naming the card and the problem. Nothing is
written anywhere while validating, so a refused upload stores nothing.

The checks, in order: the byte limit (`settings.MAX_ILLUSTRATION_BYTES`) before the file is read in full; the
real content identified by Pillow from its bytes (the name and the declared content type are ignored); the
pixel limit (`settings.MAX_ILLUSTRATION_PIXELS`) from the header, before any pixel is decoded; Pillow's own
decompression-bomb guard (`Image.MAX_IMAGE_PIXELS`, with its warning treated as an error); `verify()` for
structural damage; then a full decode, which catches a truncated file. The image is then re-encoded as JPEG
(or PNG when it has transparency), so no original bytes — and no metadata — are ever stored or served.
"""
from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

# Formats a browser can produce; anything else (PSD, TIFF, EPS, ...) is refused even if Pillow could read it.
ALLOWED_FORMATS = ("JPEG", "PNG", "GIF", "WEBP")
# Illustrations are shown at most 912x530 (the large card image's art box); more is wasted storage.
MAX_STORED_SIDE = 1600


class IllustrationError(ValueError):
    """An upload that is not a usable illustration. The message names the card and the problem."""


@dataclass(frozen=True)
class ValidatedIllustration:
    content: bytes
    extension: str  # "jpg" or "png"
    width: int
    height: int
    original_format: str

    def filename(self, code: str) -> str:
        # The name carries a content hash so that a new picture changes the card's image cache key.
        digest = hashlib.sha256(self.content).hexdigest()[:12]
        return f"{code}-{digest}.{self.extension}"


def _limits() -> tuple[int, int]:
    from django.conf import settings

    return int(settings.MAX_ILLUSTRATION_BYTES), int(settings.MAX_ILLUSTRATION_PIXELS)


def _human_bytes(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.0f} KB"
    return f"{n} bytes"


def read_upload(upload, max_bytes: int) -> bytes:
    """The upload's bytes, refusing before reading everything when it is over the limit."""
    size = getattr(upload, "size", None)
    if size is not None and size > max_bytes:
        raise ValueError(f"the file is {_human_bytes(size)}; the limit is {_human_bytes(max_bytes)}")
    if hasattr(upload, "seek"):
        upload.seek(0)
    data = upload.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise ValueError(f"the file is larger than the limit of {_human_bytes(max_bytes)}")
    return data


def open_image_safely(data: bytes, *, max_pixels: int | None = None) -> Image.Image:
    """Decode image bytes with every guard on, or raise ValueError saying what is wrong. Returns a loaded image."""
    if not data:
        raise ValueError("the file is empty")
    with warnings.catch_warnings():
        # Pillow warns between MAX_IMAGE_PIXELS and twice that; treat the warning as the error it guards against.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            probe = Image.open(io.BytesIO(data), formats=ALLOWED_FORMATS)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ValueError(f"the image is a decompression bomb (its header claims a huge size): {exc}") from exc
        except UnidentifiedImageError as exc:
            raise ValueError("the file is not an image (JPEG, PNG, GIF or WebP); its content was checked, "
                             "not its name") from exc
        except (OSError, SyntaxError) as exc:
            raise ValueError(f"the image cannot be read: {exc}") from exc
        width, height = probe.size
        if width < 1 or height < 1:
            raise ValueError("the image has no pixels")
        if max_pixels is not None and width * height > max_pixels:
            raise ValueError(f"the image is {width}×{height} = {width * height:,} pixels; "
                             f"the limit is {max_pixels:,} pixels")
        try:
            probe.verify()
        except Exception as exc:  # noqa: BLE001 - verify() raises many kinds for damaged files
            raise ValueError(f"the image is damaged: {exc}") from exc
        # verify() leaves the image unusable; decode it again, in full, to catch truncation.
        try:
            image = Image.open(io.BytesIO(data), formats=ALLOWED_FORMATS)
            image.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ValueError(f"the image is a decompression bomb: {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - truncated or corrupt data
            raise ValueError(f"the image is truncated or damaged: {exc}") from exc
    return image


def validate_illustration(upload, *, card_label: str) -> ValidatedIllustration:
    """Check an uploaded illustration and re-encode it. Raises IllustrationError naming the card and problem."""
    max_bytes, max_pixels = _limits()
    try:
        data = read_upload(upload, max_bytes)
        image = open_image_safely(data, max_pixels=max_pixels)
        original_format = image.format or "?"
        image = ImageOps.exif_transpose(image)  # respect the camera's orientation before stripping metadata
        has_alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
        image = image.convert("RGBA" if has_alpha else "RGB")
        image.thumbnail((MAX_STORED_SIDE, MAX_STORED_SIDE), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        if has_alpha:
            image.save(out, format="PNG", optimize=True)
            extension = "png"
        else:
            image.save(out, format="JPEG", quality=90, optimize=True)
            extension = "jpg"
    except ValueError as exc:
        name = getattr(upload, "name", None) or "upload"
        raise IllustrationError(f"Illustration for {card_label} ({name}): {exc}.") from exc
    return ValidatedIllustration(out.getvalue(), extension, image.width, image.height, original_format)


def attach_illustration(card, upload) -> None:
    """Validate `upload` and store it as the card's illustration (a service for views and commands).

    Raises IllustrationError and changes nothing when the upload is refused.
    """
    valid = validate_illustration(upload, card_label=card_label(card))
    replace_illustration(card, valid.filename(card.code), valid.content)


def replace_illustration(card, filename: str, content: bytes) -> None:
    """Store already-validated image bytes as the card's illustration and delete the file it replaces."""
    from django.core.files.base import ContentFile

    old = card.illustration.name if card.illustration else None
    card.illustration.save(filename, ContentFile(content), save=False)
    card.save(update_fields=["illustration", "updated_at"])
    if old and old != card.illustration.name:
        card.illustration.storage.delete(old)


def card_label(card) -> str:
    """How errors name a card: 'Gawain, the Green Knight (core-12)'."""
    title = getattr(card, "title", None) or getattr(card, "name", None) or "the card"
    code = getattr(card, "code", None)
    return f"{title} ({code})" if code else str(title)
