"""Account flows as a player meets them: sign up, log in and out, rate limiting, password
change and reset, the profile's language, and deletion that keeps match history."""

from __future__ import annotations

import html
import re
import secrets

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from accounts import ratelimit
from games import services
from games.models import Match, Seat
from tests.site.factories import full_table

pytestmark = pytest.mark.django_db
User = get_user_model()
STRONG = "Rosas-e-spadas-2024"


def url(name: str, language: str = "en", **kwargs) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs or None)


ERROR_TEXT = re.compile(r'class="(?:field-error|form-errors)"[^>]*>\s*(?:<p>)?([^<]+)')


def errors(response) -> str:
    """Every form error on the page, as the player reads it."""
    return html.unescape(" ".join(ERROR_TEXT.findall(response.content.decode())))


# --- sign up ------------------------------------------------------------------------------

def test_sign_up_logs_in_and_switches_to_the_chosen_language(client: Client):
    name = f"mia{secrets.token_hex(3)}"
    response = client.post(url("accounts:signup", "en"), {
        "username": name, "display_name": "Mia", "email": f"{name}@example.org",
        "preferred_language": "rm", "password1": STRONG, "password2": STRONG,
    })
    assert response.status_code == 302
    assert response["Location"] == "/rm/"
    assert response.cookies["troccas_language"].value == "rm"
    user = User.objects.get(username=name)
    assert user.preferred_language == "rm" and user.display_name == "Mia"
    home = client.get("/rm/").content.decode()
    assert "Bainvegni tar Troccas Online, Mia!" in home


def test_sign_up_defaults_the_language_to_the_page_language(client: Client):
    html = client.get(url("accounts:signup", "fr")).content.decode()
    assert re.search(r'<option value="fr" selected>', html)


def test_sign_up_errors_speak_the_page_language(client: Client, make_user):
    taken = make_user("taken")
    response = client.post(url("accounts:signup", "fr"), {
        "username": taken.username.upper(), "preferred_language": "fr",
        "password1": "abc", "password2": "abd",
    })
    assert response.status_code == 200
    text = errors(response)
    assert "Ce nom d'utilisateur est déjà pris." in text
    assert "Les deux mots de passe ne correspondent pas." in text
    response = client.post(url("accounts:signup", "rm"), {
        "username": "", "preferred_language": "rm", "password1": "12345", "password2": "12345",
    })
    text = errors(response)
    assert "Quest champ è obligatoric." in text
    assert "Quest pled-clav è memia curt." in text
    assert "Quest pled-clav consista mo da cifras." in text


def test_sign_up_refuses_the_anonymised_prefix(client: Client):
    response = client.post(url("accounts:signup"), {
        "username": "deleted-42", "preferred_language": "en",
        "password1": STRONG, "password2": STRONG,
    })
    assert "This username is reserved." in errors(response)
    assert not User.objects.filter(username="deleted-42").exists()


# --- log in and out -----------------------------------------------------------------------

def test_log_in_lands_in_the_players_language(client: Client, make_user, password):
    user = make_user("deta", preferred_language="fr")
    response = client.post(url("accounts:login", "en") + "?next=/en/faq/",
                           {"username": user.username, "password": password})
    assert response.status_code == 302
    assert response["Location"] == "/fr/faq/"
    assert client.get("/fr/faq/").status_code == 200


def test_log_out_needs_a_post(client: Client, make_user):
    client.force_login(make_user("anna"))
    assert client.get(url("accounts:logout")).status_code == 405
    response = client.post(url("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_wrong_password_says_so_in_the_page_language(client: Client, make_user):
    user = make_user("curdin")
    response = client.post(url("accounts:login", "de"),
                           {"username": user.username, "password": "nope"})
    assert "Falscher Benutzername oder falsches Passwort." in errors(response)


def test_login_is_rate_limited_per_username_and_address(client: Client, make_user, password):
    user = make_user("target")
    login = url("accounts:login", "de")
    for _ in range(5):
        client.post(login, {"username": user.username, "password": "wrong"},
                    REMOTE_ADDR="203.0.113.7")
    # Even the right password is refused now, with a sentence that says what to do.
    blocked = client.post(login, {"username": user.username, "password": password},
                          REMOTE_ADDR="203.0.113.7")
    assert blocked.status_code == 200
    assert "Zu viele fehlgeschlagene Anmeldeversuche." in errors(blocked)
    assert "_auth_user_id" not in client.session
    # Another address is not punished for this one's failures.
    other = Client()
    response = other.post(login, {"username": user.username, "password": password},
                          REMOTE_ADDR="198.51.100.9")
    assert response.status_code == 302


def test_one_address_guessing_many_usernames_is_limited(client: Client, make_user, password):
    address = f"192.0.2.{secrets.randbelow(250) + 1}"
    for i in range(20):
        client.post(url("accounts:login"), {"username": f"ghost{secrets.token_hex(4)}{i}",
                                            "password": "x"}, REMOTE_ADDR=address)
    user = make_user("real")
    response = client.post(url("accounts:login"), {"username": user.username,
                                                   "password": password}, REMOTE_ADDR=address)
    assert "Too many failed log-in attempts." in errors(response)


# The window ends when the cache forgets the counters (accounts/ratelimit.py: the counters'
# timeout). A local-memory cache forgets by time.time(), which time-machine freezes and moves; so
# this test pins one, in both modes. Redis forgets by its own clock: the next test checks that
# the counters it holds carry the window as their lifetime.
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                           "LOCATION": "rate-limit-window"}}
WINDOW = 300


@override_settings(CACHES=LOCAL_CACHE,
                   LOGIN_RATE_LIMIT={"per_user": 2, "per_ip": 50, "window_seconds": WINDOW})
def test_the_limit_lifts_after_the_window(client: Client, make_user, password, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    user = make_user("patient")
    address = "203.0.113.99"

    def log_in(secret: str):
        return client.post(url("accounts:login"), {"username": user.username,
                                                   "password": secret}, REMOTE_ADDR=address)

    for _ in range(2):
        log_in("bad")
    assert "Too many failed log-in attempts." in errors(log_in(password))
    # The window runs from the first failure; a refused attempt does not extend it.
    time_machine.shift(WINDOW - 1)
    assert "Too many failed log-in attempts." in errors(log_in(password))
    time_machine.shift(1)
    assert log_in(password).status_code == 302


@pytest.mark.skipif(
    settings.CACHES["default"]["BACKEND"] != "django.core.cache.backends.redis.RedisCache",
    reason="the cache is on Redis in the distributed run only")
def test_on_redis_each_counter_lives_for_the_window(client: Client, make_user):
    import redis

    user = make_user("counted")
    address = f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}"  # fresh counters
    client.post(url("accounts:login"), {"username": user.username, "password": "bad"},
                REMOTE_ADDR=address)
    window = settings.LOGIN_RATE_LIMIT["window_seconds"]
    keys = ratelimit._keys(RequestFactory().post("/", REMOTE_ADDR=address), user.username)
    server = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    try:
        for key in keys:
            assert cache.get(key) >= 1
            assert window - 10 < server.ttl(cache.make_key(key)) <= window, key
    finally:
        server.close()


def test_a_successful_login_clears_the_failures(client: Client, make_user, password):
    user = make_user("forgetful")
    address = "203.0.113.50"
    for _ in range(4):
        client.post(url("accounts:login"), {"username": user.username, "password": "bad"},
                    REMOTE_ADDR=address)
    assert client.post(url("accounts:login"), {"username": user.username, "password": password},
                       REMOTE_ADDR=address).status_code == 302
    client.post(url("accounts:logout"))
    for _ in range(4):
        client.post(url("accounts:login"), {"username": user.username, "password": "bad"},
                    REMOTE_ADDR=address)
    assert client.post(url("accounts:login"), {"username": user.username, "password": password},
                       REMOTE_ADDR=address).status_code == 302


# --- passwords ----------------------------------------------------------------------------

def test_password_change(client: Client, make_user, password):
    user = make_user("benedetg", preferred_language="de")
    client.force_login(user)
    change = url("accounts:password_change", "de")
    wrong = client.post(change, {"old_password": "nope", "new_password1": STRONG,
                                 "new_password2": STRONG})
    assert "Dein aktuelles Passwort ist nicht korrekt." in errors(wrong)
    response = client.post(change, {"old_password": password, "new_password1": STRONG,
                                    "new_password2": STRONG})
    assert response["Location"] == url("accounts:password_change_done", "de")
    user.refresh_from_db()
    assert user.check_password(STRONG)
    # Still signed in on this device.
    assert client.get(url("accounts:profile", "de")).status_code == 200


def test_password_reset_by_mail(client: Client, make_user):
    user = make_user("anna")
    user.confirmed_email = user.email  # resets go to confirmed addresses only
    user.save()
    response = client.post(url("accounts:password_reset", "rm"), {"email": user.email},
                           REMOTE_ADDR="198.51.100.77")
    assert response["Location"] == url("accounts:password_reset_done", "rm")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [user.email]
    assert message.subject == "Voss nov pled-clav per Troccas Online"
    assert user.username in message.body
    link = re.search(r"https?://[^/]+(/rm/accounts/password/reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "Definir il nov pled-clav" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": STRONG,
                                                     "new_password2": STRONG})
    assert done["Location"] == url("accounts:password_reset_complete", "rm")
    user.refresh_from_db()
    assert user.check_password(STRONG)
    # The link works once.
    again = client.get(link, follow=True)
    assert "Questa colliaziun na vala betg pli" in again.content.decode()


def test_password_reset_for_an_unknown_address_reveals_nothing(client: Client):
    response = client.post(url("accounts:password_reset"), {"email": "nobody@example.org"})
    assert response["Location"] == url("accounts:password_reset_done")
    assert mail.outbox == []


# --- the profile's language ---------------------------------------------------------------

def test_profile_change_switches_language_now_and_on_every_request(client: Client, make_user):
    user = make_user("curdin", preferred_language="en")
    client.force_login(user)
    response = client.post(url("accounts:profile", "en"), {
        "display_name": "Curdin C.", "email": user.email, "preferred_language": "de",
    })
    assert response["Location"] == url("accounts:profile", "de")
    assert response.cookies["troccas_language"].value == "de"
    user.refresh_from_db()
    assert user.preferred_language == "de" and user.display_name == "Curdin C."
    # Unprefixed URLs follow the player's choice; an explicit prefix wins for its page.
    assert client.get("/")["Location"] == "/de/"
    assert "Dein Profil wurde gespeichert." in client.get("/de/faq/").content.decode()
    shared = client.get("/fr/faq/?page=2")
    assert shared.status_code == 200 and '<html lang="fr">' in shared.content.decode()


def test_a_post_from_another_language_page_is_answered_not_redirected(client: Client, make_user):
    client.force_login(make_user("deta", preferred_language="fr"))
    response = client.post(url("accounts:profile", "de"), {"display_name": "", "email": "",
                                                           "preferred_language": ""})
    # Redirecting would drop the submission: the form comes back, in the form's language.
    assert response.status_code == 200
    assert "Dieses Feld ist erforderlich." in errors(response)


def test_language_switcher_stores_the_choice_in_the_profile(client: Client, make_user):
    user = make_user("anna", preferred_language="de")
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": "rm", "next": "/de/faq/"})
    assert response["Location"] == "/rm/faq/"
    user.refresh_from_db()
    assert user.preferred_language == "rm"
    assert client.get("/")["Location"] == "/rm/"


def test_the_language_cookie_follows_the_profile_at_login(client: Client, make_user, password):
    user = make_user("benedetg", preferred_language="rm")
    client.cookies["troccas_language"] = "fr"
    response = client.post(url("accounts:login", "fr"), {"username": user.username,
                                                         "password": password})
    assert response.cookies["troccas_language"].value == "rm"


def test_a_language_in_the_url_wins_over_the_preference_for_that_page(client: Client, make_user):
    client.force_login(make_user("deta", preferred_language="fr"))
    response = client.get("/de/accounts/profile/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="de">' in page and "Dein Profil" in page
    # The preference still decides where an unprefixed URL goes, and the cookie follows it.
    assert client.get("/")["Location"] == "/fr/"
    assert client.cookies["troccas_language"].value == "fr"


def test_anonymous_visitors_follow_the_url(client: Client):
    assert client.get("/fr/").status_code == 200
    assert client.get("/rm/faq/").status_code == 200


# --- deletion -----------------------------------------------------------------------------

def test_deleting_an_account_anonymises_it_and_keeps_match_history(
    client: Client, owner, players, password
):
    table = full_table(owner, players)
    leaver = players[0]  # seat 1, who played the logged card
    leaver.preferred_language = "rm"
    leaver.save()
    client.force_login(leaver)
    wrong = client.post(url("accounts:delete", "rm"), {"password": "nope"})
    assert "Voss pled-clav n'è betg correct." in errors(wrong)
    response = client.post(url("accounts:delete", "rm"), {"password": password})
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session

    leaver.refresh_from_db()
    assert leaver.username == f"deleted-{leaver.pk}"
    assert leaver.email == "" and leaver.display_name == "" and not leaver.is_active
    assert not leaver.has_usable_password()
    assert leaver.is_anonymised
    with translation.override("rm"):
        assert leaver.public_name == "Anteriur giugader"
    with translation.override("en"):
        assert str(leaver) == "Former player"
    # History survives: the seat, the match and the action log still point at the row.
    assert Seat.objects.filter(user=leaver, room=table.room).exists()
    assert Match.objects.for_user(leaver).get() == table.match
    table.action.refresh_from_db()
    assert table.action.actor_id == leaver.pk
    # And the room page shows the former player, not the old name.
    html = client.get(url("games:room", "en", code=table.room.code)).content.decode()
    assert "Former player" in html and ">Anna<" not in html


def test_a_deleted_account_cannot_log_in(client: Client, make_user, password):
    user = make_user("gone")
    old_name = user.username
    user.anonymise()
    response = client.post(url("accounts:login"), {"username": old_name, "password": password})
    assert response.status_code == 200
    response = client.post(url("accounts:login"), {"username": user.username,
                                                   "password": password})
    assert response.status_code == 200


def test_deletion_ends_the_accounts_other_sessions(make_user, password):
    user = make_user("twodevices")
    phone, laptop = Client(), Client()
    phone.force_login(user)
    laptop.force_login(user)
    phone.post(url("accounts:delete"), {"password": password})
    response = laptop.get(url("accounts:profile"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_pages_need_login(client: Client):
    for name in ("accounts:profile", "accounts:delete", "accounts:password_change"):
        response = client.get(url(name))
        assert response.status_code == 302 and "/en/accounts/login/" in response["Location"]


def test_room_owner_keeps_room_after_deletion(client: Client, owner):
    room = services.create_room(owner, name="Chasa")
    owner.anonymise()
    room.refresh_from_db()
    assert room.owner_id == owner.pk
