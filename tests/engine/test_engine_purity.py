"""ARCHITECTURE.md convention 1 — the engine is a library: stdlib only, no clock, no global random.

Every module under games/engine is parsed with `ast`; none may import Django, Channels, Celery,
a clock (time, datetime), randomness (random, secrets), os, threading or asyncio. The
exceptions are games/engine/playout.py and fast.py, which take an injected random.Random and
may import `random` for that type — but, like every module, never call a module-level
`random.` function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))
FORBIDDEN = {"django", "channels", "celery", "time", "datetime", "random", "secrets", "os",
             "threading", "asyncio"}
RANDOM_ALLOWED = {"playout.py", "fast.py"}
# random.Random is a type; these are the only attributes of the module allowed anywhere.
RANDOM_TYPES = {"Random"}


def _imported_roots(tree: ast.AST) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name.split(".")[0], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.module.split(".")[0], node.lineno))
    return out


def test_engine_modules_were_found():
    names = {p.name for p in MODULES}
    assert {"__init__.py", "cards.py", "rules.py", "state.py", "buob.py", "playout.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_imports_nothing_forbidden(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = []
    for root, line in _imported_roots(tree):
        if root not in FORBIDDEN:
            continue
        if root == "random" and path.name in RANDOM_ALLOWED:
            continue
        bad.append(f"{path.name}:{line} imports {root}")
    assert not bad, bad


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_uses_no_module_level_random_function(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "random" and node.attr not in RANDOM_TYPES):
            bad.append(f"{path.name}:{node.lineno} random.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            names = {a.name for a in node.names}
            if names - RANDOM_TYPES:
                bad.append(f"{path.name}:{node.lineno} from random import {sorted(names)}")
    assert not bad, bad


def test_the_purity_check_itself_catches_offenders():
    tree = ast.parse("import os\nfrom django.db import models\nimport random\nrandom.shuffle(x)\n")
    assert {r for r, _ in _imported_roots(tree)} == {"os", "django", "random"}
