"""Tokens: created once, kept hashed, used as Bearer, listed and revoked by their owner, throttled."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from portal.models import ApiToken
from tests.api.conftest import error_of


def bearer(secret):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_token_lifecycle_create_use_revoke(engineer):
    out = io.StringIO()
    call_command("apitoken", "engineer", "--name", "lab 3 push script", stdout=out)
    secret = out.getvalue().strip()
    token = ApiToken.objects.get()
    # Printed once, stored only as a digest.
    assert secret.startswith("abt_") and len(secret) > 40
    assert token.digest != secret and secret not in str(ApiToken.objects.values().get())
    assert (token.name, token.user, token.last_used_at) == ("lab 3 push script", engineer, None)

    assert bearer(secret).get("/api/v1/systems/").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None

    page = Client()
    page.force_login(engineer)
    listed = page.get("/accounts/tokens/").content.decode()
    assert "lab 3 push script" in listed and token.prefix in listed and secret not in listed
    revoked = page.post(f"/accounts/tokens/{token.id}/revoke", follow=True)
    assert "The token is revoked" in revoked.content.decode()

    refused = bearer(secret).get("/api/v1/systems/")
    assert refused.status_code == 401
    assert error_of(refused)["message"] == "Invalid or revoked token."
    assert refused["WWW-Authenticate"] == 'Bearer realm="api"'


def test_token_page_shows_a_new_token_once_and_only_its_owner_revokes_it(engineer):
    page = Client()
    page.force_login(engineer)
    created = page.post("/accounts/tokens/", {"name": "nightly fio"}).content.decode()
    token = ApiToken.objects.get(name="nightly fio")
    secret = created.split('<code class="token">')[1].split("</code>")[0]
    assert bearer(secret).get("/api/v1/runs/").status_code == 200
    assert secret not in page.get("/accounts/tokens/").content.decode()

    other = Client()
    other.force_login(get_user_model().objects.create_user("intruder"))
    assert other.post(f"/accounts/tokens/{token.id}/revoke").status_code == 404
    assert ApiToken.objects.filter(id=token.id).exists()
    assert Client().get("/accounts/tokens/").status_code == 302  # sign in first


def test_admin_lists_tokens_with_their_last_use(engineer, token):
    bearer(token).get("/api/v1/systems/")
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("root", password="x"))
    listing = admin.get("/admin/portal/apitoken/").content.decode()
    assert "lab 3 push script" in listing and "engineer" in listing
    assert token not in listing


def test_apitoken_needs_a_known_user(db):
    with pytest.raises(CommandError, match="no user named 'nobody'"):
        call_command("apitoken", "nobody")


def test_a_browser_session_works_with_csrf(engineer):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(engineer)
    assert browser.get("/api/v1/uploads/").status_code == 200
    refused = browser.post("/api/v1/uploads/", {"drive_count": "14"})
    assert refused.status_code == 403
    assert "CSRF" in error_of(refused)["message"]
    anonymous = APIClient().post("/api/v1/uploads/", {"drive_count": "14"})
    assert anonymous.status_code == 401


def test_requests_per_token_are_limited_with_retry_after(settings, api):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "user": "2/minute"}
    assert [api.get("/api/v1/systems/").status_code for _ in range(2)] == [200, 200]
    limited = api.get("/api/v1/systems/")
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= 60
    assert "throttled" in error_of(limited)["message"]


def test_uploads_are_limited_per_user(settings, api):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "uploads": "1/hour"}
    assert api.post("/api/v1/uploads/", {}).status_code == 400  # counted, though nothing was sent
    limited = api.post("/api/v1/uploads/", {})
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 60
