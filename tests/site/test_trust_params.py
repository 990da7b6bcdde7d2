"""Trust, issue #13 item 7: every numeric query or path parameter is bounded — a huge number is
a clean refusal or a 404, never a 500 from a database integer overflow."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

HUGE = str(10**30)


@pytest.fixture
def signed_in(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def test_a_page_of_ten_to_the_thirty_in_the_room_list(signed_in):
    response = signed_in.get(f"/api/rooms?page={HUGE}")
    assert response.status_code == 400
    assert response.json()["code"] == "INVALID_FIELD"
    assert signed_in.get("/api/rooms?page=100000").status_code == 200  # empty, not refused
    assert signed_in.get("/api/rooms?page=100001").status_code == 400


@pytest.mark.parametrize("path", [f"/en/matches/{HUGE}/", f"/en/matches/{HUGE}/replay.json",
                                  f"/en/matches/{HUGE}/transcript.json",
                                  "/en/matches/9223372036854775808/"])
def test_a_huge_match_id_is_a_404(signed_in, path):
    assert signed_in.get(path).status_code == 404


@pytest.mark.parametrize("path", [f"/en/matches/?page={HUGE}", f"/en/standings/?page={HUGE}",
                                  f"/en/matches/?room={HUGE}&partner={HUGE}",
                                  "/en/standings/?page=-1"])
def test_huge_page_and_filter_numbers_in_the_history_pages(signed_in, path):
    assert signed_in.get(path).status_code == 200


def test_a_deeply_nested_body_on_post_api_rooms_is_malformed(signed_in):
    body = "[" * 1000 + "]" * 1000
    response = signed_in.post("/api/rooms", '{"name": ' + body + "}",
                              content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "MALFORMED_MESSAGE"
