"""Settings of the test process (pyproject.toml: DJANGO_SETTINGS_MODULE): the product's own
settings, both modes, with one change.

The servers and workers that tests start in subprocesses (tests/servers.py, tests/games/procs.py,
bench/ws_load.py) run on troccas_site.settings unchanged: they never check the password of a user
made here (those log in through sessions; the session's hash is an HMAC of the stored password
string, not a password check), and demo or browser users are made by the servers themselves.
"""

from troccas_site.settings import *  # noqa: F403

# Users are created by the hundred; the product's PBKDF2 costs some 0.3 s per hash and check.
# Only ever for tests: MD5 is no password hash.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
