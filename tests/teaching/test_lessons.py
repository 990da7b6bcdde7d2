"""The course (issue #28 item 1): lessons as data files, each solvable by its right moves,
wrong and illegal moves explained and changing nothing, stars by the moves needed, progress
per account and carried over from an anonymous visit, every text in every language."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from games.models import LessonProgress
from games.teaching import lessons
from games.teaching.lesson_files import LANGUAGES, ROOT, lesson, texts
from games.teaching.lesson_files import lessons as all_lessons

pytestmark = pytest.mark.django_db
FAST = override_settings(TROCCAS_HINT_BUDGET_MS=20)
STRONG = "kitchen-table-1979-Surselva"


def _post(client: Client, name: str, slug: str, body: Any) -> tuple[int, dict[str, Any]]:
    response = client.post(reverse(name, args=[slug]), json.dumps(body),
                           content_type="application/json")
    return response.status_code, response.json()


def _solve(client: Client, slug: str) -> dict[str, Any]:
    """Play the lesson to its end through the door, scene after scene; the last frame."""
    found = lesson(slug)
    assert found is not None
    frame: dict[str, Any] = {}
    for scene in range(len(found.scenes)):
        for move in lessons.solve(found, scene):
            status, frame = _post(client, "games:lesson_move", slug, move)
            assert status == 200 and frame["verdict"] == "right", frame
        if scene + 1 < len(found.scenes):
            status, frame = _post(client, "games:lesson_move", slug, {"type": "next"})
            assert status == 200 and frame["scene"] == scene + 1
    return frame


def test_the_course_has_ten_lessons_or_more_in_order() -> None:
    found = all_lessons()
    assert len(found) >= 10
    assert [x.number for x in found] == list(range(1, len(found) + 1))
    assert len({x.slug for x in found}) == len(found)


@pytest.mark.parametrize("slug", [x.slug for x in all_lessons()])
def test_every_lesson_is_finished_by_its_right_moves(slug: str) -> None:
    found = lesson(slug)
    assert found is not None
    for scene in range(len(found.scenes)):
        moves = lessons.solve(found, scene)
        assert moves
        # The position is rebuilt from the file and the moves alone, always the same.
        again = lessons.replay(found, scene, moves)
        assert again.done and again.version == lessons.replay(found, scene, moves).version


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lesson_has_every_text_in_every_language(language: str) -> None:
    for found in all_lessons():
        words = texts(found.slug, language)
        path = ROOT / language / f"{found.number:02d}-{found.slug}.toml"
        assert path.exists(), path
        missing = sorted(found.keys - {k for k, v in words.items() if v})
        assert not missing, (language, found.slug, missing)
        english = texts(found.slug, "en")
        for key, text in words.items():
            # The same placeholders (none today) and no English left untranslated.
            assert re.findall(r"%\(\w+\)s", text) == re.findall(r"%\(\w+\)s", english.get(key, ""))
            if language != "en" and len(text) > 25:
                assert text != english.get(key), (language, found.slug, key)
        intro = words["intro"]
        assert 1 <= intro.count(".") + intro.count("!") + intro.count("?") <= 4, intro


def test_a_wrong_move_is_explained_with_the_rule_and_changes_nothing(client: Client) -> None:
    slug = "cards-and-counting"
    before = client.get(reverse("games:lesson", args=[slug])).context["frame"]
    status, frame = _post(client, "games:lesson_move", slug, {"type": "play_card", "card": "SN"})
    assert status == 200 and frame["verdict"] == "wrong"
    assert "cavalier counts 3" in frame["message"]
    assert frame["rule"].endswith("#counting")
    assert frame["version"] == before["version"] and frame["wrong"] == 1 and frame["step"] == 0
    assert frame["view"] == before["view"]
    assert "SN" in frame["view"]["hand"]
    # Right at the second try: two stars, the next lesson offered, the trick's events shown.
    status, frame = _post(client, "games:lesson_move", slug, {"type": "play_card", "card": "RK"})
    assert frame["verdict"] == "right" and frame["finished"] and frame["stars"] == 2
    assert frame["next"] == reverse("games:lesson", args=["follow-suit"])
    assert any(e["type"] == "trick_won" for e in frame["events"])


def test_an_illegal_card_is_refused_with_the_players_own_cards(client: Client) -> None:
    slug = "follow-suit"
    with translation.override("de"):
        url = reverse("games:lesson_move", args=[slug])
        client.get(reverse("games:lesson", args=[slug]))
        response = client.post(url, json.dumps({"type": "play_card", "card": "T5"}),
                               content_type="application/json")
    frame = response.json()
    assert frame["verdict"] == "illegal"
    # "You hold 7 of cups and king of cups: follow cups." — in German, with the cards.
    assert "Kelche" in frame["message"] and "König" in frame["message"], frame["message"]
    assert frame["rule"].endswith("#follow-suit")
    assert frame["wrong"] == 1 and "T5" in frame["view"]["hand"]


def test_forced_buob_refuses_every_card_but_the_jack(client: Client) -> None:
    slug = "buob"
    client.get(reverse("games:lesson", args=[slug]))
    status, frame = _post(client, "games:lesson_move", slug, {"type": "play_card", "card": "S2"})
    assert frame["verdict"] == "illegal" and frame["rule"].endswith("#buob")
    assert "BUOB" in frame["message"]


def test_a_lesson_in_the_scart_refuses_an_honour(client: Client) -> None:
    slug = "scart"
    client.get(reverse("games:lesson", args=[slug]))
    status, frame = _post(client, "games:lesson_move", slug,
                          {"type": "discard_scart", "cards": ["CK", "C2"]})
    assert frame["verdict"] == "illegal" and frame["rule"].endswith("#scart")
    assert frame["view"]["phase"] == "SCART"


@pytest.mark.parametrize("body", [
    "not json", "[1, 2]", json.dumps({"type": "regame"}), json.dumps({"type": "play_card"}),
    json.dumps({"type": "play_card", "card": ["C1"]}),
    json.dumps({"type": "discard_scart", "cards": ["C1"]}),
    json.dumps({"type": "call_buob", "suit": "X"}), "[" * 50 + "]" * 50,
    json.dumps({"type": "play_card", "card": "C1", "pad": "x" * 4000}),
])
def test_bad_input_gets_a_coded_error_and_changes_nothing(client: Client, body: str) -> None:
    slug = "follow-suit"
    client.get(reverse("games:lesson", args=[slug]))
    response = client.post(reverse("games:lesson_move", args=[slug]), body,
                           content_type="application/json")
    assert response.status_code in (400, 413)
    out = response.json()
    assert out["code"] in ("MALFORMED_MESSAGE", "UNKNOWN_TYPE", "INVALID_FIELD",
                           "MESSAGE_TOO_LARGE") and out["message"]
    state = client.session["lesson_attempt"]
    assert state["moves"] == [] and state["wrong"] == 0


def test_an_unknown_lesson_is_not_found(client: Client) -> None:
    assert client.get(reverse("games:lesson", args=["no-such-lesson"])).status_code == 404
    status, out = _post(client, "games:lesson_move", "no-such-lesson", {"type": "continue"})
    assert status == 404 and out["code"] == "NOT_FOUND"


def test_a_reload_shows_the_same_table_and_restart_begins_again(client: Client) -> None:
    slug = "dealing"
    client.get(reverse("games:lesson", args=[slug]))
    _post(client, "games:lesson_move", slug, {"type": "deal_next_pass"})
    page = client.get(reverse("games:lesson", args=[slug]))
    frame = page.context["frame"]
    assert frame["step"] == 1 and len(frame["view"]["hand"]) == 6
    status, frame = _post(client, "games:lesson_restart", slug, {})
    assert frame["step"] == 0 and frame["view"]["hand"] in ([], None)


def test_the_scenes_follow_one_another_and_the_last_gives_stars(client: Client) -> None:
    slug = "who-wins"
    client.get(reverse("games:lesson", args=[slug]))
    # `next` before a scene is done changes nothing.
    status, out = _post(client, "games:lesson_move", slug, {"type": "next"})
    assert status == 400 and out["code"] == "WRONG_PHASE"
    frame = _solve(client, slug)
    assert frame["finished"] and frame["stars"] == 3 and frame["scene"] == 2


def test_progress_is_kept_per_account(client: Client, make_user: Any) -> None:
    user = make_user("lernanta")
    client.force_login(user)
    _solve(client, "cards-and-counting")
    assert LessonProgress.objects.get(user=user, lesson="cards-and-counting").stars == 3
    page = client.get(reverse("games:learn"))
    rows = {r["lesson"].slug: r["stars"] for r in page.context["rows"]}
    assert rows["cards-and-counting"] == 3 and rows["follow-suit"] == 0
    # A worse try later keeps the best stars.
    client.get(reverse("games:lesson", args=["cards-and-counting"]))
    _post(client, "games:lesson_restart", "cards-and-counting", {})
    _post(client, "games:lesson_move", "cards-and-counting", {"type": "play_card", "card": "R2"})
    _post(client, "games:lesson_move", "cards-and-counting", {"type": "play_card", "card": "RK"})
    assert LessonProgress.objects.get(user=user, lesson="cards-and-counting").stars == 3


def test_an_anonymous_learners_progress_carries_over_when_they_sign_up(client: Client) -> None:
    _solve(client, "cards-and-counting")
    _solve(client, "follow-suit")
    assert client.get(reverse("games:learn")).context["finished"] == 2
    name = f"neuling{secrets.token_hex(3)}"
    response = client.post(reverse("accounts:signup"), {
        "username": name, "display_name": "Neuling", "email": f"{name}@example.org",
        "preferred_language": "en", "password1": STRONG, "password2": STRONG})
    assert response.status_code == 302
    rows = dict(LessonProgress.objects.filter(user__username=name)
                .values_list("lesson", "stars"))
    assert rows == {"cards-and-counting": 3, "follow-suit": 3}
    assert client.get(reverse("games:learn")).context["finished"] == 2


def test_a_sign_in_merges_without_lowering_stars(client: Client, make_user: Any) -> None:
    user = make_user("gion")
    LessonProgress.objects.create(user=user, lesson="cards-and-counting", stars=3)
    client.get(reverse("games:lesson", args=["cards-and-counting"]))
    _post(client, "games:lesson_move", "cards-and-counting", {"type": "play_card", "card": "R2"})
    _post(client, "games:lesson_move", "cards-and-counting", {"type": "play_card", "card": "RK"})
    client.force_login(user)  # Django's login(): the same signal as the sign-in form
    assert LessonProgress.objects.get(user=user, lesson="cards-and-counting").stars == 3


@FAST
def test_hints_only_where_the_lesson_offers_them(client: Client) -> None:
    client.get(reverse("games:lesson", args=["cards-and-counting"]))
    status, out = _post(client, "games:lesson_hint", "cards-and-counting", {})
    assert status == 403 and out["code"] == "HINT_NOT_ALLOWED"
    client.get(reverse("games:lesson", args=["whole-deal"]))
    status, out = _post(client, "games:lesson_hint", "whole-deal", {})
    assert status == 200 and out["type"] == "hint" and out["kind"] == "play"
    legal = client.get(reverse("games:lesson", args=["whole-deal"])).context["frame"]["view"][
        "legal_cards"]
    assert out["options"] and all(o["card"] in legal for o in out["options"])
    # At once again: one hint a second.
    status, out = _post(client, "games:lesson_hint", "whole-deal", {})
    assert status == 429 and out["code"] == "HINT_PENDING"


def test_the_solver_sees_every_candidate_judged() -> None:
    """The scripted right move is one of the learner's own legal moves (tests can't cheat)."""
    found = lesson("buob")
    assert found is not None
    pos = lessons.setup(found.scenes[1])
    move = lessons.right_move(pos)
    assert move in lessons.candidates(pos) and move["type"] == "call_buob"


def test_the_course_is_linked_from_the_home_and_rules_pages(client: Client) -> None:
    learn = reverse("games:learn")
    for name in ("games:home", "games:rules"):
        assert f'href="{learn}"' in client.get(reverse(name)).content.decode()
