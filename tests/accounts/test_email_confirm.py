"""Mail goes only to confirmed addresses (issue #25 item 2): the confirmation link (signed,
expiring, for one account and one address), what an unconfirmed address gets (the link, and
nothing else), the rate limits of password resets and of the link, fixed subjects, and links
that point only at this site."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from django.core import mail, signing
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from accounts import email_confirm
from accounts.models import User
from games import services
from games.talk import friends

pytestmark = pytest.mark.django_db
STRONG = "Rosas-e-spadas-2024"
LINK = re.compile(r"https?://\S+")


def url(name: str, language: str = "en", **kwargs: Any) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs or None)


def client_ip() -> str:
    """An address of its own per test: the limits count per client address, and the
    distributed run's cache (Redis) is shared by the whole run."""
    return f"198.18.{secrets.randbelow(256)}.{secrets.randbelow(254) + 1}"


def confirmed(user: Any) -> Any:
    user.confirmed_email = user.email
    user.save(update_fields=["confirmed_email"])
    return user


def befriend(a: Any, b: Any) -> None:
    friends.send_request(a, b.pk)
    friends.accept(b, a.pk)


def links(message: Any) -> list[str]:
    return LINK.findall(message.body)


def token_from(message: Any) -> str:
    (link,) = [u for u in links(message) if "/email/confirm/" in u]
    return link.rstrip("/").rsplit("/", 1)[1]


def invite_by_page(inviter: Any, friend: Any, client: Client, **extra: Any) -> None:
    room = services.create_room(inviter, name="Free beer at evil.example", visibility="private")
    client.force_login(inviter)
    response = client.post(reverse("games:invite_friend", kwargs={"code": room.code}),
                           {"user": friend.pk}, **extra)
    assert response.status_code == 302


@pytest.fixture
def invitee(make_user: Any) -> Any:
    return make_user("curdin", invite_emails=True, preferred_language="de")


@pytest.fixture
def inviter(make_user: Any) -> Any:
    return make_user("owner", display_name="Mallory https://evil.example")


# --- an unconfirmed address gets nothing but the link --------------------------------------

def test_an_unconfirmed_address_gets_no_invitation_mail(
        inviter: Any, invitee: Any, django_capture_on_commit_callbacks: Any) -> None:
    befriend(inviter, invitee)
    with django_capture_on_commit_callbacks(execute=True):
        invite_by_page(inviter, invitee, Client())
    assert mail.outbox == []  # opted in, but the address was never confirmed
    confirmed(invitee)
    with django_capture_on_commit_callbacks(execute=True):
        invite_by_page(inviter, invitee, Client())
    (sent,) = mail.outbox
    assert sent.to == [invitee.email]


def test_an_unconfirmed_address_gets_no_password_reset(client: Client, make_user: Any) -> None:
    user = make_user("anna")
    done = url("accounts:password_reset_done")
    response = client.post(url("accounts:password_reset"), {"email": user.email},
                           REMOTE_ADDR=client_ip())
    assert response["Location"] == done  # the same answer as for an unknown address
    assert mail.outbox == []
    confirmed(user)
    response = client.post(url("accounts:password_reset"), {"email": user.email.upper()},
                           REMOTE_ADDR=client_ip())
    assert response["Location"] == done
    (sent,) = mail.outbox
    assert sent.to == [user.email]
    # Another account that merely typed the same address into its profile gets nothing.
    make_user("mallory", email=user.email)
    mail.outbox.clear()
    client.post(url("accounts:password_reset"), {"email": user.email}, REMOTE_ADDR=client_ip())
    assert [m.to for m in mail.outbox] == [[user.email]]
    assert f"/{user.pk}/".encode() not in mail.outbox[0].body.encode()  # uid is base64 anyway


# --- the link --------------------------------------------------------------------------------

def test_sign_up_mails_a_link_that_confirms_on_its_button(
        client: Client, django_capture_on_commit_callbacks: Any) -> None:
    name = f"mia{secrets.token_hex(3)}"
    address = f"{name}@example.org"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("accounts:signup"), {
            "username": name, "display_name": "Mia", "email": address,
            "preferred_language": "rm", "password1": STRONG, "password2": STRONG})
    user = User.objects.get(username=name)
    assert not user.email_confirmed and user.mail_address == ""
    (sent,) = mail.outbox
    assert sent.to == [address]
    assert sent.subject == "Confermai Vossa adressa dad e-mail per Troccas Online"
    (link,) = links(sent)
    assert link.startswith("http://testserver/rm/accounts/email/confirm/")
    path = link.removeprefix("http://testserver")
    profile = client.get(url("accounts:profile", "rm")).content.decode()
    assert 'data-email-status="unconfirmed"' in profile
    # Opening the link (a mail scanner's prefetch too) confirms nothing by itself.
    page = Client().get(path)
    assert page.status_code == 200 and address in page.content.decode()
    user.refresh_from_db()
    assert user.confirmed_email == ""
    # The button does, signed in or not.
    assert Client().post(path).status_code == 200
    user.refresh_from_db()
    assert user.confirmed_email == address and user.mail_address == address
    profile = client.get(url("accounts:profile", "rm")).content.decode()
    assert 'data-email-status="confirmed"' in profile


def test_changing_the_address_unconfirms_it_and_mails_the_new_one(
        client: Client, make_user: Any, django_capture_on_commit_callbacks: Any) -> None:
    user = confirmed(make_user("anna"))
    old = user.email
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("accounts:profile"), {
            "display_name": "Anna", "email": "anna.new@example.org", "preferred_language": "en"})
    user.refresh_from_db()
    assert user.email == "anna.new@example.org"
    assert user.confirmed_email == "" and not user.email_confirmed and user.mail_address == ""
    (sent,) = mail.outbox
    assert sent.to == ["anna.new@example.org"]
    # Saving the profile again without a new address sends nothing.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("accounts:profile"), {
            "display_name": "Anna B.", "email": "anna.new@example.org",
            "preferred_language": "en"})
    assert len(mail.outbox) == 1
    # A link made for the old address does not confirm the new one.
    user.email = old
    stale = email_confirm.make_token(user)
    user.refresh_from_db()
    assert email_confirm.confirm(stale) is None
    assert email_confirm.confirm(token_from(sent)) is not None
    user.refresh_from_db()
    assert user.confirmed_email == "anna.new@example.org"


def test_an_expired_tampered_or_other_accounts_link_confirms_nothing(
        make_user: Any, time_machine: Any) -> None:
    time_machine.move_to(timezone.now(), tick=False)
    anna = make_user("anna")
    mallory = make_user("mallory", email=anna.email)  # typed Anna's address
    token = email_confirm.make_token(anna)
    # Tampered: another id in the signed value, or a changed signature.
    value, stamp, signature = token.rsplit(":", 2)
    payload = signing.TimestampSigner(salt=email_confirm.SALT).unsign_object(token)
    forged = signing.TimestampSigner(salt="another.salt").sign_object(
        {**payload, "u": mallory.pk})
    assert email_confirm.confirm(forged) is None
    assert email_confirm.confirm(f"{value}:{stamp}:{signature[:-2]}xx") is None
    # Anna's link confirms Anna, never Mallory, whoever opens it.
    other = Client()
    other.force_login(mallory)
    assert other.post(url("accounts:email_confirm", token=token)).status_code == 200
    mallory.refresh_from_db()
    anna.refresh_from_db()
    assert mallory.confirmed_email == "" and anna.confirmed_email == anna.email
    # Expired: a link older than EMAIL_CONFIRM_MAX_AGE.
    bob = make_user("bob")
    old = email_confirm.make_token(bob)
    time_machine.shift(3 * 24 * 3600 + 60)
    page = Client().get(url("accounts:email_confirm", token=old))
    assert "This link does not work" in page.content.decode()
    assert Client().post(url("accounts:email_confirm", token=old)).status_code == 400
    bob.refresh_from_db()
    assert bob.confirmed_email == ""


@override_settings(EMAIL_CONFIRM_RATE_LIMIT={"per_user": 2, "window_seconds": 3600})
def test_send_the_link_again_is_rate_limited(
        client: Client, make_user: Any, django_capture_on_commit_callbacks: Any) -> None:
    user = make_user("anna")
    client.force_login(user)
    again = url("accounts:email_confirm_again")
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            page = client.post(again, follow=True).content.decode()
    assert len(mail.outbox) == 2
    assert "You asked for many links in a short time." in page
    assert all(m.to == [user.email] for m in mail.outbox)


# --- password resets: limited per address and per client, with the same answer ----------

@override_settings(PASSWORD_RESET_RATE_LIMIT={"per_address": 2, "per_ip": 3,
                                              "window_seconds": 3600})
def test_password_resets_are_limited_per_address(client: Client, make_user: Any) -> None:
    user = confirmed(make_user("anna"))
    done = url("accounts:password_reset_done")
    for _ in range(4):  # each from another client
        response = client.post(url("accounts:password_reset"), {"email": user.email},
                               REMOTE_ADDR=client_ip())
        assert response["Location"] == done
    assert len(mail.outbox) == 2


@override_settings(PASSWORD_RESET_RATE_LIMIT={"per_address": 2, "per_ip": 3,
                                              "window_seconds": 3600})
def test_password_resets_are_limited_per_client(client: Client, make_user: Any) -> None:
    users = [confirmed(make_user(f"p{n}")) for n in range(5)]
    done = url("accounts:password_reset_done")
    ip = client_ip()
    for user in users:
        response = client.post(url("accounts:password_reset"), {"email": user.email},
                               REMOTE_ADDR=ip)
        assert response["Location"] == done
    assert [m.to for m in mail.outbox] == [[u.email] for u in users[:3]]
    # Another client is not held by this one's count.
    client.post(url("accounts:password_reset"), {"email": users[4].email},
                REMOTE_ADDR=client_ip())
    assert mail.outbox[-1].to == [users[4].email]


# --- subjects and links --------------------------------------------------------------------

def _every_mail(inviter: Any, invitee: Any, hooks: Any, **extra: Any) -> list[Any]:
    """A confirmation, an invitation and a password reset, through the pages."""
    confirmed(invitee)
    befriend(inviter, invitee)
    with hooks(execute=True):
        invite_by_page(inviter, invitee, Client(), **extra)
    newcomer = Client()
    name = f"mia{secrets.token_hex(3)}"
    with hooks(execute=True):
        newcomer.post(url("accounts:signup"), {
            "username": name, "display_name": "Visit evil.example", "email": f"{name}@ex.org",
            "preferred_language": "en", "password1": STRONG, "password2": STRONG}, **extra)
    Client().post(url("accounts:password_reset"), {"email": invitee.email},
                  REMOTE_ADDR=client_ip(), **extra)
    assert len(mail.outbox) == 3
    return list(mail.outbox)


def test_mail_subjects_hold_no_text_a_player_chose(
        inviter: Any, invitee: Any, django_capture_on_commit_callbacks: Any) -> None:
    sent = _every_mail(inviter, invitee, django_capture_on_commit_callbacks)
    subjects = sorted(m.subject for m in sent)
    assert subjects == sorted(["Eine Einladung an einen Troccas-Tisch",
                               "Confirm your email address for Troccas Online",
                               "Your new Troccas Online password"])
    invitation = next(m for m in sent if "Einladung" in m.subject)
    # The body names the inviter as plain text only, and not the room's name: a name a mail
    # program would make a link of is left out.
    assert "Jemand aus deinen Freunden lädt dich" in invitation.body
    assert "Mallory" not in invitation.body and "Free beer" not in invitation.body
    confirmation = next(m for m in sent if "Confirm" in m.subject)
    assert "evil" not in confirmation.body  # the newcomer's chosen name is not in it


def test_a_plain_inviter_name_stands_in_the_invitation(
        make_user: Any, invitee: Any, django_capture_on_commit_callbacks: Any) -> None:
    inviter = make_user("owner", display_name="Gion Bi")
    confirmed(invitee)
    befriend(inviter, invitee)
    with django_capture_on_commit_callbacks(execute=True):
        invite_by_page(inviter, invitee, Client())
    (sent,) = mail.outbox
    assert "Gion Bi lädt dich an einen Troccas-Tisch ein." in sent.body


@override_settings(ALLOWED_HOSTS=["*"], TROCCAS_SITE_URL="https://troccas.example")
def test_links_in_mail_point_only_at_the_site(
        inviter: Any, invitee: Any, django_capture_on_commit_callbacks: Any) -> None:
    # A Host header the (too wide) ALLOWED_HOSTS lets through never reaches a mail.
    sent = _every_mail(inviter, invitee, django_capture_on_commit_callbacks,
                       HTTP_HOST="evil.example")
    found = [link for m in sent for link in links(m)]
    assert len(found) == 3
    assert all(link.startswith("https://troccas.example/") for link in found), found
    assert not any("evil.example" in m.body or "evil.example" in m.subject for m in sent)


def test_without_a_configured_site_links_use_the_checked_host(
        inviter: Any, invitee: Any, django_capture_on_commit_callbacks: Any) -> None:
    sent = _every_mail(inviter, invitee, django_capture_on_commit_callbacks)
    found = [link for m in sent for link in links(m)]
    assert len(found) == 3
    assert all(link.startswith("http://testserver/") for link in found), found
