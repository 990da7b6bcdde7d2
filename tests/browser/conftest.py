"""A real uvicorn server on a throwaway SQLite database, and headless Chromium through
Playwright. Only the embedded test run uses them (the distributed run would repeat them)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.logs import ServerLog, check_server_log
from tests.support.servers import uvicorn_server

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="package")
def site_server_log(tmp_path_factory: pytest.TempPathFactory) -> ServerLog:
    """The log of the package's server: every browser test fails on an error in it."""
    return ServerLog(tmp_path_factory.mktemp("browser-server") / "uvicorn.log")


@pytest.fixture(autouse=True)
def _no_error_in_server_log(request: pytest.FixtureRequest) -> Iterator[None]:
    if "site_server" not in request.fixturenames:
        yield
        return
    yield from check_server_log(request, request.getfixturevalue("site_server_log"))


@pytest.fixture(scope="package")
def site_server(site_server_log: ServerLog) -> Iterator[str]:
    from django.conf import settings

    if settings.TROCCAS_MODE == "distributed":
        pytest.skip("browser tests run in the embedded test run only")
    tmp = site_server_log.path.parent
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="troccas_site.settings",
        TROCCAS_SQLITE_PATH=str(tmp / "site.sqlite3"),
        DJANGO_STATIC_ROOT=str(tmp / "static"),
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_DEBUG="0",
        # Bots without their pause (tests/settings.py): the pages are tested, not the pace.
        TROCCAS_BOT_PAUSE_SCALE="0",
    )
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr
    with uvicorn_server(env, site_server_log.path) as base:
        yield base


@pytest.fixture(scope="package")
def browser(site_server: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    # CI installs Debian's chromium (scripts/sysdeps.sh): a missing browser is a failure.
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run scripts/sysdeps.sh"
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                      headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
