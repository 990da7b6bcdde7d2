"""The games app's models, one module per concern: the table (rooms, seats, matches, deals,
tricks, Narr debts, the action log, open sockets), the translated content, the standings,
and the social rows (friends, blocks, notifications, site presence; written by games/talk/).

Only `games/services/` writes game rows (ARCHITECTURE.md convention 9, a test and the import
contracts in pyproject.toml hold it); these modules never import the engine.
"""

from games.models.clubs import Admission, Club, ClubInvite, ClubInviteKind, Membership, Role
from games.models.content import Announcement, FAQEntry
from games.models.presence import PRESENCE_TIMEOUT, STALE_AFTER
from games.models.queue import QueueEntry, QueueStatus
from games.models.social import (
    Block,
    FriendRequest,
    Friendship,
    NoticeKind,
    Notification,
    SitePresence,
)
from games.models.standings import PairStats, PlayerRating, RatingHistory
from games.models.table import (
    INVITE_ALPHABET,
    INVITE_LENGTH,
    Connection,
    DeadlineKind,
    DebtStatus,
    Match,
    MatchStatus,
    NarrDebt,
    Phase,
    Room,
    Round,
    RoundAction,
    Seat,
    Team,
    Trick,
    Visibility,
    Winner,
    new_invite_code,
)
from games.models.talk import (
    BlockedWord,
    QuickPhrase,
    ReportReason,
    TalkAudience,
    TalkMessage,
    TalkMute,
    TalkReport,
    TalkSuspension,
)
from games.models.teaching import (
    DealReview,
    FunnelWeek,
    IllegalByDeal,
    LessonProgress,
    PracticePosition,
    ReviewStatus,
)
from games.models.tournaments import (
    DirectorAction,
    Entrant,
    EntrantKind,
    EntrantStatus,
    ResultAdjustment,
    RoundStatus,
    Spectators,
    Stage,
    StageFormat,
    StageVenue,
    TableOutcome,
    TableTalk,
    Tiebreak,
    Tournament,
    TournamentBye,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
    Unfinished,
    planned_deck,
)

__all__ = [
    "Admission", "Club", "ClubInvite", "ClubInviteKind", "Membership", "Role", "INVITE_ALPHABET",
    "INVITE_LENGTH", "PRESENCE_TIMEOUT", "STALE_AFTER", "Announcement", "Block", "BlockedWord",
    "Connection", "DeadlineKind", "DebtStatus", "FAQEntry", "DealReview", "FunnelWeek",
    "IllegalByDeal", "FriendRequest", "Friendship", "LessonProgress", "Match", "MatchStatus",
    "NarrDebt", "NoticeKind", "Notification", "PracticePosition", "ReviewStatus", "PairStats",
    "Phase", "PlayerRating", "QueueEntry", "QueueStatus", "QuickPhrase", "RatingHistory", "Room",
    "Round", "RoundAction", "Seat", "SitePresence", "TalkAudience", "TalkMessage", "TalkMute",
    "ReportReason", "TalkReport", "TalkSuspension", "Team", "Trick", "Visibility", "Winner",
    "new_invite_code", "DirectorAction", "Entrant", "EntrantKind", "EntrantStatus",
    "ResultAdjustment", "RoundStatus", "Spectators", "Stage", "StageFormat", "StageVenue",
    "TableOutcome", "TableTalk", "Tiebreak", "Tournament", "TournamentBye", "TournamentRound",
    "TournamentStatus", "TournamentTable", "Unfinished", "planned_deck",
]
