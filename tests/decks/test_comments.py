"""Comments on published decklists: Markdown sanitised, moderation by the decklist's author and staff,
limits, the page (plain forms and htmx) and the API under /api/decklists/ID/comments/."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

from decks.models import DecklistComment
from decks.selectors import decklist_comment_counts, decklist_comments
from decks.services import (MAX_COMMENT_CHARS, CommentPermissionError, DeckInputError, comment_create,
                            comment_delete, comment_hide, deck_create, decklist_publish)

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db


@pytest.fixture
def decklist(small_catalogue, erin):
    return decklist_publish(deck=deck_create(owner=erin, name="D", counts=LEGAL_BASE).deck, title="Knights")


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("sam", password="pw-sam-12345", is_staff=True)


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


# ---- services and selectors -----------------------------------------------------------------------------------
def test_a_comment_is_kept_as_written_and_bad_ones_save_nothing(decklist, frank):
    comment = comment_create(decklist=decklist, author=frank, body="  **Nice** curve.\r\n\r\nMore dukes?  ")
    assert comment.body == "**Nice** curve.\n\nMore dukes?"
    for body, message in (("   ", "empty"), ("x" * (MAX_COMMENT_CHARS + 1), "at most 5,000"),
                          ("a\x00b", "NUL"), (None, "must be text")):
        with pytest.raises(DeckInputError, match=message):
            comment_create(decklist=decklist, author=frank, body=body)
    assert DecklistComment.objects.count() == 1


def test_hiding_is_for_the_decklists_author_and_staff_and_the_writer_still_sees_it(decklist, erin, frank, carol,
                                                                                    staff):
    from django.contrib.auth.models import AnonymousUser

    comment = comment_create(decklist=decklist, author=frank, body="spam spam")
    for outsider in (frank, carol):  # not even the writer may hide (or un-hide) a comment
        with pytest.raises(CommentPermissionError):
            comment_hide(comment=comment, by=outsider)
    comment_hide(comment=comment, by=erin)
    assert comment.hidden and comment.hidden_by == erin
    assert list(decklist_comments(decklist=decklist, user=AnonymousUser())) == []
    assert list(decklist_comments(decklist=decklist, user=carol)) == []
    for sees in (erin, frank, staff):
        assert list(decklist_comments(decklist=decklist, user=sees)) == [comment]
    assert decklist_comment_counts(decklist_ids=[decklist.pk]) == {}  # hidden ones are not counted
    comment_hide(comment=comment, by=staff, hidden=False)
    assert not comment.hidden and list(decklist_comments(decklist=decklist, user=carol)) == [comment]
    assert decklist_comment_counts(decklist_ids=[decklist.pk]) == {decklist.pk: 1}


def test_deleting_is_for_the_writer_the_decklists_author_and_staff(decklist, erin, frank, carol, staff):
    a, b, c = (comment_create(decklist=decklist, author=frank, body=f"comment {i}") for i in range(3))
    with pytest.raises(CommentPermissionError):
        comment_delete(comment=a, by=carol)
    comment_delete(comment=a, by=frank)
    comment_delete(comment=b, by=erin)
    comment_delete(comment=c, by=staff)
    assert DecklistComment.objects.count() == 0


# ---- the page ------------------------------------------------------------------------------------------------
def test_comments_show_sanitised_markdown_and_only_signed_in_players_post(client, decklist, frank):
    url = decklist.get_absolute_url()
    assert "Log in</a> to comment" in client.get(url).content.decode()
    assert client.post(f"/decklists/{decklist.pk}/comments/", {"body": "hi"}).status_code == 302  # to log in
    assert DecklistComment.objects.count() == 0
    client.force_login(frank)
    body = '**Strong** early game. <script>alert(1)</script> [rules](javascript:alert(1)) [site](https://example.com)'
    answer = client.post(f"/decklists/{decklist.pk}/comments/", {"body": body})
    comment = DecklistComment.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"{url}#comment-{comment.pk}"
    page = client.get(url).content.decode()
    assert "<strong>Strong</strong> early game." in page
    assert "<script>alert" not in page and "javascript:" not in page
    assert 'href="https://example.com" rel="nofollow noopener"' in page
    assert "Comments <small>(1)</small>" in page


def test_a_bad_comment_keeps_its_text_and_says_why(client, decklist, frank):
    client.force_login(frank)
    long = "word " * 1200
    answer = client.post(f"/decklists/{decklist.pk}/comments/", {"body": long}, follow=True)
    page = answer.content.decode()
    assert "characters long; at most 5,000" in page and long.strip()[:200] in page  # the text is back in the form
    assert DecklistComment.objects.count() == 0
    htmx = client.post(f"/decklists/{decklist.pk}/comments/", {"body": "  "}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 400 and "The comment is empty" in htmx.content.decode()
    assert htmx.content.decode().lstrip().startswith('<section class="panel comments" id="comments"')


def test_htmx_gets_the_comments_panel_back(client, decklist, frank):
    client.force_login(frank)
    answer = client.post(f"/decklists/{decklist.pk}/comments/", {"body": "Nice *list*"}, HTTP_HX_REQUEST="true")
    text = answer.content.decode()
    assert answer.status_code == 200 and "<em>list</em>" in text and "<html" not in text
    assert "HX-Request" in answer["Vary"]


def test_the_decklists_author_hides_and_deletes_from_the_page_and_others_cannot(client, decklist, erin, frank, carol):
    comment = comment_create(decklist=decklist, author=frank, body="Off-topic rant")
    hide = f"/decklists/{decklist.pk}/comments/{comment.pk}/hide/"
    delete = f"/decklists/{decklist.pk}/comments/{comment.pk}/delete/"
    client.force_login(carol)
    assert ">Hide</button>" not in client.get(decklist.get_absolute_url()).content.decode()
    assert client.post(hide).status_code == 403 and client.post(delete).status_code == 403
    client.force_login(erin)
    assert ">Hide</button>" in client.get(decklist.get_absolute_url()).content.decode()
    assert client.post(hide, {"on": "1"}).status_code == 302
    comment.refresh_from_db()
    assert comment.hidden
    assert "Hidden: only its writer" in client.get(decklist.get_absolute_url()).content.decode()
    client.force_login(carol)
    assert "Off-topic rant" not in client.get(decklist.get_absolute_url()).content.decode()
    client.force_login(erin)
    other = decklist_publish(deck=deck_create(owner=carol, name="E", counts=LEGAL_BASE).deck, title="Other")
    assert client.post(f"/decklists/{other.pk}/comments/{comment.pk}/delete/").status_code == 404  # not its list
    assert client.post(delete, HTTP_HX_REQUEST="true").status_code == 200
    assert DecklistComment.objects.count() == 0


def test_posting_comments_is_throttled_per_user_and_the_text_is_kept(client, decklist, frank, carol, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"comments_user": "2/minute"}}
    client.force_login(frank)
    for i in range(2):
        assert client.post(f"/decklists/{decklist.pk}/comments/", {"body": f"c{i}"}).status_code == 302
    third = client.post(f"/decklists/{decklist.pk}/comments/", {"body": "the third one"}, HTTP_HX_REQUEST="true")
    assert third.status_code == 429 and "commenting too fast" in third.content.decode()
    assert "the third one" in third.content.decode()
    api = APIClient()
    api.force_authenticate(frank)
    assert api.post(f"/api/decklists/{decklist.pk}/comments/", {"body": "x"}, format="json").status_code == 429
    assert api.get(f"/api/decklists/{decklist.pk}/comments/").status_code == 200  # reading is never throttled
    client.force_login(carol)  # another player has their own count
    assert client.post(f"/decklists/{decklist.pk}/comments/", {"body": "mine"}).status_code == 302
    assert DecklistComment.objects.count() == 3


def test_comments_are_paged_newest_page_first(client, decklist, frank):
    for i in range(55):
        comment_create(decklist=decklist, author=frank, body=f"comment number {i}")
    page = client.get(decklist.get_absolute_url()).content.decode()
    assert "comment number 54" in page and "comment number 4<" not in page and "Older comments" in page
    first = client.get(decklist.get_absolute_url() + "?comments=1").content.decode()
    assert "comment number 0<" in first and "comment number 54" not in first


# ---- the API --------------------------------------------------------------------------------------------------
def test_api_lists_posts_hides_and_deletes_comments(decklist, erin, frank, carol):
    anon, writer, author, other = APIClient(), APIClient(), APIClient(), APIClient()
    writer.force_authenticate(frank)
    author.force_authenticate(erin)
    other.force_authenticate(carol)
    base = f"/api/decklists/{decklist.pk}/comments/"
    assert anon.post(base, {"body": "hi"}, format="json").status_code == 401
    created = writer.post(base, {"body": "Try *two* more knights"}, format="json")
    assert created.status_code == 201, created.content
    data = created.json()
    assert data["author"] == "frank" and data["html"] == "<p>Try <em>two</em> more knights</p>"
    assert data["hidden"] is False and data["decklist"] == decklist.pk
    bad = writer.post(base, {"body": " "}, format="json")
    assert bad.status_code == 400 and "detail" in bad.json()
    assert writer.post(base, data=json.dumps({}), content_type="application/json").status_code == 400
    listed = anon.get(base).json()
    assert listed["count"] == 1 and listed["results"][0]["body"] == "Try *two* more knights"
    cid = data["id"]
    assert other.post(f"{base}{cid}/hide/").status_code == 403
    assert writer.post(f"{base}{cid}/hide/").status_code == 403
    hidden = author.post(f"{base}{cid}/hide/")
    assert hidden.status_code == 200 and hidden.json()["hidden"] is True
    assert anon.get(base).json()["count"] == 0 and writer.get(base).json()["count"] == 1
    assert author.delete(f"{base}{cid}/hide/").json()["hidden"] is False
    assert other.delete(f"{base}{cid}/").status_code == 403
    assert author.delete(f"{base}999999/").status_code == 404
    assert anon.get("/api/decklists/999999/comments/").status_code == 404
    assert writer.delete(f"{base}{cid}/").status_code == 204
    assert anon.get(base).json()["count"] == 0


def test_the_schema_documents_the_comment_operations(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/decklists/{id}/comments/"])
    assert "delete" in paths["/api/decklists/{id}/comments/{comment_id}/"]
    assert {"post", "delete"} <= set(paths["/api/decklists/{id}/comments/{comment_id}/hide/"])


def test_the_account_file_keeps_my_comments_and_importing_it_posts_nothing(decklist, frank, carol):
    from decks.services import account_export, account_import

    comment_create(decklist=decklist, author=frank, body="First!")
    data = account_export(user=frank)
    assert data["comments"] == [{"decklist": decklist.pk, "decklist_title": "Knights", "body": "First!",
                                 "created_at": data["comments"][0]["created_at"], "hidden": False}]
    account_import(user=carol, data=data)
    assert DecklistComment.objects.count() == 1


def test_staff_hide_and_show_comments_from_the_admin(client, decklist, frank):
    get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-12345")
    client.login(username="root", password="pw-root-12345")
    comment = comment_create(decklist=decklist, author=frank, body="buy cheap gold")
    listing = client.get("/admin/decks/decklistcomment/")
    assert listing.status_code == 200 and "buy cheap gold" in listing.content.decode()
    answer = client.post("/admin/decks/decklistcomment/", {"action": "hide", "_selected_action": [comment.pk]})
    assert answer.status_code == 302
    comment.refresh_from_db()
    assert comment.hidden and comment.hidden_by.username == "root"
    client.post("/admin/decks/decklistcomment/", {"action": "show", "_selected_action": [comment.pk]})
    comment.refresh_from_db()
    assert not comment.hidden
    assert client.get(f"/admin/decks/decklistcomment/{comment.pk}/change/").status_code == 200
