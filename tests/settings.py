"""Settings of the test process (pyproject.toml: DJANGO_SETTINGS_MODULE): the product's own
settings, both modes, with one change.

The servers and workers that tests start in subprocesses (tests/support/servers.py,
bench/ws_load.py) run on troccas_site.settings unchanged: they never check the password of a user
made here (those log in through sessions; the session's hash is an HMAC of the stored password
string, not a password check), and demo or browser users are made by the servers themselves.
"""

import os as _os

# Under pytest-xdist (`make test`), each worker process of the distributed run gets a Redis
# database index of its own for the site's cache, channel layer and broker, so two workers'
# tables never meet; the first keeps REDIS_URL's own. The indexes 9-15 are reserved for single
# test modules (tests/support/servers.py), 10 and 12 for the benches.
_WORKER = _os.environ.get("PYTEST_XDIST_WORKER", "")
if _WORKER.startswith("gw") and _os.environ.get("REDIS_URL", "").strip():
    _INDEXES = (None, 8, 7, 6, 5, 4)
    _n = int(_WORKER[2:])
    if _n >= len(_INDEXES):
        raise RuntimeError(f"no Redis index for xdist worker {_WORKER}: run at most "
                           f"{len(_INDEXES)} workers")
    if _INDEXES[_n] is not None:
        _os.environ["REDIS_URL"] = (_os.environ["REDIS_URL"].strip().rsplit("/", 1)[0]
                                    + f"/{_INDEXES[_n]}")

from troccas_site.settings import *  # noqa: E402, F403

# Users are created by the hundred; the product's PBKDF2 costs some 0.3 s per hash and check.
# Only ever for tests: MD5 is no password hash.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The embedded mode's test database on a file, as the product runs it, not SQLite's shared
# in-memory cache: there, two threads writing at once (the bots' worker threads, the timer
# loop) fail at once with "database table is locked" instead of queuing on the busy timeout.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    import tempfile as _tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": _os.path.join(_tempfile.gettempdir(), f"troccas-test-{_os.getpid()}.sqlite3"),
    }

# Bots play as soon as they have decided (games/services/bots/pace.py): the suite drives
# thousands of bot moves, and a pause of a second each would multiply its time. The pace's own
# tests turn it back on (tests/services/bots/test_pace.py); the servers and workers the tests
# start get the same through their environment (tests/support/servers.py, tests/browser).
TROCCAS_BOT_PAUSE_SCALE = 0.0
