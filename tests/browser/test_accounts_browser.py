import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_visitor_signs_up_and_sees_their_profile(live_server, page, shot):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("percival")
    page.get_by_label("Password", exact=True).fill("grail-seeker-1234")
    page.get_by_label("Password confirmation").fill("grail-seeker-1234")
    page.get_by_role("button", name="Sign up").click()
    page.goto(live_server.url + "/accounts/profile/")
    assert page.get_by_role("heading", name="percival").is_visible()
    page.get_by_role("button", name="Create token").click()
    assert page.locator("#new-token").inner_text().strip()
    shot("profile-with-token")
