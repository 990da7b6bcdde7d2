"""Applies a signed-in player's preferred language on every request."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import translate_url
from django.utils import translation


class UserLanguageMiddleware:
    """After AuthenticationMiddleware: the profile's language beats URL prefix and cookie.

    A GET for a page under another language's prefix is redirected to the same page under the
    player's language (a shared /de/ link opens in Romansh for a Romansh player). Other methods
    are not redirected, since that would drop a form submission; they are answered in the
    language of the page that sent them. The language cookie follows the profile, so the
    choice also holds on pages outside the language prefixes and right after logging out.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = preferred_language(request)
        if language:
            path_language = translation.get_language_from_path(request.path_info)
            if path_language and path_language != language:
                if request.method in ("GET", "HEAD"):
                    current = request.get_full_path()
                    target = translate_url(current, language)
                    if target != current:
                        return set_language_cookie(HttpResponseRedirect(target), language)
                else:
                    # Prefixed URLs resolve under the active language, so switching now
                    # would 404 the submission: answer it in the language of its form.
                    language = ""
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        response = self.get_response(request)
        # Read again: the view may have logged a player in or out, or changed the profile.
        language = preferred_language(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            set_language_cookie(response, language)
        return response


def preferred_language(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
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
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
