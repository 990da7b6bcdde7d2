"""Trust, issue #13 items 2 and 3: every way to log in is rate-limited by the same counters,
and the limiter reserves an attempt before it checks a password, so concurrency cannot buy
more guesses."""

from __future__ import annotations

import json
import secrets
import threading
from typing import Any

import pytest
from django.contrib.auth.backends import ModelBackend
from django.test import Client, RequestFactory

from games.views import api
from tests.accounts.test_flows import errors, url

pytestmark = pytest.mark.django_db


def _address() -> str:
    # Fresh counters in every run (the distributed run's cache outlives the test session).
    return f"198.18.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def test_the_admin_log_in_is_not_rate_limited(make_user, password):
    staff = make_user("keeper", is_staff=True, is_superuser=True)
    address = _address()
    client = Client()
    admin_login = "/en/admin/login/"
    for _ in range(30):
        client.post(admin_login, {"username": staff.username, "password": "guess"},
                    REMOTE_ADDR=address)
    response = client.post(admin_login, {"username": staff.username, "password": password},
                           REMOTE_ADDR=address)
    assert "_auth_user_id" not in client.session
    assert "Too many failed log-in attempts." in response.content.decode()
    # From another address the right password still works: the block is for this one.
    other = Client()
    ok = other.post(admin_login, {"username": staff.username, "password": password,
                                  "next": "/en/admin/"}, REMOTE_ADDR=_address())
    assert ok.status_code == 302 and "_auth_user_id" in other.session


def test_the_admin_log_in_failures_count_against_the_address(make_user, password):
    staff = make_user("keeper", is_staff=True)
    player = make_user("bystander")
    address = _address()
    for i in range(20):
        Client().post("/en/admin/login/", {"username": f"{staff.username}{i}",
                                           "password": "guess"}, REMOTE_ADDR=address)
    response = Client().post(url("accounts:login"), {"username": player.username,
                                                     "password": password},
                             REMOTE_ADDR=address)
    assert "Too many failed log-in attempts." in errors(response)


def test_the_log_in_limiter_races(make_user, monkeypatch):
    """25 concurrent POST /api/login for one user: at most 5 password checks (the limit)."""
    user = make_user("raced")
    address = _address()
    checks: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(25)

    def slow_check(self: Any, request: Any, username: Any = None, password: Any = None,
                   **kwargs: Any) -> None:
        with lock:
            checks.append(1)
        threading.Event().wait(0.05)  # a password hash takes time: the window of the race
        return None

    monkeypatch.setattr(ModelBackend, "authenticate", slow_check)
    codes: list[str] = []

    def attempt() -> None:
        request = RequestFactory().post(
            "/api/login", json.dumps({"username": user.username, "password": "guess"}),
            content_type="application/json", REMOTE_ADDR=address)
        start.wait(timeout=10)
        response = api.login_view(request)
        with lock:
            codes.append(json.loads(response.content)["code"])

    threads = [threading.Thread(target=attempt) for _ in range(25)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(codes) == 25
    assert len(checks) == 5
    assert codes.count("INVALID_CREDENTIALS") == 5 and codes.count("RATE_LIMITED") == 20


def test_a_new_player_stays_signed_in_after_sign_up(client):
    """The sign-up logs in through the site's one backend: the next page still knows them."""
    name = f"nova{secrets.token_hex(3)}"
    response = client.post(url("accounts:signup"), {
        "username": name, "display_name": "Nova", "preferred_language": "en",
        "password1": "table-talk-4711", "password2": "table-talk-4711"})
    assert response.status_code == 302
    assert client.get(url("games:create_room")).status_code == 200
