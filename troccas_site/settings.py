"""Troccas Online settings: one file, driven by the environment.

Two modes, one code path (docs/decisions.md, ARCHITECTURE.md "Two modes"):

* embedded (default, no environment variables): SQLite in WAL mode with IMMEDIATE transactions,
  Channels' in-memory layer, a local-memory cache and timers run inside the ASGI process. One
  process serves everything, static files included.
* distributed (``REDIS_URL`` set, normally together with ``DATABASE_URL``): channels-redis, the
  cache on Redis and Celery (worker + beat) on Redis, so any number of ASGI processes can serve
  any table. ``DATABASE_URL`` picks the database independently (PostgreSQL through psycopg 3).

Everything secret or host-specific comes from ``DJANGO_*`` variables with safe local defaults;
``DJANGO_HTTPS=1`` turns on the transport-security settings that ``check --deploy`` asks for.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from csp import constants as csp_constants
from django.conf.locale import LANG_INFO
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

# Django's generic classes (ModelAdmin[Model], QuerySet[Model], ...) subscriptable at run time,
# as the type checker reads them (django-stubs); a no-op for everything else.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """A boolean from the environment: 1/true/yes/on and 0/false/no/off, any case."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list from the environment; blanks are dropped."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from exc


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}") from exc


def local_secret_key(path: Path) -> str:
    """A random key kept in a git-ignored file, so a machine without DJANGO_SECRET_KEY never
    runs on a key that is public in the repository. Created atomically: several processes
    starting at once agree on one key."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="utf-8").strip()
        if key:
            return key
        # An empty file means a concurrent writer has not finished: fall through and write.
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    key = secrets.token_urlsafe(50)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(key)
    return key


# --- Mode -----------------------------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
# Redis is what lets several processes share sockets, timers and the cache; without it
# everything must live in one process, which is the embedded mode.
TROCCAS_MODE = "distributed" if REDIS_URL else "embedded"
if DATABASE_URL and not REDIS_URL:
    # PostgreSQL with the in-memory channel layer would silently split tables between
    # processes; refuse rather than half-work.
    raise ImproperlyConfigured(
        "DATABASE_URL is set but REDIS_URL is not: the distributed mode needs both "
        "(unset DATABASE_URL for the embedded mode)."
    )

# --- Core -----------------------------------------------------------------------------------

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip() or local_secret_key(
    BASE_DIR / ".secret_key"
)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
# The port the site is served on (`make run PORT=8300` passes it): the default trusted origins
# follow it. The websocket handshake and the JSON API compare the whole origin, port included
# (games/live/origin.py, docs/protocol.md §3).
SITE_PORT = env_int("DJANGO_PORT", 8000)
CSRF_TRUSTED_ORIGINS = env_list(
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    [f"http://127.0.0.1:{SITE_PORT}", f"http://localhost:{SITE_PORT}"],
)

INSTALLED_APPS = [
    # modeltranslation must come before the admin so its tabbed forms take over.
    "modeltranslation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "accounts.apps.AccountsConfig",
    "games.apps.GamesConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Serves /static/ from the ASGI process itself: the embedded mode needs no proxy.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a signed-in player's preferred language wins over URL and cookie.
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "troccas_site.urls"
ASGI_APPLICATION = "troccas_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            # Under ASGI each request may run in a different thread; persistent connections
            # are opt-in (DB_CONN_MAX_AGE) rather than leaked by default.
            conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
            conn_health_checks=True,
        )
    }
    if env_bool("DB_POOL", False):
        # psycopg's connection pool (Django 5.1+), per process: every socket call and HTTP
        # request borrows a connection and returns it when Django closes it, so no thread
        # keeps one (ASGI runs requests on fresh threads) and no call pays for a new backend
        # or a health-check query (bench/ws_load.py). A connection that broke while pooled
        # fails its next statement once and is then dropped by the pool. On for the servers
        # (docker-compose, the benches, the multi-process tests); off in the pytest process
        # itself, where pytest-django's per-test teardown strands a borrowed connection now
        # and then (docs/decisions.md).
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env_int("DB_POOL_MIN", 2),
            "max_size": env_int("DB_POOL_MAX", 20),
            "timeout": env_int("DB_POOL_TIMEOUT", 10),
        }
    # The hot path's fixed statements are prepared on each connection (troccas_site/prepared.py);
    # off for a pooler in front of PostgreSQL that loses prepared statements.
    TROCCAS_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
    # A player's move is written without BEGIN, COMMIT and the room's row lock when it can be:
    # read, then one statement that compare-and-sets the version (games/services/sql.py
    # `unlocked_block`); off: every command takes the lock, as every other writer does.
    TROCCAS_OPTIMISTIC_WRITES = env_bool("DB_OPTIMISTIC_WRITES", True)
    # ... and sent from the socket's own event loop, not a database thread
    # (games/services/writer.py `submit_move`).
    TROCCAS_LOOP_WRITES = env_bool("DB_LOOP_WRITES", True)
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_URL must point at PostgreSQL (postgres://...).")
else:
    TROCCAS_PREPARED_STATEMENTS = False  # SQLite: nothing to prepare across a network
    TROCCAS_OPTIMISTIC_WRITES = False  # SQLite has one writer at a time anyway
    TROCCAS_LOOP_WRITES = False
    SQLITE_PATH = os.environ.get("TROCCAS_SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "OPTIONS": {
                # IMMEDIATE takes the write lock at BEGIN, so two writers queue on the busy
                # timeout instead of one failing with "database is locked" mid-transaction.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                # WAL lets readers (page views, resyncs) proceed while a table is written.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Each thread keeps its connection: opening one (and Django registering its SQL
            # functions on it) for every socket frame was a tenth of the embedded process's
            # CPU at 320 tables (issue #16). A file on this machine: nothing to go stale.
            "CONN_MAX_AGE": None,
        }
    }
    # The database holds every hand of every running deal and the password hashes: readable by
    # its owner alone, whatever the umask. SQLite gives its -wal and -shm files the database
    # file's permissions, so creating the file ourselves (mode 0600) is enough; a file left
    # readable by an older version is tightened.
    if SQLITE_PATH != ":memory:" and not SQLITE_PATH.startswith("file:"):
        try:
            os.close(os.open(SQLITE_PATH, os.O_CREAT | os.O_RDWR, 0o600))
            for _suffix in ("", "-wal", "-shm"):
                if os.path.exists(SQLITE_PATH + _suffix):
                    os.chmod(SQLITE_PATH + _suffix, 0o600)
        except OSError:
            pass  # a directory that is not there: SQLite says so when it first connects

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache, channel layer, Celery -----------------------------------------------------------

# The longest countdown any timer schedules: the turn timer's maximum (RULES.md §14,
# turn_seconds up to 120; the reveal window is at most 30).
TROCCAS_LONGEST_COUNTDOWN_SECONDS = 120
# Every timer task and deadline sweep fires only if the table has not moved on, so the
# embedded loop and Celery beat share this interval. It bounds how late a lost timer fires
# (a killed worker's ETA task is only redelivered after visibility_timeout): 2 s keeps even the
# shortest reveal window (2 s, RULES.md §14) from stalling longer than itself, and a sweep that
# finds nothing is one indexed query on Round.deadline.
TROCCAS_SWEEP_SECONDS = 2
# The wall-clock budget of one bot decision (games/services/bots/turns.py); the sweep above also
# wakes the bots whose wake-up was lost. Embedded mode: the worker threads that run the bots.
# 50 ms: the strong bot of issue #27 is at least as strong there as the bot before it was at
# 200 ms (bench/bot_arena.py; docs/operations.md "Bots, round two"), for a quarter of the CPU.
TROCCAS_BOT_BUDGET_MS = env_int("TROCCAS_BOT_BUDGET_MS", 50)
# A hint's search (games/teaching/hints.py, issue #28 item 2): the strong bot's judgement of
# every option, spent in full; the reply's p95 is to stay under 500 ms (bench/teaching.py).
TROCCAS_HINT_BUDGET_MS = env_int("TROCCAS_HINT_BUDGET_MS", 300)
# A deal's review (games/teaching/reviews.py, issue #28 item 3): each of the player's decisions
# with a choice judged at this budget, in the background; a deal has at most 20 such
# decisions, so a review takes about 20 s of one worker at most (bench/teaching.py: ≤ 25 s).
TROCCAS_REVIEW_BUDGET_MS = env_int("TROCCAS_REVIEW_BUDGET_MS", 900)
TROCCAS_BOT_THREADS = env_int("TROCCAS_BOT_THREADS", 2)
# Overloaded bot runners halve the budget down to this floor (games/services/bots/budget.py):
# below it a strong bot's search is hardly better than the cheapest card, and a turn's fixed
# cost (load, replay, submit, broadcast) dominates. Set it to the full budget to pin it there.
TROCCAS_BOT_BUDGET_FLOOR_MS = env_int("TROCCAS_BOT_BUDGET_FLOOR_MS", 20)
# How long a bot pauses before its move reaches the table, from the moment the table's previous
# action was accepted, per player's choice (accounts.User.bot_speed; the slowest of the people
# seated holds): a person can follow the trick, and the pause hides how long the bot thought,
# which would tell its hand (issue #24 item 14, issue #25 item 11; games/services/bots/pace.py).
# Each pause is the speed's value times a factor in [0.8, 1.2]; never below the strong bot's
# budget plus its overrun slack. TROCCAS_BOT_PAUSE_SCALE multiplies them all; 0 turns the
# pause off (the tests and the capacity bench; no production site should).
TROCCAS_BOT_PAUSE_SECONDS = {"fast": 0.5, "normal": 1.0, "slow": 2.0}
TROCCAS_BOT_PAUSE_SCALE = env_float("TROCCAS_BOT_PAUSE_SCALE", 1.0)
# bench/bot_capacity.py only: each bot runner process writes its budget figures (effective
# budget, lag, decisions per budget) to a JSON file in this folder (games/services/bots/budget.py).
TROCCAS_BOT_STATS_DIR = os.environ.get("TROCCAS_BOT_STATS_DIR", "")
# bench/ws_load.py only: mounts a bare websocket echo at /ws/echo/ (games/live/routing.py) to
# compare the table's latency with. Never on in production.
TROCCAS_BENCH_ECHO = env_bool("TROCCAS_BENCH_ECHO", False)

if TROCCAS_MODE == "distributed":
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "troccas",
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.channel_layer.BatchingRedisChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": "troccas-asgi",
                # channels-redis queues every message for one ASGI process's sockets under ONE
                # key and counts `capacity` against that key: its default of 100 made
                # group_send silently drop table updates once 100 were waiting for a busy
                # process (bench/ws_load.py: lost updates at 60 tables on one process). Each
                # message is one table update (a few kB), so 5000 bounds Redis memory at some
                # 25 MB per stalled process; `expiry` drops what nobody read within a minute.
                "capacity": env_int("CHANNEL_LAYER_CAPACITY", 5000),
                "expiry": env_int("CHANNEL_LAYER_EXPIRY", 60),
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # Channels' in-memory layer without its sweep of every queue on every message (issue #16).
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.live.memory_layer.LeanInMemoryChannelLayer"}}
    # No broker exists in the embedded mode: timers call the task functions in-process. The
    # in-memory transport keeps "import celery" and an accidental .delay() from dialling Redis.
    CELERY_BROKER_URL = "memory://"

CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Timer tasks are idempotent (they fire only at the version they were scheduled for), so a
# task may be redelivered safely; acknowledging late means a killed worker loses none.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers an unacknowledged message after visibility_timeout. It must be far above
# the longest countdown, or a task scheduled with a countdown would be delivered twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 60 * 60}
# The deadline sweep (ARCHITECTURE.md convention 8): heals lost timer tasks and killed
# workers. Celery beat runs only in the distributed mode; the embedded loop sweeps otherwise.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {}
# Connection rows left by a process that died without cleaning up are purged this often (by
# the embedded sweep loop, or Celery beat): they only count against the per-user socket cap.
TROCCAS_CONNECTION_PURGE_SECONDS = 60
# Find a game (games/services/matchmaking.py): a wait ends with "no table formed" after
# TROCCAS_QUEUE_MAX_WAIT seconds; a player with no open socket keeps their place for
# TROCCAS_QUEUE_GRACE_SECONDS (a reload, a train tunnel); the queue's sweep runs this often.
TROCCAS_QUEUE_MAX_WAIT = env_int("TROCCAS_QUEUE_MAX_WAIT", 1800)
TROCCAS_QUEUE_GRACE_SECONDS = env_int("TROCCAS_QUEUE_GRACE_SECONDS", 60)
TROCCAS_QUEUE_SWEEP_SECONDS = env_int("TROCCAS_QUEUE_SWEEP_SECONDS", 5)
# Tournament rounds (issue #26 item 5, games/clubs/rounds.py): how often the due round
# transitions are made (pairing, start, a finished table noticed, the close); Celery beat's
# "sweep-tournaments" in the distributed mode, the embedded timer loop otherwise.
TROCCAS_TOURNAMENT_SWEEP_SECONDS = env_int("TROCCAS_TOURNAMENT_SWEEP_SECONDS", 5)
# Rooms a person opens through the new-room form or the API (issue #25 item 12): at most this
# many open lobbies (rooms not closed, no match started yet) per account, and at most
# `per_hour` opened in the window (games/services/rooms.py open_room).
TROCCAS_MAX_OPEN_ROOMS = env_int("TROCCAS_MAX_OPEN_ROOMS", 5)
TROCCAS_ROOM_CREATION_RATE = {
    "per_hour": env_int("TROCCAS_ROOM_CREATION_PER_HOUR", 10),
    "window_seconds": 3600,
}
# Issue #25 item 1: a running match with no person connected to its room (seated or
# watching) for this many minutes is ended as abandoned (games/services/idle.py, run with the
# purge above) — but for a paused practice table, which waits for its person; and an account
# may own this many open rooms with a bot seated (Play now and seat_bot refuse another:
# BOT_TABLES_CAPPED).
TROCCAS_IDLE_MATCH_MINUTES = env_int("TROCCAS_IDLE_MATCH_MINUTES", 10)
TROCCAS_MAX_BOT_TABLES = env_int("TROCCAS_MAX_BOT_TABLES", 3)
if TROCCAS_MODE == "distributed":
    CELERY_BEAT_SCHEDULE["sweep-deadlines"] = {
        "task": "games.sweep_deadlines",
        "schedule": float(TROCCAS_SWEEP_SECONDS),
        # While no worker runs, sweeps pile up in the queue; a minute-old one is dropped
        # unrun (a newer one does its work). Generous, so a busy queue never expires them all.
        "options": {"expires": 60},
    }
    CELERY_BEAT_SCHEDULE["sweep-queue"] = {
        "task": "games.sweep_queue",
        "schedule": float(TROCCAS_QUEUE_SWEEP_SECONDS),
        "options": {"expires": TROCCAS_QUEUE_SWEEP_SECONDS * 6},
    }
    CELERY_BEAT_SCHEDULE["sweep-tournaments"] = {
        "task": "games.sweep_tournaments",
        "schedule": float(TROCCAS_TOURNAMENT_SWEEP_SECONDS),
        "options": {"expires": TROCCAS_TOURNAMENT_SWEEP_SECONDS * 6},
    }
    CELERY_BEAT_SCHEDULE["purge-connections"] = {
        "task": "games.purge_connections",
        "schedule": float(TROCCAS_CONNECTION_PURGE_SECONDS),
        "options": {"expires": TROCCAS_CONNECTION_PURGE_SECONDS},
    }

# --- Authentication -------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "accounts.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.password_validation.MinimumLengthValidator"},
    {"NAME": "accounts.password_validation.CommonPasswordValidator"},
    {"NAME": "accounts.password_validation.NumericPasswordValidator"},
]

# Failed log-ins allowed per username and address, and per address alone, in one window.
# Every log-in (the page, the API, the admin) goes through the rate limiter (issue #13).
AUTHENTICATION_BACKENDS = ["accounts.backends.RateLimitedModelBackend"]
LOGIN_RATE_LIMIT = {
    "per_user": env_int("LOGIN_RATE_LIMIT_PER_USER", 5),
    "per_ip": env_int("LOGIN_RATE_LIMIT_PER_IP", 20),
    "window_seconds": env_int("LOGIN_RATE_LIMIT_WINDOW", 300),
}

# Password-reset requests per mailbox and per client address in one window (issue #25 item 2):
# over either, the page answers as always and nothing is sent.
PASSWORD_RESET_RATE_LIMIT = {
    "per_address": env_int("PASSWORD_RESET_RATE_LIMIT_PER_ADDRESS", 3),
    "per_ip": env_int("PASSWORD_RESET_RATE_LIMIT_PER_IP", 10),
    "window_seconds": env_int("PASSWORD_RESET_RATE_LIMIT_WINDOW", 3600),
}
# An address gets mail only once its owner opened the link sent to it (accounts/email_confirm.py):
# the link works this long; "Send the link again" is allowed this often per account.
EMAIL_CONFIRM_MAX_AGE = env_int("EMAIL_CONFIRM_MAX_AGE", 3 * 24 * 3600)
EMAIL_CONFIRM_RATE_LIMIT = {
    "per_user": env_int("EMAIL_CONFIRM_RATE_LIMIT_PER_USER", 3),
    "window_seconds": env_int("EMAIL_CONFIRM_RATE_LIMIT_WINDOW", 3600),
}
# The site's own address for links in mail, e.g. "https://troccas.example" (no path). Empty:
# the request's scheme and host, which Django checks against ALLOWED_HOSTS. Set it wherever
# ALLOWED_HOSTS is wide ("*"): then a client's Host header is not to be trusted in a mail.
TROCCAS_SITE_URL = os.environ.get("TROCCAS_SITE_URL", "").strip().rstrip("/")

# --- Internationalisation -------------------------------------------------------------------

# Django ships no Romansh; teach it the name so the switcher and get_language_info know it.
LANG_INFO["rm"] = {
    "bidi": False,
    "code": "rm",
    "name": "Romansh",
    "name_local": "Rumantsch",
}

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("rm", _("Romansh")),
    ("de", _("German")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Numeric Swiss date formats for Romansh (Django has none); see troccas_site/formats/.
FORMAT_MODULE_PATH = ["troccas_site.formats"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Zurich")
LANGUAGE_COOKIE_NAME = "troccas_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"

MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_LANGUAGES = ("en", "rm", "de", "fr")
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files with far-future cache headers, served by WhiteNoise.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- Mail -----------------------------------------------------------------------------------

DEFAULT_FROM_EMAIL = os.environ.get(
    "DJANGO_DEFAULT_FROM_EMAIL", "Troccas Online <noreply@localhost>"
)
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    # Locally, password-reset mail is printed where the server runs.
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# --- Security -------------------------------------------------------------------------------

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy (django-csp): everything from this origin, no inline script or style.
# The one inline script a page has, the table's import map, carries the request's nonce; the
# JSON data blocks (json_script) are not executed. 'self' covers the same-origin websocket.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp_constants.SELF],
        "script-src": [csp_constants.SELF, csp_constants.NONCE],
        "style-src": [csp_constants.SELF],
        "img-src": [csp_constants.SELF, "data:"],
        "font-src": [csp_constants.SELF],
        "connect-src": [csp_constants.SELF],
        "object-src": [csp_constants.NONE],
        "base-uri": [csp_constants.SELF],
        "form-action": [csp_constants.SELF],
        "frame-ancestors": [csp_constants.NONE],
    },
}

if env_bool("DJANGO_BEHIND_PROXY", False):
    # Only behind a proxy that sets this header itself; otherwise clients could forge it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

if env_bool("DJANGO_HTTPS", False):
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)

# --- Logging --------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
    },
}
