"""Sign-in throttling: wrong passwords lock the user name out from that address, with a clear page."""

import pytest

LOCKED = "Sign-in locked"


def sign_in(client, password, username="uploader", address="203.0.113.7"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.django_db
def test_five_wrong_passwords_lock_the_account_with_a_message(client, uploader, settings):
    settings.AXES_FAILURE_LIMIT = 5
    for _ in range(4):
        response = sign_in(client, "wrong")
        assert response.status_code == 200
        assert "did not match" in response.content.decode()
    response = sign_in(client, "wrong")
    assert response.status_code == 429
    page = response.content.decode()
    assert LOCKED in page and "after 5 failed attempts" in page and "for 15 minutes" in page
    assert "Content-Security-Policy" in response
    # Locked out, the right password does not sign in either.
    response = sign_in(client, "disk-arrays-42")
    assert response.status_code == 429 and "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_lock_holds_one_user_name_from_one_address(client, uploader, other_user):
    for _ in range(5):
        sign_in(client, "wrong")
    assert sign_in(client, "disk-arrays-42", address="198.51.100.9").status_code == 302  # another address
    client.logout()
    assert sign_in(client, "disk-arrays-42", username="reader").status_code == 302  # another user


@pytest.mark.django_db
def test_a_spoofed_forwarded_address_does_not_escape_the_lock(client, uploader):
    for index in range(5):
        client.post(
            "/accounts/login/",
            {"username": "uploader", "password": "wrong"},
            REMOTE_ADDR="203.0.113.7",
            HTTP_X_FORWARDED_FOR=f"10.0.0.{index}",
        )
    assert sign_in(client, "disk-arrays-42").status_code == 429


@pytest.mark.django_db
def test_a_good_password_before_the_limit_clears_the_failures(client, uploader):
    for _ in range(4):
        sign_in(client, "wrong")
    assert sign_in(client, "disk-arrays-42").status_code == 302
    client.logout()
    for _ in range(4):
        sign_in(client, "wrong")
    assert sign_in(client, "disk-arrays-42").status_code == 302


@pytest.mark.django_db
def test_the_admin_sign_in_is_throttled_too(client, staff):
    for password in ["wrong"] * 5 + ["disk-arrays-42"]:
        response = client.post("/admin/login/", {"username": "admin", "password": password}, REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 429 and LOCKED in response.content.decode()
