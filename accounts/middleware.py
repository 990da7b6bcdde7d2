"""Applies a signed-in player's preferred language on every request."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

if TYPE_CHECKING:  # for the annotations only: this module is loaded with the middleware
    from django.contrib.auth.models import AnonymousUser

    from .models import User

# The values Django accepts for a cookie's SameSite attribute.
SameSite = Literal["Lax", "Strict", "None", False] | None


class UserLanguageMiddleware:
    """After AuthenticationMiddleware: the profile's language beats the cookie, not the URL.

    An explicit language prefix wins for that page: a shared /de/ link opens in German for
    everyone, so the URL, the page's language and its links agree (issue #14 item 7). The
    profile picks the language wherever the URL names none (the bare root and unprefixed paths
    are redirected to the player's language) and after logging in (the log-in view sends the
    player to their language). The language cookie follows the profile, so the choice also
    holds on pages outside the language prefixes and right after logging out.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = preferred_language(request)
        if language and not translation.get_language_from_path(request.path_info):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        # Read again: the view may have logged a player in or out, or changed the profile.
        language = preferred_language(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            set_language_cookie(response, language)
        return response


def preferred_language(request: HttpRequest) -> str:
    # No user before AuthenticationMiddleware has run (a response made by an earlier one).
    user: User | AnonymousUser | None = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    language = user.preferred_language
    return language if language in dict(settings.LANGUAGES) else ""


def set_language_cookie(response: HttpResponse, language: str) -> HttpResponse:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        # The settings module assigns a plain "Lax", read as str; Django accepts only these.
        samesite=cast(SameSite, settings.LANGUAGE_COOKIE_SAMESITE),
    )
    return response
