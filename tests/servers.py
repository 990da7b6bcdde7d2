"""A real uvicorn process for end-to-end tests: started in its own process group, waited for
on /healthz, and always killed (group and all) when the test is done, pass or fail."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def uvicorn_server(env: dict[str, str], log: IO[bytes], *, ready_timeout: float = 60
                   ) -> Iterator[str]:
    """Serve troccas_site.asgi on a free loopback port; yield its base URL."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "troccas_site.asgi:application", "--host",
         "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_timeout
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
