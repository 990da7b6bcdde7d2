"""Learn Troccas (issue #28 item 1): the course's page, each lesson's page at the real table,
and the small JSON door its script talks to (docs/protocol.md "Lessons").

Open to everyone, signed in or not; a thin door over games/teaching/course.py. Errors are
{"code", "message"} like the JSON API's, with the same codes and sentences.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.engine.errors import ErrorCode, TroccasError
from games.engine.json_depth import too_deep
from games.services.errors import ServiceError
from games.teaching import course
from games.teaching.lesson_files import lesson, lessons, texts
from games.text.cards import card_names
from games.text.errors import message_for
from games.text.table import ui_strings
from games.views.js_modules import module_graph

LESSON_ENTRY = "js/lesson.js"
# A move is a few dozen bytes.
MAX_BODY_BYTES = 2048


def _you(request: HttpRequest) -> str:
    user = request.user
    return str(user.public_name) if user.is_authenticated else _("You")


def _words(slug: str) -> dict[str, str]:
    return texts(slug, get_language() or settings.LANGUAGE_CODE)


@require_GET
def course_page(request: HttpRequest) -> HttpResponse:
    done = course.finished(request.user, request.session)
    rows = [{"lesson": x, "url": reverse("games:lesson", args=[x.slug]),
             "title": _words(x.slug)["title"], "stars": done.get(x.slug, 0)}
            for x in lessons()]
    first_open = next((r for r in rows if not r["stars"]), None)
    return render(request, "games/learn/course.html", {
        "rows": rows, "finished": sum(1 for r in rows if r["stars"]),
        "resume": first_open, "anonymous": not request.user.is_authenticated})


@require_GET
def lesson_page(request: HttpRequest, slug: str) -> HttpResponse:
    found = lesson(slug)
    if found is None:
        raise Http404
    words = _words(slug)
    frame = course.state(request.session, slug, _you(request))
    user = request.user
    me = {"id": 1, "name": _you(request)}
    config = {
        "code": "lesson", "ws": "", "me": me, "sprite": static("cards/cards.svg"),
        "login": reverse("accounts:login"), "home": reverse("games:home"),
        "invite": "", "matches": reverse("games:matches"), "rules": reverse("games:rules"),
        "favicon_turn": static("img/favicon-turn.svg"),
        "sounds": user.table_sounds if user.is_authenticated else None,
        "sounds_url": None, "csrf": None, "single_card": False, "single_card_url": None,
    }
    lesson_cfg = {
        "move": reverse("games:lesson_move", args=[slug]),
        "restart": reverse("games:lesson_restart", args=[slug]),
        "hint": reverse("games:lesson_hint", args=[slug]),
        "csrf": get_token(request),
        "course": reverse("games:learn"),
    }
    modules = {f"{settings.STATIC_URL}{path}": static(path)
               for path in module_graph(LESSON_ENTRY)}
    import_map = json.dumps({"imports": modules}).replace("<", "\\u003c")
    all_lessons = lessons()
    index = all_lessons.index(found)
    response = render(request, "games/learn/lesson.html", {
        "lesson": found, "words": words, "number": index + 1, "count": len(all_lessons),
        "frame": frame, "table_config": config, "lesson_config": lesson_cfg,
        "ui_strings": ui_strings(), "card_names": card_names(),
        "lesson_strings": lesson_strings(),
        "import_map": mark_safe(import_map),  # noqa: S308 - JSON of static URLs, "<" escaped
        "table_modules": list(modules.values()), "lesson_js": static(LESSON_ENTRY),
    })
    add_never_cache_headers(response)
    return response


def lesson_strings() -> dict[str, str]:
    """The lesson page's own words, for its script."""
    return {
        "right": _("Right"), "wrong": _("Not quite"), "illegal": _("Not allowed"),
        "try_again": _("Try again."), "rule": _("The rule"), "next": _("Next"),
        "continue": _("Continue"), "restart": _("Start the lesson again"),
        "next_lesson": _("Next lesson"), "course": _("All lessons"),
        "stars": _("%(n)s of 3 stars"), "finished": _("Lesson finished"),
        "scene": _("Part %(n)s of %(of)s"), "failed": _("The move could not be sent. Try again."),
    }


def _error(exc: TroccasError) -> JsonResponse:
    code = str(exc.code)
    response = JsonResponse({"code": code, "message": message_for(code)}, status=exc.status,
                            json_dumps_params={"ensure_ascii": False})
    add_never_cache_headers(response)
    return response


def _ok(body: dict[str, Any]) -> JsonResponse:
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    add_never_cache_headers(response)
    return response


def _body(request: HttpRequest) -> Any:
    if len(request.body) > MAX_BODY_BYTES:
        raise ServiceError(ErrorCode.MESSAGE_TOO_LARGE)
    try:
        text = request.body.decode("utf-8")
        if too_deep(text):
            raise ServiceError(ErrorCode.MALFORMED_MESSAGE)
        return json.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ServiceError(ErrorCode.MALFORMED_MESSAGE) from exc


@require_POST
def lesson_move(request: HttpRequest, slug: str) -> JsonResponse:
    try:
        return _ok(course.move(request.session, request.user, slug, _body(request),
                               _you(request)))
    except TroccasError as exc:
        return _error(exc)


@require_POST
def lesson_restart(request: HttpRequest, slug: str) -> JsonResponse:
    try:
        return _ok(course.restart(request.session, slug, _you(request)))
    except TroccasError as exc:
        return _error(exc)


@require_POST
def lesson_hint(request: HttpRequest, slug: str) -> JsonResponse:
    try:
        return _ok(course.hint(request.session, slug))
    except TroccasError as exc:
        return _error(exc)
