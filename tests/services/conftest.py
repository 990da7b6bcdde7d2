"""The live-table fixtures (tests/support/fixtures.py): a seated `table`, `seeded_decks`, a
channel layer per test, the replay check of every match after each test, and `server_procs`
(the server processes of a distributed-mode test)."""

from tests.support.fixtures import (  # noqa: F401 - fixtures are found by name
    _every_match_replays,
    _fresh_channel_layer,
    seeded_decks,
    server_procs,
    table,
)
