"""The live-table fixtures of tests/games/conftest.py (a channel layer per test, a seated
table, the replay check after every test), for the live layer's own tests."""

from tests.games.conftest import (  # noqa: F401 - fixtures, found by name
    _every_match_replays,
    _fresh_channel_layer,
    seeded_decks,
    table,
)
