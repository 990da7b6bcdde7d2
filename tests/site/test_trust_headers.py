"""Trust, issue #13 item 10: a Content-Security-Policy on every page, with no inline script
but the nonced import map, beside the headers the site already sent."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services

pytestmark = pytest.mark.django_db


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in header.split(";") if d.strip()}


@pytest.mark.parametrize("path", ["/en/", "/rm/rules/", "/de/accounts/login/", "/en/admin/login/"])
def test_no_content_security_policy(path):
    response = Client().get(path)
    assert response.status_code == 200
    policy = _policy(response)
    assert policy["default-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    assert "'unsafe-inline'" not in policy.get("style-src", [])
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    # The other headers stay.
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_the_tables_import_map_carries_the_policys_nonce(owner):
    room = services.create_room(owner)
    client = Client()
    client.force_login(owner)
    response = client.get(reverse("games:room", kwargs={"code": room.code}))
    html = response.content.decode()
    nonces = [s.removeprefix("'nonce-").removesuffix("'")
              for s in _policy(response)["script-src"] if s.startswith("'nonce-")]
    assert len(nonces) == 1
    inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", html)
    assert inline, "the table page has its import map"
    for attrs in inline:
        if "application/json" in attrs:
            continue  # data, never executed
        assert f'nonce="{nonces[0]}"' in attrs, attrs
