"""Trust, issue #13 item 11: the embedded database is readable by its owner alone."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load_settings(path: Path) -> None:
    env = {**os.environ, "TROCCAS_SQLITE_PATH": str(path),
           "DJANGO_SETTINGS_MODULE": "troccas_site.settings"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env,
                   check=True, timeout=60, umask=0o022)


def test_db_sqlite3_is_created_world_readable(tmp_path: Path) -> None:
    db = tmp_path / "site.sqlite3"
    _load_settings(db)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


def test_a_readable_database_left_by_an_older_version_is_tightened(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    db.write_bytes(b"")
    db.chmod(0o644)
    (tmp_path / "old.sqlite3-wal").write_bytes(b"")
    (tmp_path / "old.sqlite3-wal").chmod(0o644)
    _load_settings(db)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "old.sqlite3-wal").stat().st_mode) == 0o600
