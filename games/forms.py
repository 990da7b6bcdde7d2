"""Forms of the room pages: the house rules (RULES.md §14) and a new room around them.

`HouseRulesForm` has one field per room option, each with its standard value and one sentence
that explains it; the live room page reuses it (rendered once, filled by the script) for the
owner's house-rule editor between matches.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from accounts.validators import validate_plain_text
from games.engine.options import ROOM_TURN_SECONDS, Options, room_standard
from games.models import (
    Admission,
    EntrantKind,
    Spectators,
    StageFormat,
    StageVenue,
    TableTalk,
    Team,
    Tiebreak,
    Unfinished,
    Visibility,
)
from games.text.errors import message_for
from games.text.options import LABELS, describe

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# One sentence per option: what it changes at the table.
EXPLANATIONS = {
    "reveal_seconds": _("How long the four reveal cards stay face up after the final deal "
                        "(2 to 30 seconds)."),
    "reveal_persist": _("If on, the reveal cards stay visible to everyone for the whole deal."),
    "scart_forbidden": _("Which cards the dealer may not discard into the Scart."),
    "buob_caller": _("Who may call BUOB when a king lies in the trick."),
    "regame_by": _("Who may start the next deal once a deal has been scored."),
    "match_deals": _("How many deals make one match; with “unlimited” the room owner ends "
                     "the match."),
    "bock": _("If on, some deals start a Bock round: the next four deals count double."),
    "bock_triggers": _("Which deals start a Bock round (only when Bock rounds are on)."),
    "turn_seconds": _("Seconds a player has to act before the server plays for them "
                      "(0 = no turn timer, else 15 to 120)."),
    "stand_in_seconds": _("Seconds a seated player may be away before a bot plays their seat "
                          "until they return (0 = never, else up to 600)."),
    "table_talk": _("What players may say at the table: anything, only the quick phrases, or "
                    "nothing (a silent table)."),
}


def _standard(key: str) -> str:
    # The standard a new room starts with (its 60 s turn timer too), as the form fills it in.
    return describe(key, room_standard().to_json()[key])


def _standard_help(key: str) -> str:
    return f"{EXPLANATIONS[key]} {_('Standard:')} {_standard(key)}."


# Help text evaluated in the active language when the form renders: a lazy string, the type
# a field's help_text takes.
_lazy_standard_help = lazy(_standard_help, str)


class _Label:
    """An option value's words, looked up when rendered (in the active language)."""

    def __init__(self, key: str, value: Any) -> None:
        self.key, self.value = key, value

    def __str__(self) -> str:
        return describe(self.key, self.value)


def _choices(key: str, values: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    return [(v, _Label(key, v)) for v in values]


class HouseRulesForm(forms.Form):
    reveal_seconds = forms.IntegerField(min_value=2, max_value=30, initial=5)
    reveal_persist = forms.BooleanField(required=False, initial=False)
    scart_forbidden = forms.ChoiceField(
        choices=_choices("scart_forbidden", ("honours", "none", "honours_and_trumps")),
        initial="honours", widget=forms.RadioSelect)
    buob_caller = forms.ChoiceField(choices=_choices("buob_caller", ("any", "king_team")),
                                    initial="any", widget=forms.RadioSelect)
    regame_by = forms.ChoiceField(choices=_choices("regame_by", ("any", "owner")),
                                  initial="any", widget=forms.RadioSelect)
    match_deals = forms.TypedChoiceField(
        choices=_choices("match_deals", (4, 8, 12, 16, 0)), coerce=int, initial=4)
    bock = forms.BooleanField(required=False, initial=False)
    bock_triggers = forms.MultipleChoiceField(
        choices=[("tie", _("a 36:36 tie")), ("all_tricks", _("one team takes all 19 tricks"))],
        initial=["tie", "all_tricks"], required=False, widget=forms.CheckboxSelectMultiple)
    turn_seconds = forms.IntegerField(min_value=0, max_value=120, initial=ROOM_TURN_SECONDS)
    stand_in_seconds = forms.IntegerField(min_value=0, max_value=600, initial=60)
    table_talk = forms.ChoiceField(
        choices=_choices("table_talk", ("free", "phrases", "silent")), initial="free",
        widget=forms.RadioSelect)

    option_keys = tuple(LABELS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key in self.option_keys:
            field = self.fields[key]
            # LABELS holds lazy strings (gettext_lazy), typed there as their base class Promise.
            field.label = cast("StrOrPromise", LABELS[key])
            field.help_text = _lazy_standard_help(key)
            field.widget.attrs["data-option"] = key
            if key in ("reveal_seconds", "turn_seconds", "stand_in_seconds"):
                field.widget.attrs["inputmode"] = "numeric"
        self.fields["turn_seconds"].widget.attrs.update(min=0, max=120)
        self.fields["stand_in_seconds"].widget.attrs.update(min=0, max=600)

    def clean_turn_seconds(self) -> int:
        value: int = self.cleaned_data["turn_seconds"]
        if value != 0 and value < 15:
            raise forms.ValidationError(
                _("Enter 0 for no turn timer, or a number from 15 to 120."))
        return value

    def options(self) -> dict[str, Any]:
        """The cleaned values as the room's options JSON (RULES.md §14)."""
        data = {key: self.cleaned_data[key] for key in self.option_keys}
        return Options.from_json(data).to_json()


class CreateRoomForm(HouseRulesForm):
    name = forms.CharField(label=_("Room name"), max_length=60, required=False,
                           validators=[validate_plain_text],
                           help_text=_("Optional; without a name the room is shown by its "
                                       "number."))
    visibility = forms.ChoiceField(
        label=_("Who can find the room"), choices=Visibility.choices, initial="public",
        widget=forms.RadioSelect,
        help_text=_("Public rooms are listed on the home page; private ones only open with "
                    "the invite link."))
    allow_spectators = forms.BooleanField(
        label=_("Allow spectators"), required=False, initial=True,
        help_text=_("Spectators see only what is public: the table, never a hand."))
    team = forms.ChoiceField(
        label=pgettext_lazy("create room", "Your team"), choices=Team.choices, initial="A",
        widget=forms.RadioSelect,
        help_text=_("You take a seat in this team; the room owner deals first."))

    field_order = ["name", "visibility", "allow_spectators", "team"]


# --- Find a game (issue #24 item 15; games/services/matchmaking.py) ---------------------------

# The values the find page offers per option, the standard first (RULES.md §14); the queue
# itself takes any valid value (the JSON API).
QUEUE_VALUES: dict[str, tuple[Any, ...]] = {
    "reveal_seconds": (5, 2, 10, 30),
    "reveal_persist": (False, True),
    "scart_forbidden": ("honours", "none", "honours_and_trumps"),
    "buob_caller": ("any", "king_team"),
    "regame_by": ("any", "owner"),
    "match_deals": (4, 8, 12, 16, 0),
    "bock": (False, True),
    "bock_triggers": (["tie", "all_tricks"], ["tie"], ["all_tricks"], []),
    "turn_seconds": (ROOM_TURN_SECONDS, 30, 90, 120, 0),
}


class _BotsAfterLabel:
    def __init__(self, seconds: int | None) -> None:
        self.seconds = seconds

    def __str__(self) -> str:
        if self.seconds is None:
            return str(_("never"))
        minutes = self.seconds // 60
        return ngettext("after %(n)s minute", "after %(n)s minutes", minutes) % {"n": minutes}


class FindGameForm(forms.Form):
    """The find page's choices: per house rule a value or "any" (the select's values are JSON
    texts, read by static/js/find.js and sent to /api/queue), and when to offer bots."""

    def __init__(self, *args: Any, bots_after: tuple[int | None, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, values in QUEUE_VALUES.items():
            choices: list[tuple[str, Any]] = [("", _("any"))]
            choices += [(json.dumps(v), _Label(key, v)) for v in values]
            field = forms.ChoiceField(choices=choices, required=False, initial="")
            field.label = cast("StrOrPromise", LABELS[key])
            field.widget.attrs["data-queue-option"] = key
            self.fields[key] = field
        field = forms.ChoiceField(
            label=_("Offer to fill the empty seats with bots"),
            choices=[("" if s is None else str(s), _BotsAfterLabel(s)) for s in bots_after],
            required=False, initial="300",
            help_text=_("A “Play with bots” button appears after this wait; bots never take "
                        "a seat unless you press it, and a match with bots is not rated."))
        field.widget.attrs["data-queue-bots-after"] = ""
        self.fields["bots_after"] = field


class ClubForm(forms.Form):
    """A new club (issue #26 item 1): plain-text name, description and region; the services
    normalise and check them again (games/clubs/membership.py clean_text)."""

    name = forms.CharField(label=_("Club name"), max_length=40,
                           validators=[validate_plain_text])
    description = forms.CharField(label=_("Short description"), max_length=200, required=False,
                                  validators=[validate_plain_text])
    region = forms.CharField(label=_("Region"), max_length=40, required=False,
                             validators=[validate_plain_text],
                             help_text=_("Where the club plays, e.g. Surselva."))
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    admission = forms.ChoiceField(label=_("Who may join"), choices=Admission.choices,
                                  initial=Admission.OPEN, widget=forms.RadioSelect)


# --- Tournaments (issue #26 item 2; games/clubs/tournaments.py) -----------------------------

_WHEN = {"type": "datetime-local"}
_WHEN_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]


def _when(label: StrOrPromise, **kwargs: Any) -> forms.DateTimeField:
    return forms.DateTimeField(label=label, input_formats=_WHEN_FORMATS,
                               widget=forms.DateTimeInput(attrs=_WHEN, format=_WHEN_FORMATS[0]),
                               **kwargs)


class TournamentForm(HouseRulesForm):
    """A new tournament: the organiser (a club the user directs, or open), the entrants, the
    schedule (in the site's time zone), the house rules of every Partie and one to two stages
    (a Swiss or a round robin, then optionally a final of the best K). The services check it
    all again (TOURNAMENT_SCHEDULE_INVALID, TOURNAMENT_STAGES_INVALID, INVALID_OPTIONS)."""

    # The tournament's own table talk replaces the room's option; a Partie has a length.
    option_keys = tuple(key for key in LABELS if key != "table_talk")

    name = forms.CharField(label=_("Tournament name"), max_length=60,
                           validators=[validate_plain_text])
    club = forms.TypedChoiceField(label=_("Organiser"), coerce=int, empty_value=None,
                                  required=False)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES,
                                 help_text=_("The language of its Rangliste."))
    entrant_kind = forms.ChoiceField(label=_("Entrants"), choices=EntrantKind.choices,
                                     initial=EntrantKind.INDIVIDUAL, widget=forms.RadioSelect)
    capacity = forms.IntegerField(label=_("Places"), min_value=2, max_value=512, initial=32,
                                  help_text=_("Entrants beyond it wait in line."))
    registration_opens = _when(_("Registration opens"), required=False,
                               help_text=_("Empty: now."))
    registration_closes = _when(_("Registration closes"))
    starts_at = _when(_("Start"))
    checkin_minutes = forms.IntegerField(
        label=_("Check-in opens (minutes before the start)"), min_value=1, max_value=1440,
        initial=30, help_text=_("Who has not checked in by the start is not paired in the "
                                "first tournament round."))
    round_minutes = forms.IntegerField(label=_("Round clock (minutes)"), min_value=5,
                                       max_value=600, initial=60)
    break_minutes = forms.IntegerField(label=_("Break between tournament rounds (minutes)"),
                                       min_value=0, max_value=240, initial=5)
    talk = forms.ChoiceField(label=_("Table talk"), choices=TableTalk.choices,
                             initial=TableTalk.PHRASES, widget=forms.RadioSelect)
    spectators = forms.ChoiceField(label=_("Spectators"), choices=Spectators.choices,
                                   initial=Spectators.OFF, widget=forms.RadioSelect)
    tiebreak = forms.ChoiceField(label=_("Ranking"), choices=Tiebreak.choices,
                                 initial=Tiebreak.MATCH_POINTS_FIRST, widget=forms.RadioSelect)
    unfinished = forms.ChoiceField(label=_("A table still playing at the clock"),
                                   choices=Unfinished.choices, initial=Unfinished.AS_STANDS,
                                   widget=forms.RadioSelect)
    bye_match_points = forms.IntegerField(label=_("Match points of a bye"), min_value=0,
                                          max_value=2, initial=2)
    bye_card_points = forms.IntegerField(label=_("Card points of a bye"), min_value=0,
                                         max_value=10000, initial=0)
    stage1_format = forms.ChoiceField(label=_("Format"), choices=StageFormat.choices,
                                      initial=StageFormat.SWISS)
    stage1_rounds = forms.IntegerField(label=_("Tournament rounds"), min_value=1,
                                       max_value=15, initial=5)
    stage1_duplicate = forms.BooleanField(label=_("Duplicate deals"), required=False)
    # Not required: a form posted without it (an older page, a script) plays online.
    stage1_venue = forms.ChoiceField(label=_("Where it is played"), choices=StageVenue.choices,
                                     initial=StageVenue.ONLINE, widget=forms.RadioSelect,
                                     required=False)
    final = forms.BooleanField(label=_("A final stage of the best"), required=False)
    final_advance = forms.IntegerField(label=_("Entrants carried over"), min_value=2,
                                       max_value=512, initial=4, required=False)
    final_format = forms.ChoiceField(label=_("Format"), choices=StageFormat.choices,
                                     initial=StageFormat.SWISS)
    final_rounds = forms.IntegerField(label=_("Tournament rounds"), min_value=1,
                                      max_value=15, initial=2, required=False)
    final_duplicate = forms.BooleanField(label=_("Duplicate deals"), required=False)
    final_venue = forms.ChoiceField(label=_("Where it is played"), choices=StageVenue.choices,
                                    initial=StageVenue.ONLINE, widget=forms.RadioSelect,
                                    required=False)

    general = ("name", "club", "language", "entrant_kind", "capacity")
    schedule = ("registration_opens", "registration_closes", "starts_at", "checkin_minutes",
                "round_minutes", "break_minutes")
    conduct = ("talk", "spectators", "tiebreak", "unfinished", "bye_match_points",
               "bye_card_points")
    first_stage = ("stage1_format", "stage1_rounds", "stage1_duplicate", "stage1_venue")
    final_stage = ("final", "final_advance", "final_format", "final_rounds", "final_duplicate",
                   "final_venue")

    def __init__(self, *args: Any, clubs: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["table_talk"]
        self.fields["match_deals"] = forms.TypedChoiceField(
            label=_("Deals per Partie"), choices=_choices("match_deals", (4, 8, 12, 16)),
            coerce=int, initial=4)
        organiser = cast("forms.TypedChoiceField", self.fields["club"])
        organiser.choices = [("", _("Open tournament (anyone may enter)")), *clubs]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("final") and not (data.get("final_advance") and data.get("final_rounds")):
            raise forms.ValidationError(
                _("A final stage needs its number of entrants and of tournament rounds."))
        for stage in ("stage1", "final"):
            if (data.get(f"{stage}_duplicate")
                    and data.get(f"{stage}_venue") == StageVenue.REAL_TABLES):
                self.add_error(f"{stage}_duplicate", message_for("DUPLICATE_NOT_AT_REAL_TABLES"))
        return data

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[key] for key in self.option_keys]

    def _group(self, names: tuple[str, ...]) -> list[forms.BoundField]:
        return [self[name] for name in names]

    # The create page's fieldsets, in order.
    def general_fields(self) -> list[forms.BoundField]:
        return self._group(self.general)

    def schedule_fields(self) -> list[forms.BoundField]:
        return self._group(self.schedule)

    def conduct_fields(self) -> list[forms.BoundField]:
        return self._group(self.conduct)

    def first_stage_fields(self) -> list[forms.BoundField]:
        return self._group(self.first_stage)

    def final_stage_fields(self) -> list[forms.BoundField]:
        return self._group(self.final_stage)

    def stages(self) -> list[dict[str, Any]]:
        data = self.cleaned_data
        stages = [{"format": data["stage1_format"], "rounds": data["stage1_rounds"],
                   "duplicate": data["stage1_duplicate"],
                   "venue": data["stage1_venue"] or StageVenue.ONLINE}]
        if data.get("final"):
            stages.append({"format": data["final_format"], "rounds": data["final_rounds"],
                           "advance": data["final_advance"],
                           "duplicate": data["final_duplicate"],
                           "venue": data["final_venue"] or StageVenue.ONLINE})
        return stages
