"""Confirming an email address (issue #25 item 2): the site mails nothing but this link to an
address until its owner opened the link, and then `User.confirmed_email` holds it.

The link carries a `TimestampSigner` token over the account's id and a keyed digest of the
address (not the address itself, so it never lands in a server's access log): it expires after
`settings.EMAIL_CONFIRM_MAX_AGE`, and it confirms only that account, and only while the account
still has that very address (docs/decisions.md).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.crypto import constant_time_compare, salted_hmac

from . import ratelimit
from .models import User
from .site_url import site_url

__all__ = ["confirm", "make_token", "send_link", "send_link_again", "user_for"]

log = logging.getLogger(__name__)

SALT = "accounts.email_confirm"


def _digest(address: str) -> str:
    return salted_hmac(f"{SALT}.address", address).hexdigest()[:24]


def make_token(user: User) -> str:
    """The signed token for `user`'s current address."""
    return signing.TimestampSigner(salt=SALT).sign_object(
        {"u": user.pk, "a": _digest(user.email)})


def user_for(token: str) -> User | None:
    """The account whose current address `token` confirms; None if the token is tampered
    with, expired, or for an address the account no longer has."""
    try:
        payload = signing.TimestampSigner(salt=SALT).unsign_object(
            token, max_age=settings.EMAIL_CONFIRM_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired included
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("u"), int):
        return None
    user = User.objects.filter(pk=payload["u"], is_active=True, is_bot=False).first()
    if user is None or not user.email:
        return None
    if not constant_time_compare(str(payload.get("a", "")), _digest(user.email)):
        return None
    return user


def confirm(token: str) -> User | None:
    """Open the link: the account's current address becomes its confirmed one. The address is
    compared again under the row's lock, so a change of address meanwhile wins."""
    user = user_for(token)
    if user is None:
        return None
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.email != user.email:
            return None
        if locked.confirmed_email != locked.email:
            locked.confirmed_email = locked.email
            locked.save(update_fields=["confirmed_email"])
    return locked


def send_link(request: HttpRequest, user: User) -> None:
    """Mail the confirmation link to `user`'s current address, in their language, after the
    transaction that saved it commits. The one mail an unconfirmed address gets."""
    if not user.email or user.is_bot:
        return
    language = user.preferred_language or settings.LANGUAGE_CODE
    base = site_url(request)
    token = make_token(user)
    address = user.email
    with translation.override(language):
        link = base + reverse("accounts:email_confirm", kwargs={"token": token})
        # No name in it: whoever typed the address chose the account's names, and the mail
        # goes to someone who may never have heard of them.
        context = {"link": link}
        subject = "".join(render_to_string(
            "accounts/email/confirm_subject.txt", context).splitlines())
        body = render_to_string("accounts/email/confirm.txt", context)

    def send() -> None:
        try:
            send_mail(subject, body, None, [address])
        except Exception:  # logged; the player can ask for the link again
            log.exception("confirmation e-mail to user %s failed", user.pk)

    transaction.on_commit(send)


def send_link_again(request: HttpRequest, user: User) -> bool:
    """The profile's "Send the link again": False (and nothing sent) over the account's
    limit, or when there is nothing to confirm."""
    if not user.email or user.email == user.confirmed_email:
        return False
    limits = settings.EMAIL_CONFIRM_RATE_LIMIT
    # The username too: a test database that starts its ids afresh meets a cache (Redis)
    # that may still count an earlier run's account of the same id.
    if not ratelimit.hit("confirm", f"{user.pk}:{user.get_username()}", limits["per_user"],
                         limits["window_seconds"]):
        return False
    send_link(request, user)
    return True
