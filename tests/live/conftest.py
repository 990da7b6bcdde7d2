"""The live-table fixtures (tests/support/fixtures.py): a seated `table`, `seeded_decks`, a
channel layer per test, the replay check of every match after each test, `server_procs`
(the server processes of a distributed-mode test), and a failure for any ERROR record logged
while a test ran (tests/support/logs.py, issue #24 item 12)."""

from tests.support.fixtures import (  # noqa: F401 - fixtures are found by name
    _every_match_replays,
    _fresh_channel_layer,
    seeded_decks,
    server_procs,
    table,
)
from tests.support.logs import _no_error_records  # noqa: F401 - autouse, found by name
