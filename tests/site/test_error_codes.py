"""One error type (games/engine/errors.py): every code the site can send a client is an
ErrorCode, has a sentence (games/text/errors.py) and is translated in rm, de and fr; every code
raised anywhere in games/ is an ErrorCode (ARCHITECTURE.md §4)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from games.engine.cards import CARD_IDS
from games.engine.errors import (
    HTTP_STATUS,
    RULE_CODES,
    ErrorCode,
    OptionsError,
    RuleError,
    TroccasError,
)
from games.engine.state import PHASES
from games.live.protocol import ProtocolError
from games.services.errors import ServiceError
from games.text.errors import MESSAGES, message_for
from games.views.api import ApiError

from .test_i18n import LANGUAGES, ROOT, po_entries

CODES = sorted(ErrorCode)
# Calls whose first argument is an error code.
CODE_CALLS = {"RuleError", "ServiceError", "TalkError", "ProtocolError", "ApiError", "TroccasError",
              "ErrorCode", "_send_error", "message_for"}
UPPER_SNAKE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")
# Upper-case string literals in games/ that are not error codes: phases, card ids, HTTP
# methods, keys of Django's settings and request.META, a format name of Django's.
NOT_CODES = {*PHASES, *CARD_IDS, "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
             "ENGINE", "CONTENT_LENGTH", "TROCCAS_BOT_STATS_DIR", "SHORT_DATETIME_FORMAT"}
# Sentences marked for translation are words ("BUOB"), not codes.
GETTEXT = {"_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy", "ngettext",
           "ngettext_lazy", "gettext_noop"}


def source_files() -> list[Path]:
    return [p for p in sorted((ROOT / "games").rglob("*.py")) if "migrations" not in p.parts]


def _strings(node: ast.expr) -> set[str]:
    """The strings an argument can be: `"A" if c else "B"` gives both, `x or "A"` gives A."""
    if isinstance(node, ast.Constant):
        return {node.value} if isinstance(node.value, str) else set()
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    if isinstance(node, ast.BoolOp):
        return set().union(*(_strings(v) for v in node.values))
    return set()


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else "")


def raised_codes() -> dict[str, set[str]]:
    """code → files, for every code passed to an error class (or `ErrorCode.X` named)."""
    found: dict[str, set[str]] = {}
    for path in source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            codes: set[str] = set()
            if isinstance(node, ast.Call) and _name(node.func) in CODE_CALLS and node.args:
                codes = _strings(node.args[0])
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id == "ErrorCode" and UPPER_SNAKE.match(node.attr)):
                codes = {node.attr}
            for code in codes:
                found.setdefault(code, set()).add(where)
    return found


def upper_snake_literals() -> dict[str, set[str]]:
    """Every UPPER_SNAKE string literal of games/ outside `__all__` lists and gettext
    calls → files."""
    found: dict[str, set[str]] = {}
    for path in source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                skip |= {id(n) for n in ast.walk(node.value)}
            elif isinstance(node, ast.Call) and _name(node.func) in GETTEXT:
                skip |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in skip and len(node.value) > 3
                    and UPPER_SNAKE.match(node.value)):
                found.setdefault(node.value, set()).add(str(path.relative_to(ROOT)))
    return found


# --- the enum and the base exception -------------------------------------------------------

def test_every_code_raised_in_games_is_an_error_code():
    found = raised_codes()
    # The scan does see the four layers' raises.
    assert {"NOT_DEALER", "TEAM_FULL", "MESSAGE_TOO_LARGE", "CSRF_FAILED"} <= set(found)
    unknown = {code: files for code, files in found.items() if code not in ErrorCode.__members__}
    assert unknown == {}


def test_every_upper_snake_literal_in_games_is_a_code_or_known_not_to_be():
    """The wide net: may_watch's refusals, CLOSE_CODES, the history's JSON error…"""
    stray = {s: files for s, files in upper_snake_literals().items()
             if s not in ErrorCode.__members__ and s not in NOT_CODES}
    assert stray == {}, "an error code outside ErrorCode (or add a non-code to NOT_CODES)"


def test_members_are_their_own_names_and_the_engine_codes_are_members():
    assert all(code.value == code.name for code in ErrorCode)
    assert set(RULE_CODES) <= set(ErrorCode)
    assert ErrorCode.NOT_DEALER == "NOT_DEALER"
    assert len(CODES) == 122


def test_a_code_may_be_given_as_its_string_but_an_unknown_one_fails():
    error = ServiceError("TEAM_FULL")
    assert error.code is ErrorCode.TEAM_FULL and str(error) == "TEAM_FULL"
    with pytest.raises(ValueError):
        ServiceError("TEAM_FULLL")
    with pytest.raises(ValueError):
        RuleError("not a code")
    with pytest.raises(ValueError):
        TroccasError("")


def test_every_layer_raises_a_troccas_error_with_its_code():
    rule = RuleError("NOT_DEALER")
    options = OptionsError("match_deals", "must be an integer from 2 to 30")
    protocol = ProtocolError("MISSING_FIELD", "a1", "type")
    api = ApiError(ErrorCode.INVALID_FIELD, "name")
    for error in (rule, options, protocol, api, ServiceError("NOT_SEATED")):
        assert isinstance(error, TroccasError)
    assert rule.code == "NOT_DEALER"
    assert isinstance(options, ValueError) and options.code is ErrorCode.INVALID_OPTIONS
    assert (options.key, options.message) == ("match_deals", "must be an integer from 2 to 30")
    assert str(options) == "match_deals: must be an integer from 2 to 30"
    assert (protocol.code, protocol.action_id, protocol.detail) == ("MISSING_FIELD", "a1", "type")
    assert api.field == "name"


def test_the_status_is_the_codes_unless_the_error_says_otherwise():
    assert TroccasError.status == 400
    assert ServiceError("NOT_SEATED").status == 400
    assert ApiError("ROOM_NOT_FOUND").status == 404 == ErrorCode.ROOM_NOT_FOUND.http_status
    assert ApiError(ErrorCode.MESSAGE_TOO_LARGE).status == 413
    assert ProtocolError("MESSAGE_TOO_LARGE").status == 413
    assert TroccasError("NOT_SEATED", status=409).status == 409
    assert ErrorCode.NOT_SEATED.http_status == 400
    assert all(400 <= status < 600 for status in HTTP_STATUS.values())


# --- every code speaks every language ------------------------------------------------------

def test_every_code_has_a_sentence():
    assert [code for code in CODES if code not in MESSAGES] == []
    assert [code for code in MESSAGES if code not in ErrorCode.__members__] == []


def _msgid(code: ErrorCode) -> str:
    with translation.override(None):
        return str(MESSAGES[code])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_is_translated_in_the_catalog(language):
    po = (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = {msgid: (texts, fuzzy) for msgid, texts, fuzzy in po_entries(po)}
    missing = [code for code in CODES if _msgid(code) not in entries]
    assert missing == []
    untranslated = [code for code in CODES
                    if entries[_msgid(code)][1] or not all(entries[_msgid(code)][0])]
    assert untranslated == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_reads_in_the_language(language):
    with translation.override("en"):
        english = {code: message_for(code) for code in CODES}
    with translation.override(language):
        local = {code: message_for(code) for code in CODES}
    assert [code for code in CODES if not local[code].strip()] == []
    assert [code for code in CODES if local[code] == english[code]] == []
