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


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]|\{\w*\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_every_placeholder(language):
    """A translation that drops or renames %(name)s would crash or mislead at runtime."""
    po = (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    wrong = []
    for msgid, translations, _fuzzy in po_entries(po):
        if not msgid:
            continue
        expected = sorted(set(PLACEHOLDER.findall(msgid)))
        for text in translations:
            # A singular form may say "one" instead of its number (Romansh "ina", French "une").
            if sorted(set(PLACEHOLDER.findall(text))) not in (expected, []):
                wrong.append((msgid, text))
    assert wrong == []


def django_marked_strings() -> list[tuple[str | None, str]]:
    """(context, msgid) of every string accounts/django_strings_rm.py marks."""
    tree = ast.parse((ROOT / "accounts" / "django_strings_rm.py").read_text(encoding="utf-8"))
    marked = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if node.func.id == "pgettext_lazy":
                marked.append((args[0], args[1]))
            elif node.func.id in ("gettext_noop", "ngettext_lazy"):
                marked.append((None, args[0]))
    return marked


# Romansh words that are spelled as in English.
SAME_IN_ROMANSH = {"Filter", "mar", "oct", "nov", "dec"}


def test_django_strings_marked_for_romansh_are_djangos_own_and_translated():
    """The marks copy Django's msgids exactly (else Django would never look them up), and each
    has a Romansh translation."""
    import django

    base = Path(django.__file__).parent
    django_po = "".join(
        (base / part / "locale" / "de" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
        for part in ("conf", "contrib/auth", "contrib/admin")
    )
    marked = django_marked_strings()
    assert len(marked) > 100
    missing, english = [], []
    for context, msgid in marked:
        head = f'msgctxt "{context}"\nmsgid ' if context else "msgid "
        if head + '"' + msgid.replace('"', '\\"') not in django_po.replace('"\n"', ""):
            missing.append(msgid)
        with translation.override("rm"):
            local = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
        if local == msgid and msgid not in SAME_IN_ROMANSH:
            english.append(msgid)
    assert missing == []
    assert english == []


def test_romansh_dates_and_numbers():
    import datetime

    from django.template import Context, Template
    from django.utils import formats

    day = datetime.date(2026, 11, 29)
    with translation.override("rm"):
        assert formats.date_format(day) == "29.11.2026"
        assert formats.date_format(day, "SHORT_DATE_FORMAT") == "29.11.2026"
        rendered = Template('{{ d|date:"l, j F Y" }} · {{ d|date:"D j M" }}').render(
            Context({"d": day})
        )
        assert rendered == "dumengia, 29 november 2026 · dum 29 Nov"
        assert Template('{{ d|date:"F" }}').render(
            Context({"d": datetime.date(2026, 6, 1)})
        ) == "zercladur"
        assert formats.number_format(1234567.5, 1, force_grouping=True) == "1\u2019234\u2019567.5"
        assert formats.get_format("FIRST_DAY_OF_WEEK") == 1


def test_romansh_form_and_admin_messages(client):
    from django import forms

    class Pick(forms.Form):
        language = forms.ChoiceField(choices=[("rm", "Rumantsch")])

    with translation.override("rm"):
        form = Pick({"language": "xx"})
        assert not form.is_valid()
        assert form.errors["language"] == [
            "Tschernai ina opziun valida. xx n'è betg ina da las opziuns disponiblas."
        ]
    page = client.get("/rm/admin/login/").content.decode()
    assert '<html lang="rm"' in page
    for english in ("Log in", "Username", "Password", "Skip to main content"):
        assert f">{english}" not in page
