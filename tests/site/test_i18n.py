"""Catalogs: complete for every string the source marks, and compiled so each language loads."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("rm", "de", "fr")


def po_entries(po_text: str) -> list[tuple[str, list[str], bool]]:
    """(msgid, translations, fuzzy) per entry, with continued strings joined."""
    entries = []
    for block in po_text.split("\n\n"):
        lines = [line for line in block.strip().splitlines() if not line.startswith("#~")]
        if not lines:
            continue
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        current = None
        for line in lines:
            match = re.match(r'^(msgid|msgid_plural|msgctxt|msgstr(?:\[\d+\])?) (".*")$', line)
            if match:
                current = match.group(1)
                fields[current] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and current:
                fields[current] += ast.literal_eval(line)
        if "msgid" in fields:
            translations = [v for k, v in fields.items() if k.startswith("msgstr")]
            entries.append((fields["msgid"], translations, fuzzy))
    return entries


def untranslated(po_text: str) -> list[str]:
    """msgids whose translation is missing or fuzzy (the header entry excluded)."""
    return [
        msgid
        for msgid, translations, fuzzy in po_entries(po_text)
        if msgid and (fuzzy or not translations or any(t == "" for t in translations))
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_committed_catalogs_are_complete(language):
    po = (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert f"Language: {language}" in po
    assert untranslated(po) == []


@pytest.mark.timeout(240)
def test_every_marked_string_is_in_every_catalog(tmp_path):
    """Extract the source's strings afresh (in a copy, so the working catalogs are untouched)
    and require a translation for each: a new string without one fails here."""
    copy = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.mo", "*.pyc")
    for name in ("accounts", "games", "templates", "troccas_site", "locale"):
        shutil.copytree(ROOT / name, copy / name, ignore=ignore)
    shutil.copy(ROOT / "manage.py", copy / "manage.py")
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-location", "--no-obsolete",
         *[f"-l{code}" for code in LANGUAGES]],
        cwd=copy, capture_output=True, text=True, timeout=200,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "troccas_site.settings",
             "DJANGO_SECRET_KEY": "x" * 50, "TROCCAS_SQLITE_PATH": str(tmp_path / "db")},
    )
    assert result.returncode == 0, result.stderr
    missing = {
        code: untranslated(
            (copy / "locale" / code / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
        )
        for code in LANGUAGES
    }
    assert missing == {code: [] for code in LANGUAGES}, (
        "untranslated strings: run `python manage.py makemessages -l rm -l de -l fr "
        "--ignore=.venv --ignore=tests --ignore=bench --no-location --no-obsolete` and "
        "translate them (GLOSSARY.md terms)"
    )


@pytest.mark.parametrize(
    ("language", "expected"),
    [("rm", "Maisas avertas"), ("de", "Offene Tische"), ("fr", "Tables ouvertes"),
     ("en", "Open tables")],
)
def test_compiled_catalogs_load(language, expected):
    with translation.override(language):
        assert translation.gettext("Open tables") == expected


def test_django_strings_shown_to_players_are_ours_in_romansh():
    """Django has no Romansh catalog: what forms show comes from ours."""
    from accounts.password_validation import MinimumLengthValidator

    with translation.override("rm"):
        assert translation.gettext("This field is required.") == "Quest champ è obligatoric."
        assert "almain 8 caracters" in MinimumLengthValidator().get_help_text()
