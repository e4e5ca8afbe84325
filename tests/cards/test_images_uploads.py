"""Illustration uploads (bad input: an invalid image): refused with a message naming the card and the
problem, nothing stored; accepted images are re-encoded without their metadata."""
from __future__ import annotations

import io
import struct
import zlib

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from cards.forms import CardAdminForm, IllustrationUploadForm
from cards.models import Card, CardSet, Faction
from cards.uploads import IllustrationError, attach_illustration, validate_illustration


def png_bytes(size=(64, 48), color=(10, 120, 200), mode="RGB") -> bytes:
    buf = io.BytesIO()
    Image.new(mode, size, color).save(buf, format="PNG")
    return buf.getvalue()


def jpeg_bytes(size=(64, 48), exif: bytes | None = None) -> bytes:
    buf = io.BytesIO()
    kwargs = {"exif": exif} if exif else {}
    Image.new("RGB", size, (200, 50, 50)).save(buf, format="JPEG", **kwargs)
    return buf.getvalue()


def png_claiming_size(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims width x height: what a decompression bomb looks like before decoding."""
    data = bytearray(png_bytes((1, 1)))
    ihdr_start = 8 + 4  # signature, then the IHDR chunk's length
    data[ihdr_start + 4:ihdr_start + 12] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[ihdr_start:ihdr_start + 4 + 13])) & 0xFFFFFFFF
    data[ihdr_start + 17:ihdr_start + 21] = struct.pack(">I", crc)
    return bytes(data)


def upload(content: bytes, name="art.png", content_type="image/png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type=content_type)


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CARD_IMAGE_CACHE_DIR = tmp_path / "cache"
    return tmp_path / "media"


@pytest.fixture
def card(db):
    card_set, _ = CardSet.objects.get_or_create(code="imgtest", defaults={"name": "Image Test Set", "position": 90})
    card = Card(code="imgtest-morgan", name="Morgan", subtitle="Queen of Air", type="unit",
                faction=Faction.objects.get(slug="lefay"), card_set=card_set, power=3)
    card.cost = 3
    card.save()
    return card


def stored_files(media) -> list:
    return [p for p in media.rglob("*") if p.is_file()] if media.exists() else []


# ---- validate_illustration -------------------------------------------------------------------------------
def test_a_valid_png_is_accepted_and_re_encoded():
    valid = validate_illustration(upload(png_bytes((64, 48))), card_label="Morgan (x)")
    assert (valid.width, valid.height) == (64, 48)
    assert valid.extension == "jpg" and valid.original_format == "PNG"
    assert Image.open(io.BytesIO(valid.content)).format == "JPEG"


def test_transparency_is_kept_as_png():
    valid = validate_illustration(upload(png_bytes(mode="RGBA", color=(1, 2, 3, 0))), card_label="Morgan (x)")
    assert valid.extension == "png"


def test_metadata_is_stripped():
    exif = Image.Exif()
    exif[0x010F] = "SecretCameraMaker"  # Make
    content = jpeg_bytes(exif=exif.tobytes())
    assert b"SecretCameraMaker" in content
    valid = validate_illustration(upload(content, "photo.jpg", "image/jpeg"), card_label="Morgan (x)")
    assert b"SecretCameraMaker" not in valid.content


def test_a_huge_picture_is_scaled_down_for_storage(settings):
    valid = validate_illustration(upload(png_bytes((3000, 1000))), card_label="Morgan (x)")
    assert max(valid.width, valid.height) == 1600


def test_not_an_image_is_refused_whatever_its_name():
    with pytest.raises(IllustrationError) as e:
        validate_illustration(upload(b"<?php echo 'hi'; ?>" * 10, "innocent.png"), card_label="Morgan (imgtest-morgan)")
    message = str(e.value)
    assert "Morgan (imgtest-morgan)" in message and "innocent.png" in message
    assert "not an image" in message


def test_an_unsupported_image_format_is_refused():
    buf = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buf, format="BMP")
    with pytest.raises(IllustrationError, match="not an image"):
        validate_illustration(upload(buf.getvalue(), "art.bmp"), card_label="Morgan")


def test_an_empty_file_is_refused():
    with pytest.raises(IllustrationError, match="empty"):
        validate_illustration(upload(b"", "art.png"), card_label="Morgan")


def test_a_file_over_the_byte_limit_is_refused(settings):
    settings.MAX_ILLUSTRATION_BYTES = 1000
    with pytest.raises(IllustrationError, match="limit is 1000 bytes"):
        validate_illustration(upload(png_bytes((64, 48)) + b"\0" * 2000), card_label="Morgan")


def test_a_picture_over_the_pixel_limit_is_refused(settings):
    settings.MAX_ILLUSTRATION_PIXELS = 1000
    with pytest.raises(IllustrationError, match="64×48 = 3,072 pixels; the limit is 1,000"):
        validate_illustration(upload(png_bytes((64, 48))), card_label="Morgan")


def test_the_pixel_limit_is_checked_from_the_header_before_decoding(settings):
    # The settings limit (16 M) is far below Pillow's own bomb threshold; this file claims 20 M pixels.
    with pytest.raises(IllustrationError, match="5000×4000"):
        validate_illustration(upload(png_claiming_size(5000, 4000)), card_label="Morgan")


def test_a_decompression_bomb_is_refused(settings):
    settings.MAX_ILLUSTRATION_PIXELS = 10**12  # so that Pillow's own guard is what stops it
    with pytest.raises(IllustrationError, match="decompression bomb"):
        validate_illustration(upload(png_claiming_size(30000, 30000)), card_label="Morgan")


def test_pillow_bomb_warning_range_is_refused_too(settings):
    """Between Pillow's MAX_IMAGE_PIXELS and twice that, Pillow only warns; the upload check treats it as a bomb."""
    settings.MAX_ILLUSTRATION_PIXELS = 10**12
    side = int((Image.MAX_IMAGE_PIXELS * 1.5) ** 0.5)
    with pytest.raises(IllustrationError, match="decompression bomb"):
        validate_illustration(upload(png_claiming_size(side, side)), card_label="Morgan")


def test_a_truncated_file_is_refused():
    whole = jpeg_bytes((400, 300))
    with pytest.raises(IllustrationError, match="truncated|damaged|cannot be read"):
        validate_illustration(upload(whole[: len(whole) // 2], "cut.jpg", "image/jpeg"), card_label="Morgan")
    png = png_bytes((300, 300), color=(1, 2, 3))
    with pytest.raises(IllustrationError, match="truncated|damaged|cannot be read"):
        validate_illustration(upload(png[:-30]), card_label="Morgan")


# ---- storing: nothing on error ---------------------------------------------------------------------------
def test_attach_illustration_stores_the_re_encoded_file(media, card):
    attach_illustration(card, upload(png_bytes()))
    card.refresh_from_db()
    assert card.illustration.name.startswith("illustrations/imgtest-morgan-")
    assert card.illustration.name.endswith(".jpg")
    assert len(stored_files(media)) == 1


def test_replacing_an_illustration_deletes_the_old_file(media, card):
    attach_illustration(card, upload(png_bytes(color=(1, 1, 1))))
    first = card.illustration.name
    attach_illustration(card, upload(png_bytes(color=(250, 250, 250))))
    assert card.illustration.name != first
    assert len(stored_files(media)) == 1


def test_a_refused_upload_stores_nothing_and_keeps_the_old_illustration(media, card):
    attach_illustration(card, upload(png_bytes()))
    before = card.illustration.name
    with pytest.raises(IllustrationError, match="Morgan, Queen of Air"):
        attach_illustration(card, upload(b"not an image at all"))
    card.refresh_from_db()
    assert card.illustration.name == before
    assert len(stored_files(media)) == 1


# ---- forms -----------------------------------------------------------------------------------------------
def test_upload_form_error_names_the_card_and_stores_nothing(media, card):
    form = IllustrationUploadForm(files={"illustration": upload(b"GIF89a broken")}, card=card)
    assert not form.is_valid()
    assert "Morgan, Queen of Air (imgtest-morgan)" in form.errors["illustration"][0]
    assert stored_files(media) == []


def test_upload_form_saves_a_valid_image(media, card):
    form = IllustrationUploadForm(files={"illustration": upload(png_bytes())}, card=card)
    assert form.is_valid(), form.errors
    form.save()
    card.refresh_from_db()
    assert card.illustration and len(stored_files(media)) == 1


def _admin_post_data(card) -> dict:
    return {"code": card.code, "name": card.name, "subtitle": card.subtitle or "", "type": card.type,
            "faction": card.faction_id, "card_set": card.card_set_id, "cost_kind": card.cost_kind,
            "cost_value": card.cost_value, "power": card.power or "", "attributes": "[]", "keywords": "[]",
            "text": card.text, "unique": "", "loyalty": ""}


def test_admin_form_refuses_a_bad_illustration(media, card):
    form = CardAdminForm(data=_admin_post_data(card), files={"illustration": upload(b"nope", "x.png")},
                         instance=card)
    assert not form.is_valid()
    assert "Morgan, Queen of Air (imgtest-morgan)" in form.errors["illustration"][0]


def test_admin_upload_through_the_change_page(media, card, django_capture_on_commit_callbacks):
    admin = get_user_model().objects.create_superuser("imgadmin", "a@example.com", "pw-imgadmin-123")
    client = Client()
    client.force_login(admin)
    url = f"/admin/cards/card/{card.pk}/change/"
    data = _admin_post_data(card)

    bad = client.post(url, {**data, "illustration": upload(png_claiming_size(30000, 30000))})
    assert bad.status_code == 200  # the form again, with the error
    assert "Morgan, Queen of Air (imgtest-morgan)" in bad.content.decode()
    assert stored_files(media) == []

    good = client.post(url, {**data, "illustration": upload(png_bytes())})
    assert good.status_code == 302, good.content.decode()[:2000]
    card.refresh_from_db()
    assert card.illustration.name.endswith(".jpg")
    assert len(stored_files(media)) == 1

    # A replacement removes the old file once saved; clearing removes the file too.
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(url, {**data, "illustration": upload(png_bytes(color=(9, 9, 9)))})
    assert again.status_code == 302
    card.refresh_from_db()
    assert [p.name for p in stored_files(media)] == [card.illustration.name.split("/")[-1]]
    with django_capture_on_commit_callbacks(execute=True):
        cleared = client.post(url, {**data, "illustration-clear": "on"})
    assert cleared.status_code == 302
    card.refresh_from_db()
    assert not card.illustration and stored_files(media) == []
