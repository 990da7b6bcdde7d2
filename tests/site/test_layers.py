"""The layers stay apart: only games/services/ writes game rows (ARCHITECTURE.md convention 9).

Two halves: a scan of the code for writes to game rows outside the services (it sees code the
suite may never run), and the runtime guard (tests/write_guard.py) that watches every statement
the suite does run — proven here to catch a write from a door and to let the services through.
The import contracts (pyproject.toml, `make contracts`) keep the rest of the layering.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib import admin

from games import services
from games.models import Match, NarrDebt, Room, Round, RoundAction, Seat, Trick
from tests import write_guard

ROOT = Path(__file__).resolve().parents[2]
GAME_MODELS = (Room, Seat, Match, Round, Trick, NarrDebt, RoundAction)
GAME_MODEL_NAMES = {m.__name__ for m in GAME_MODELS}
WRITE_METHODS = {"save", "delete", "update", "create", "get_or_create", "update_or_create",
                 "bulk_create", "bulk_update", "save_base", "raw"}
# Related managers of the game models (room.seats.create(...), match.rounds.update(...)).
GAME_RELATIONS = {"seats", "matches", "rounds", "tricks", "debts", "narr_debts", "actions"}


def _project_sources() -> list[Path]:
    out = []
    for top in ("games", "accounts", "troccas_site"):
        for path in (ROOT / top).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(("games/services/", "games/migrations/")) or "/migrations/" in rel:
                continue
            out.append(path)
    return out


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _writes(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in WRITE_METHODS:
            continue
        receiver = node.func.value
        names = _names_in(receiver)
        if ((names & GAME_MODEL_NAMES and "objects" in names)
                or (isinstance(receiver, ast.Attribute) and receiver.attr in GAME_RELATIONS)):
            found.append((node.lineno, ast.unparse(node.func)))
    return found


def test_no_code_outside_the_services_writes_game_rows() -> None:
    offences = []
    for path in _project_sources():
        for line, call in _writes(ast.parse(path.read_text(), str(path))):
            offences.append(f"{path.relative_to(ROOT)}:{line}: {call}(...)")
    assert offences == []


def test_the_scan_sees_a_write() -> None:
    tree = ast.parse("Room.objects.filter(pk=1).update(closed=None)\n"
                     "match.rounds.create(number=2)\n"
                     "FAQEntry.objects.create(question='q')\n")
    assert [line for line, _ in _writes(tree)] == [1, 2]


@pytest.mark.parametrize("model", GAME_MODELS, ids=lambda m: m.__name__)
def test_the_admin_writes_no_game_row_through_a_form(model, rf, superuser) -> None:
    model_admin = admin.site._registry[model]
    request = rf.get("/")
    request.user = superuser
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    for inline in model_admin.get_inline_instances(request):
        assert not inline.has_change_permission(request)
        assert not inline.has_delete_permission(request)


@pytest.fixture
def superuser(make_user):
    return make_user("root-admin", is_staff=True, is_superuser=True)


def _run_as(path: Path, source: str, scope: dict) -> None:
    """Run `source` as if it were code of `path` (the guard judges a write by its stack)."""
    exec(compile(source, str(path), "exec"), scope)  # noqa: S102 - test-only, fixed source


@pytest.mark.django_db(transaction=True)
def test_the_guard_catches_a_door_writing_a_game_row(owner) -> None:
    room = services.create_room(owner)
    seen = len(write_guard.violations)
    _run_as(ROOT / "games" / "views" / "a_careless_door.py",
            "Room.objects.filter(pk=pk).update(name='renamed')",
            {"Room": Room, "pk": room.pk})
    caught = write_guard.violations[seen:]
    del write_guard.violations[seen:]  # this test's own offence, on purpose
    assert len(caught) == 1
    assert "games_room" in caught[0] and "games/views/a_careless_door.py" in caught[0]


@pytest.mark.django_db(transaction=True)
def test_the_guard_lets_the_services_write(owner) -> None:
    seen = len(write_guard.violations)
    _run_as(ROOT / "games" / "views" / "a_careful_door.py",
            "room = services.create_room(owner, name='Stiva')", {"services": services,
                                                               "owner": owner})
    assert write_guard.violations[seen:] == []
    assert Room.objects.filter(name="Stiva").exists()
