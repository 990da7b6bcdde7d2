"""accounts/signed_in.py: the signed-in player of a request, as the site's own user model, for
the views whose guard (login_required, the admin, their own refusal) already let only a
signed-in player through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from accounts.models import User
from accounts.signed_in import signed_in_user

pytestmark = pytest.mark.django_db


def _through_middleware(request: HttpRequest) -> HttpRequest:
    """The request as a view sees it: session and user filled by Django's middleware."""
    def view(_request: HttpRequest) -> HttpResponse:
        return HttpResponse()

    SessionMiddleware(view)(request)
    AuthenticationMiddleware(view)(request)
    return request


def test_it_is_the_request_user_itself(make_user: Callable[..., Any]) -> None:
    user = make_user("ada")
    request = RequestFactory().get("/")
    request.user = user
    assert signed_in_user(request) is user


def test_the_lazy_user_of_a_session_is_the_signed_in_player(
        make_user: Callable[..., Any]) -> None:
    """Through the middleware request.user is a lazy wrapper: it reads as that player."""
    user = make_user("bea")
    client = Client()
    client.force_login(user)
    request = RequestFactory().get("/")
    request.COOKIES.update({name: morsel.value for name, morsel in client.cookies.items()})
    me = signed_in_user(_through_middleware(request))
    assert isinstance(me, User)
    assert me.pk == user.pk and me.public_name == user.public_name
