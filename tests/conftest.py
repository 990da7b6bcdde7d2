"""Shared fixtures. Nothing here touches the database unless a test asks for a fixture that
does, so tests/engine keeps running without one. The people are those of tests/personas.py."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests import personas

PASSWORD = "table-talk-4711"
_counter = itertools.count(1)
# Differs per run: Redis (the distributed run's cache) outlives a test session.
_RUN = secrets.token_hex(2)


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's default language: a request through the test client
    leaves its page's language active in the thread, which would otherwise leak into the next
    test's `reverse()` and strings."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _no_bot_threads_left() -> Iterator[None]:
    """A websocket test starts the embedded bot pool, as the ASGI process does on its first
    socket; stopping it after each test keeps its worker threads from playing into the next
    test's tables (or after the test's database access has ended)."""
    yield
    from games.live import bot_pool

    if bot_pool.embedded.running:
        bot_pool.embedded.stop()


@pytest.fixture(autouse=True)
def _no_loop_connections_left() -> Iterator[None]:
    """A websocket test's moves are written from its event loop over connections of that
    loop's own (games/services/backends.py); the loop ends with the test, and its
    connections are closed with it, so none holds the test database open."""
    yield
    from games.services import backends

    backends.close_all()


@pytest.fixture(autouse=True, scope="session")
def _plain_static_storage() -> Iterator[None]:
    """Pages render {% static %}; the manifest storage would need collectstatic first. The
    manifest itself is exercised by tests/site/test_server.py against a real server."""
    from django.test import override_settings

    override = override_settings(
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
    )
    override.enable()
    yield
    override.disable()


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    """Creates a player with the shared test password; names are unique per call so the
    login rate limiter (Redis in the distributed run) never sees one name twice."""
    from accounts.models import User

    def make(name: str = "player", **fields: Any) -> User:
        username = f"{name}{next(_counter)}x{_RUN}"
        fields.setdefault("display_name", name.capitalize())
        fields.setdefault("email", f"{username}@example.org")
        return User.objects.create_user(username=username, password=PASSWORD, **fields)

    return make


@pytest.fixture
def owner(make_user: Callable[..., Any]) -> Any:
    """Seat 0, team A: opens the room (personas.OWNER)."""
    return make_user(personas.OWNER.name, preferred_language="en")


@pytest.fixture
def players(make_user: Callable[..., Any]) -> list[Any]:
    """Anna, Benedetg and Curdin, for seats 1-3: with the owner, a full table."""
    return [make_user(p.name) for p in personas.PLAYERS]


@pytest.fixture
def outsider(make_user: Callable[..., Any]) -> Any:
    """Signed in, never sat down at the table."""
    return make_user(personas.OUTSIDER.name)


@pytest.fixture
def spectator(make_user: Callable[..., Any]) -> Any:
    """Signed in, looks on without a seat."""
    return make_user(personas.SPECTATOR.name)
