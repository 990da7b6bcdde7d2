"""The Rangliste and the schedule as files (issue #26 item 7).

    rangliste_pdf(tournament) -> bytes     (fpdf2; docs/decisions.md says why)
    rangliste_csv(tournament) -> str
    schedule_ical(tournament) -> bytes     (icalendar; one VEVENT per round and one for all)

Both Rangliste files have the same columns (rank, entrant, match points, card points,
Buchholz, Parties, won) and are written in the TOURNAMENT's language, whoever downloads them:
a Rangliste is pinned on a club's wall, not read in a browser's language. The PDF uses fpdf2's
core fonts (Latin-1: every letter of rm, de, fr and en); a character outside it (a name in
another script) is written as "?" rather than failing the file.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import override

from games.clubs.results import Row, standing_rows
from games.models import Tournament

__all__ = ["columns", "rangliste_csv", "rangliste_pdf", "schedule_ical"]


def columns() -> list[str]:
    """The Rangliste's column headings in the active language."""
    return [_("Rank"), _("Entrant"), _("Match points"), _("Card points"), _("Buchholz"),
            _("Parties"), _("Won")]


def _cells(row: Row) -> list[str]:
    return [str(row.rank), row.name, str(row.match_points), str(row.card_points),
            str(row.buchholz), str(row.parties), str(row.won)]


def rangliste_csv(tournament: Tournament) -> str:
    """The Rangliste as CSV (a heading row, then one row per entrant in rank order)."""
    with override(tournament.language):
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(columns())
        for row in standing_rows(tournament):
            writer.writerow(_cells(row))
        return out.getvalue()


def _latin1(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


# Column widths in millimetres on an A4 page (190 mm between the margins).
_WIDTHS = (14, 76, 22, 22, 20, 18, 18)


def rangliste_pdf(tournament: Tournament, *, compress: bool = True) -> bytes:
    """The printable Rangliste: the tournament's name and date, the table, each entrant's
    "won N of M Parties" and a mark on those a bot played for (no prize)."""
    from fpdf import FPDF
    from fpdf.enums import XPos, YPos

    with override(tournament.language):
        rows = standing_rows(tournament)
        pdf = FPDF(format="A4")
        pdf.set_compression(compress)
        pdf.set_title(_latin1(f"{_('Rangliste')} · {tournament.name}"))
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(0, 10, _latin1(tournament.name), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font("Helvetica", "", 11)
        when = date_format(timezone.localtime(tournament.starts_at))
        pdf.cell(0, 7, _latin1(f"{_('Rangliste')} · {when}"), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(3)
        pdf.set_font("Helvetica", "B", 9)
        for width, title in zip(_WIDTHS, columns(), strict=True):
            pdf.cell(width, 7, _latin1(title), border="B")
        pdf.ln()
        pdf.set_font("Helvetica", "", 9)
        for row in rows:
            cells = _cells(row)
            if not row.prize_eligible:
                cells[1] += " *"
            for i, (width, text) in enumerate(zip(_WIDTHS, cells, strict=True)):
                pdf.cell(width, 6, _latin1(text), align="L" if i == 1 else "R")
            pdf.ln()
        pdf.ln(4)
        pdf.set_font("Helvetica", "", 8)
        for row in rows:
            pdf.cell(0, 5, _latin1(f"{row.rank}. {row.name}: {row.won_text}"),
                     new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if any(not r.prize_eligible for r in rows):
            pdf.ln(2)
            pdf.cell(0, 5, _latin1("* " + _("A bot played for this entrant: no prize.")),
                     new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        return bytes(pdf.output())


def schedule_ical(tournament: Tournament, url: str = "") -> bytes:
    """The schedule as an iCalendar feed: the tournament as one event (from its start to the
    last round's clock), and one event per round from its start to its clock's end."""
    from icalendar import Calendar, Event

    with override(tournament.language):
        cal = Calendar()
        cal.add("prodid", "-//Troccas Online//Tournaments//EN")
        cal.add("version", "2.0")
        cal.add("x-wr-calname", tournament.name)
        rounds = list(tournament.rounds.order_by("number"))
        clock = timedelta(minutes=tournament.round_minutes)
        ends = [r.clock_ends_at or r.starts_at + clock for r in rounds]
        whole = Event()
        whole.add("uid", f"tournament-{tournament.pk}@troccas")
        whole.add("summary", tournament.name)
        whole.add("dtstamp", timezone.now())
        whole.add("dtstart", tournament.starts_at)
        whole.add("dtend", max(ends) if ends else tournament.starts_at + clock)
        if url:
            whole.add("url", url)
        cal.add_component(whole)
        for rnd, end in zip(rounds, ends, strict=True):
            event = Event()
            event.add("uid", f"tournament-{tournament.pk}-round-{rnd.number}@troccas")
            event.add("summary", _("%(tournament)s: round %(number)d")
                      % {"tournament": tournament.name, "number": rnd.number})
            event.add("dtstamp", timezone.now())
            event.add("dtstart", rnd.starts_at)
            event.add("dtend", end)
            if url:
                event.add("url", url)
            cal.add_component(event)
        return bytes(cal.to_ical())
