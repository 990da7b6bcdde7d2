"""The import contracts of pyproject.toml hold, checked inside the suite as well as by
`make contracts`: a module importing upward through the layers of ARCHITECTURE.md fails here.

The second half proves the contracts would see the three breaks issue #23 mended (a model
reading the rating code, text reading talk, one door importing another): each is added to the
real import graph and the games contract must call it broken.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _config() -> dict[str, Any]:
    config: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())
    linter: dict[str, Any] = config["tool"]["importlinter"]
    return linter


def _contract(name_start: str) -> LayersContract:
    linter = _config()
    [options] = [c for c in linter["contracts"] if c["name"].startswith(name_start)]
    # As importlinter's own reader hands them over: booleans as words.
    options = {k: str(v) if isinstance(v, bool) else v for k, v in options.items()
               if k not in ("name", "type")}
    session = {k: v for k, v in linter.items() if k != "contracts"}
    return LayersContract(name=name_start, session_options=session, contract_options=options)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    # One graph for the module; a test that adds an import or a module takes it out again.
    return grimp.build_graph("games", "accounts", "troccas_site", cache_dir=None)


def test_every_contract_is_kept() -> None:
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_games_contract_is_layered_and_exhaustive() -> None:
    [games] = [c for c in _config()["contracts"] if c["type"] == "layers"
               and c.get("containers") == ["games"]]
    assert games["exhaustive"] is True
    assert "ignore_imports" not in games  # nothing waved through


def test_the_games_contract_is_kept_on_the_real_graph(graph: grimp.ImportGraph) -> None:
    assert _contract("games in layers").check(graph, verbose=False).kept


@pytest.mark.parametrize(("importer", "imported"), [
    ("games.models.standings", "games.history.rating"),
    ("games.text.talk", "games.talk.speech"),
    ("games.views.api", "games.live.protocol"),
    ("games.talk.online", "games.services.presence"),
    ("games.engine.rules", "games.models"),
])
def test_an_upward_or_sideways_import_breaks_it(graph: grimp.ImportGraph, importer: str,
                                                imported: str) -> None:
    assert not graph.direct_import_exists(importer=importer, imported=imported)
    graph.add_import(importer=importer, imported=imported)
    try:
        assert not _contract("games in layers").check(graph, verbose=False).kept
    finally:
        graph.remove_import(importer=importer, imported=imported)


def test_a_new_sub_package_must_be_placed(graph: grimp.ImportGraph) -> None:
    graph.add_module("games.unplaced")
    try:
        assert not _contract("games in layers").check(graph, verbose=False).kept
    finally:
        graph.remove_module("games.unplaced")
