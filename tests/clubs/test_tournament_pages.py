"""The tournament pages and the players' JSON API (issue #26 item 2, "any client can take
part"): the list, the new tournament form, a tournament's page in English and Romansh with
its buttons and what they wait for, the club page's tournaments, the read-only admin, and
/api/tournaments (list, one, register, withdraw, check in) with the API's error format."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.clubs import membership, tournaments
from games.models import Entrant, Stage, Tournament, TournamentRound
from games.talk import friends
from games.views.tournaments import results_links

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


def signed_in(user: Any, *, strict: bool = False) -> Client:
    web = Client(enforce_csrf_checks=strict)
    web.force_login(user)
    return web


def url(name: str, language: str = "en", **kwargs: Any) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs or None)


def create(director: Any, **fields: Any) -> Tournament:
    now = timezone.now()
    spec: dict[str, Any] = {"name": "Turnier da Mustér", "language": "rm",
                            "registration_closes": now + DAY, "starts_at": now + 2 * DAY,
                            "stages": [{"rounds": 3}], "options": {"match_deals": 8}}
    spec.update(fields)
    return tournaments.create_tournament(director, **spec)


def open_checkin(t: Tournament) -> None:
    Tournament.objects.filter(pk=t.pk).update(
        registration_closes=timezone.now(), starts_at=timezone.now() + timedelta(minutes=10))


def post_json(web: Client, path: str, body: dict[str, Any] | None = None) -> Any:
    return web.post(path, data=json.dumps(body or {}), content_type="application/json")


# --- pages --------------------------------------------------------------------------------

@pytest.mark.parametrize(("language", "register", "rules"),
                         [("en", "Register", "Rules of the Partie"),
                          ("rm", "S'inscriver", "Reglas da la partida")])
def test_the_pages_render_translated(players: list[Any], language: str, register: str,
                                     rules: str) -> None:
    anna, benedetg, _ = players
    t = create(anna, stages=[{"rounds": 3}, {"rounds": 1, "advance": 4}])
    web = signed_in(benedetg)
    listing = web.get(url("games:tournaments", language)).content.decode()
    assert f'lang="{language}"' in listing and "Turnier da Mustér" in listing
    assert url("games:tournaments", language) in listing  # the navigation's link
    page = web.get(url("games:tournament", language, pk=t.pk)).content.decode()
    assert register in page and rules in page
    assert page.count("data-round=") == 4
    # The rules of every Partie, in words: eight deals.
    assert 'data-rule="match_deals"' in page
    assert web.get(url("games:create_tournament", language)).status_code == 200


def test_the_buttons_say_what_they_wait_for(players: list[Any], make_user: Any) -> None:
    anna, benedetg, curdin = players
    t = create(anna, capacity=4, checkin_minutes=30)
    web = signed_in(benedetg)
    page = web.get(url("games:tournament", pk=t.pk)).content.decode()
    assert "data-tournament-register" in page and "data-tournament-withdraw" not in page
    response = signed_in(benedetg, strict=True).post(url("games:tournament_register", pk=t.pk))
    assert response.status_code == 403, "a POST without the CSRF token changes nothing"
    assert not Entrant.objects.exists()
    response = web.post(url("games:tournament_register", pk=t.pk), follow=True)
    page = response.content.decode()
    assert "You are registered." in page and "Check-in opens at" in page
    assert "data-tournament-withdraw" in page and "data-tournament-check-in" not in page
    for name in ("a", "b", "c", "d"):
        tournaments.register(make_user(name), t)
    waiting = web.get(url("games:tournament", pk=t.pk))
    assert waiting.status_code == 200
    web_c = signed_in(curdin)
    web_c.post(url("games:tournament_register", pk=t.pk))
    page = web_c.get(url("games:tournament", pk=t.pk)).content.decode()
    assert "You are number 2 on the waiting list." in page
    open_checkin(t)
    page = web.get(url("games:tournament", pk=t.pk)).content.decode()
    assert "data-tournament-check-in" in page
    page = web.post(url("games:tournament_check_in", pk=t.pk), follow=True).content.decode()
    assert "You have checked in." in page and "data-tournament-check-in" not in page
    page = web.post(url("games:tournament_withdraw", pk=t.pk), follow=True).content.decode()
    assert "Your entry has been withdrawn." in page
    assert Entrant.objects.get(tournament=t, player=benedetg).status == "withdrawn"
    # A refusal is said on the page: registration closed in the check-in window.
    page = web.post(url("games:tournament_register", pk=t.pk), follow=True).content.decode()
    assert "Registration for this tournament is not open now." in page


def test_a_pair_registers_with_a_friend_from_the_page(players: list[Any]) -> None:
    anna, benedetg, curdin = players
    t = create(anna, entrant_kind="pairs")
    web = signed_in(benedetg)
    assert "add your partner as a friend first" in web.get(
        url("games:tournament", pk=t.pk)).content.decode()
    friends.send_request(benedetg, curdin.pk)
    friends.accept(curdin, benedetg.pk)
    page = web.get(url("games:tournament", pk=t.pk)).content.decode()
    assert f'<option value="{curdin.pk}">' in page
    web.post(url("games:tournament_register", pk=t.pk), {"partner": str(curdin.pk)})
    entrant = Entrant.objects.get(tournament=t)
    assert (entrant.player, entrant.partner) == (benedetg, curdin)
    page = signed_in(curdin).get(url("games:notifications")).content.decode()
    assert "entered you as their partner" in page and t.get_absolute_url() in page


def test_the_create_form_makes_a_tournament_with_a_final(players: list[Any]) -> None:
    anna = players[0]
    club = membership.create_club(anna, "Ligia Grischa", language="rm")
    web = signed_in(anna)
    form = web.get(url("games:create_tournament") + f"?club={club.pk}").content.decode()
    assert "Ligia Grischa" in form and "Open tournament" in form
    start = timezone.localtime(timezone.now() + 3 * DAY).replace(second=0, microsecond=0)
    fields = {
        "name": "Campiunadi", "club": str(club.pk), "language": "de", "entrant_kind": "pairs",
        "capacity": "16", "registration_closes": (start - DAY).strftime("%Y-%m-%dT%H:%M"),
        "starts_at": start.strftime("%Y-%m-%dT%H:%M"), "checkin_minutes": "30",
        "round_minutes": "45", "break_minutes": "15", "talk": "silent", "spectators": "off",
        "tiebreak": "card_points", "unfinished": "director", "bye_match_points": "2",
        "bye_card_points": "36", "stage1_format": "swiss", "stage1_rounds": "4",
        "final": "on", "final_advance": "4", "final_format": "round_robin",
        "final_rounds": "3", "final_duplicate": "on",
        "reveal_seconds": "5", "scart_forbidden": "honours", "buob_caller": "any",
        "regame_by": "any", "match_deals": "8", "bock_triggers": ["tie", "all_tricks"],
        "turn_seconds": "60", "stand_in_seconds": "60",
    }
    response = web.post(url("games:create_tournament"), fields)
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()
    assert (t.club, t.talk, t.tiebreak, t.options["match_deals"], t.options["table_talk"],
            t.bye_card_points) == (club, "silent", "card_points", 8, "silent", 36)
    assert t.starts_at == start
    assert list(Stage.objects.filter(tournament=t).values_list(
        "format", "rounds", "advance", "duplicate")) == [("swiss", 4, None, False),
                                                         ("round_robin", 3, 4, True)]
    assert TournamentRound.objects.filter(tournament=t).count() == 7
    # A refusal of the services comes back on the form, nothing created.
    fields["registration_closes"] = (start + DAY).strftime("%Y-%m-%dT%H:%M")
    page = web.post(url("games:create_tournament"), fields).content.decode()
    assert "The schedule does not fit together" in page
    assert Tournament.objects.count() == 1


def test_a_clubs_tournaments_are_on_its_page_for_members(players: list[Any],
                                                         outsider: Any) -> None:
    anna, benedetg, _ = players
    club = membership.create_club(anna, "Ligia Grischa", language="rm")
    membership.join(benedetg, club.pk)
    t = create(anna, club=club, name="Turnier dal club")
    page = signed_in(benedetg).get(url("games:club", pk=club.pk)).content.decode()
    assert "Turnier dal club" in page and f'data-tournament="{t.pk}"' in page
    assert "data-club-new-tournament" not in page
    assert "data-club-new-tournament" in signed_in(anna).get(
        url("games:club", pk=club.pk)).content.decode()
    outside = signed_in(outsider)
    assert "Turnier dal club" not in outside.get(url("games:club", pk=club.pk)).content.decode()
    assert "Turnier dal club" not in outside.get(url("games:tournaments")).content.decode()
    assert outside.get(url("games:tournament", pk=t.pk)).status_code == 404


def test_the_results_links_are_those_whose_page_exists(players: list[Any]) -> None:
    t = create(players[0])
    links = results_links(t)
    for key, path in links.items():
        assert str(t.pk) in path, key
    page = Client().get(url("games:tournament", pk=t.pk)).content.decode()
    assert all(path in page for key, path in links.items() if key != "desk")


def test_the_admin_shows_tournaments_read_only(players: list[Any], make_user: Any) -> None:
    t = create(players[0])
    tournaments.register(players[1], t)
    staff = make_user("staff", is_staff=True, is_superuser=True)
    web = signed_in(staff)
    for model in ("tournament", "stage", "entrant", "tournamentround", "tournamenttable",
                  "directoraction", "tournamentbye", "resultadjustment"):
        assert web.get(f"/en/admin/games/{model}/").status_code == 200, model
        assert web.get(f"/en/admin/games/{model}/add/").status_code == 403, model
    assert web.get(f"/en/admin/games/tournament/{t.pk}/change/").status_code == 200
    before = Tournament.objects.values_list("name", flat=True).get()
    web.post(f"/en/admin/games/tournament/{t.pk}/change/", {"name": "Changed"})
    assert Tournament.objects.values_list("name", flat=True).get() == before


# --- the JSON API -------------------------------------------------------------------------

def test_the_api_lists_and_reads_tournaments(players: list[Any], outsider: Any) -> None:
    anna, benedetg, _ = players
    club = membership.create_club(anna, "Ligia Grischa", language="rm")
    open_one = create(anna, name="Open", stages=[{"rounds": 2}, {"rounds": 1, "advance": 4}])
    create(anna, name="Club only", club=club)
    listing = Client().get("/api/tournaments").json()
    assert [t["name"] for t in listing["tournaments"]] == ["Open"]
    assert signed_in(anna).get("/api/tournaments?status=registration").json()[
        "tournaments"][0]["status"] == "registration"
    assert len(signed_in(anna).get("/api/tournaments").json()["tournaments"]) == 2
    bad = Client().get("/api/tournaments?status=nonsense")
    assert bad.status_code == 400 and bad.json()["field"] == "status"
    one = signed_in(benedetg).get(f"/api/tournaments/{open_one.pk}").json()
    assert one["stages"] == [
        {"number": 1, "format": "swiss", "rounds": 2, "advance": None, "duplicate": False,
         "venue": "online"},
        {"number": 2, "format": "swiss", "rounds": 1, "advance": 4, "duplicate": False,
         "venue": "online"}]
    assert [r["number"] for r in one["rounds"]] == [1, 2, 3]
    assert one["options"]["match_deals"] == 8 and one["me"]["may_register"] is True
    assert Client().get(f"/api/tournaments/{open_one.pk}").json()["me"] is None
    hidden = signed_in(outsider).get(
        f"/api/tournaments/{Tournament.objects.get(name='Club only').pk}")
    assert hidden.status_code == 404 and hidden.json()["code"] == "TOURNAMENT_NOT_FOUND"
    assert Client().get("/api/tournaments/999999999999999999999").status_code == 404


def test_a_client_registers_checks_in_and_withdraws(players: list[Any], outsider: Any
                                                    ) -> None:
    anna, benedetg, curdin = players
    t = create(anna, entrant_kind="pairs", capacity=2)
    web = signed_in(benedetg)
    path = f"/api/tournaments/{t.pk}"
    refused = post_json(Client(), f"{path}/register")
    assert (refused.status_code, refused.json()["code"]) == (401, "NOT_AUTHENTICATED")
    needs = post_json(web, f"{path}/register")
    assert (needs.status_code, needs.json()["code"]) == (400, "TOURNAMENT_PARTNER_NEEDED")
    wrong = post_json(web, f"{path}/register", {"partner": "x"})
    assert (wrong.status_code, wrong.json()["field"]) == (400, "partner")
    form = web.post(f"{path}/register", {"partner": curdin.pk})
    assert form.status_code == 415
    friends.send_request(benedetg, curdin.pk)
    friends.accept(curdin, benedetg.pk)
    done = post_json(web, f"{path}/register", {"partner": curdin.pk})
    assert done.status_code == 201, done.content
    me = done.json()["me"]
    assert me["entrant"]["partner"]["id"] == curdin.pk and me["waiting_position"] is None
    again = post_json(signed_in(curdin), f"{path}/register", {"partner": benedetg.pk})
    assert (again.status_code, again.json()["code"]) == (409, "TOURNAMENT_ALREADY_ENTERED")
    early = post_json(web, f"{path}/check-in")
    assert (early.status_code, early.json()["code"]) == (409, "TOURNAMENT_CHECKIN_CLOSED")
    open_checkin(t)
    checked = post_json(web, f"{path}/check-in").json()["me"]
    assert (checked["checked_in"], checked["partner_checked_in"]) == (True, False)
    mine = signed_in(curdin).get(path).json()["me"]
    assert (mine["checked_in"], mine["partner_checked_in"], mine["may_check_in"]) == (
        False, True, True)
    gone = post_json(signed_in(curdin), f"{path}/withdraw")
    assert gone.status_code == 200 and gone.json()["entrant"]["status"] == "withdrawn"
    assert gone.json()["out_from_round"] is None
    not_in = post_json(signed_in(outsider), f"{path}/withdraw")
    assert (not_in.status_code, not_in.json()["code"]) == (409, "TOURNAMENT_NOT_ENTERED")
    assert web.get(f"{path}/withdraw").status_code == 405


# --- live pages (docs/decisions.md "Live standings: pushed on the site socket") ------------

def _live_config(page: Any) -> dict[str, Any]:
    html = page.content.decode()
    start = html.index('<script id="tournament-live-config" type="application/json">')
    body = html[start:].split(">", 1)[1].split("</script>", 1)[0]
    return dict(json.loads(body))


def test_the_live_pages_name_their_tournament_and_poll_slowly_behind_a_site_socket(
        owner: Any, players: list[Any]) -> None:
    t = create(owner)
    pages = {"tournament": (url("games:tournament", pk=t.pk), None, True),
             "standings": (url("games:tournament_standings", pk=t.pk),
                           f"/api/tournaments/{t.pk}/standings", False),
             "desk": (url("games:tournament_desk", pk=t.pk),
                      f"/api/tournaments/{t.pk}/desk", True)}
    director, visitor = signed_in(owner), Client()
    for name, (path, json_door, swaps) in pages.items():
        page = director.get(path)
        assert page.status_code == 200, name
        assert f'data-watch-tournament="{t.pk}"' in page.content.decode()
        config = _live_config(page)
        assert config["tournament"] == t.pk and config["json"] == json_door
        assert config["page"] == (path if swaps else None)
        # The desk's tables move with every card, which no frame announces.
        assert config["seconds"] == (10 if name == "desk" else 30), name
        if name != "desk":
            # A visitor has no site socket: the poll is all there is.
            assert _live_config(visitor.get(path))["seconds"] == 10, name
    assert _live_config(director.get(pages["desk"][0]))["round"] == {"number": 1,
                                                                     "status": "scheduled"}
    # The parts of the tournament page that are drawn again from its fresh HTML.
    page = director.get(pages["tournament"][0]).content.decode()
    for region in ("head", "schedule", "entrants", "audit"):
        assert f'data-live-region="{region}"' in page, region
