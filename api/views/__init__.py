"""The API's views: thin. Each one finds its object through what the caller may see, checks what
they may do, calls a service or a selector, and shapes the answer.

One module a resource; ``_common`` holds what several share. The views are re-exported here,
for ``api.urls``.
"""

from .clubs import ClubDetail, ClubMembers, Clubs, MemberAccount, MemberDetail, MemberInvite
from .events import MatchEvents, MatchHistory
from .exports import StageStandingsCsv, TournamentDealsCsv, TournamentMatchesCsv
from .index import Index
from .matches import MatchDeals, MatchDetail, Matches, MatchState
from .notices import NoticeResolve, TournamentDisputes, TournamentNotices
from .privacy import MemberErase, MemberExport
from .results import TournamentResults
from .rounds import RoundDetail, RoundPublish, RoundUnpublish, StageRounds
from .seasons import (
    ClubRatings,
    ClubSeasonsSettings,
    ClubSeasonsView,
    MemberRatingPrivacy,
    MemberRatingView,
    SeasonDetail,
    SeasonLadder,
    TournamentSeedByRatings,
)
from .stages import StageBracket, StageCut, StageDetail, StageStart, TournamentStages
from .standings import StageStandings
from .teams import TeamCheckIn, TeamReinstate, TeamToken, TeamWithdraw, TournamentTeams
from .tokens import TokenDetail, TokenRenew, Tokens
from .tournaments import TournamentDetail, Tournaments
from .webhooks import WebhookDeliveries, WebhookDetail, WebhookPause, WebhookResume, Webhooks

__all__ = [
    "ClubDetail",
    "ClubMembers",
    "ClubRatings",
    "ClubSeasonsSettings",
    "ClubSeasonsView",
    "Clubs",
    "Index",
    "MatchDeals",
    "MatchDetail",
    "MatchEvents",
    "MatchHistory",
    "MatchState",
    "Matches",
    "MemberAccount",
    "MemberDetail",
    "MemberErase",
    "MemberExport",
    "MemberInvite",
    "MemberRatingPrivacy",
    "MemberRatingView",
    "NoticeResolve",
    "RoundDetail",
    "RoundPublish",
    "RoundUnpublish",
    "SeasonDetail",
    "SeasonLadder",
    "StageBracket",
    "StageCut",
    "StageDetail",
    "StageRounds",
    "StageStandings",
    "StageStandingsCsv",
    "StageStart",
    "TeamCheckIn",
    "TeamReinstate",
    "TeamToken",
    "TeamWithdraw",
    "TokenDetail",
    "TokenRenew",
    "Tokens",
    "TournamentDealsCsv",
    "TournamentDetail",
    "TournamentDisputes",
    "TournamentMatchesCsv",
    "TournamentNotices",
    "TournamentResults",
    "TournamentSeedByRatings",
    "TournamentStages",
    "TournamentTeams",
    "Tournaments",
    "WebhookDeliveries",
    "WebhookDetail",
    "WebhookPause",
    "WebhookResume",
    "Webhooks",
]
