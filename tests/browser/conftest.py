"""A real uvicorn server on a throwaway SQLite database, and headless Chromium through
Playwright. Only the embedded test run uses them (the distributed run would repeat them)."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="package")
def site_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from django.conf import settings

    if settings.TROCCAS_MODE == "distributed":
        pytest.skip("browser tests run in the embedded test run only")
    tmp = tmp_path_factory.mktemp("browser-server")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="troccas_site.settings",
        TROCCAS_SQLITE_PATH=str(tmp / "site.sqlite3"),
        DJANGO_STATIC_ROOT=str(tmp / "static"),
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_DEBUG="0",
    )
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr
    port = _free_port()
    log = open(tmp / "uvicorn.log", "w+b")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "troccas_site.asgi:application", "--host",
         "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"uvicorn did not come up:\n{log.read().decode()}")
            time.sleep(0.2)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=5)
        log.close()


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
