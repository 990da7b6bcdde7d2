"""How reliably a player finishes what they start (issue #17 item 5), shown on the profile:
"finished N of M matches".

M: the matches the player was seated in when they started (a match's player_0..3 are its
seats for the whole match) and that have ended — finished or abandoned; a match still running
counts for neither number yet.
N: those that ended normally (status finished) with the player still in their seat at the
end: the last card played for their seat in the match was not played by a stand-in bot. A
player who went away for good has the rest of their cards played by a stand-in (or the turn
timer); a room closed mid-match, or a match ended by the staff, is abandoned for all four.
A player who resigned (Match.resigned_by) did not finish that match; the other three did.
A seat cannot be left or taken over by another person while a match runs (the lobby's seat
commands need a lobby), so these are the ways a match is not seen to the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Case, IntegerField, OuterRef, Q, Subquery, When
from django.utils.translation import gettext, ngettext

from games.models import Match, MatchStatus, RoundAction


@dataclass(frozen=True)
class Record:
    finished: int
    started: int
    # Of the matches not finished: those the player gave up, and those a stand-in bot ended.
    resigned: int = 0
    by_bot: int = 0

    @property
    def sentence(self) -> str:
        """"Finished 5 of 7 matches — 1 resigned, 1 finished by a bot.": the matches not
        finished named as what they were, so the two numbers never seem to disagree."""
        numbers = {"finished": self.finished, "started": self.started}
        details = [gettext("%(n)s resigned") % {"n": self.resigned}] if self.resigned else []
        if self.by_bot:
            details.append(gettext("%(n)s finished by a bot") % {"n": self.by_bot})
        if not details:
            return ngettext("Finished %(finished)s of %(started)s match.",
                            "Finished %(finished)s of %(started)s matches.",
                            self.started) % numbers
        return ngettext("Finished %(finished)s of %(started)s match — %(details)s.",
                        "Finished %(finished)s of %(started)s matches — %(details)s.",
                        self.started) % {**numbers, "details": ", ".join(details)}


def finished_record(user: Any) -> Record:
    ended = Match.objects.for_user(user).exclude(status=MatchStatus.RUNNING)
    started = ended.count()
    seat = Case(*(When(**{f"player_{i}": user}, then=i) for i in range(4)),
                output_field=IntegerField())
    last_by_bot = (RoundAction.objects
                   .filter(round__match=OuterRef("pk"), kind="play_card",
                           actor_seat=OuterRef("seat"))
                   .order_by("-version").values("actor__is_bot")[:1])
    done = (ended.filter(status=MatchStatus.FINISHED).annotate(seat=seat)
            .annotate(last_by_bot=Subquery(last_by_bot)))
    resigned = done.filter(resigned_by=user).count()
    kept = done.exclude(resigned_by=user)
    by_bot = kept.filter(last_by_bot=True).count()
    finished = kept.filter(Q(last_by_bot=False) | Q(last_by_bot__isnull=True)).count()
    return Record(finished=finished, started=started, resigned=resigned, by_bot=by_bot)
