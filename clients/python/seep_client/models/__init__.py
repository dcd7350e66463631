"""Contains all the data models used in inputs/outputs"""

from .action_enum import ActionEnum
from .appended import Appended
from .blank_enum import BlankEnum
from .bracket import Bracket
from .bracket_fixture import BracketFixture
from .bracket_fixture_status_enum import BracketFixtureStatusEnum
from .bracket_round import BracketRound
from .bracket_slot import BracketSlot
from .champion import Champion
from .change_enum import ChangeEnum
from .club import Club
from .club_request import ClubRequest
from .club_seasons_settings import ClubSeasonsSettings
from .confirmation_enum import ConfirmationEnum
from .correction_preview import CorrectionPreview
from .cut_decide_request import CutDecideRequest
from .cut_decision import CutDecision
from .cut_tie import CutTie
from .deal import Deal
from .deal_confirmed_command_kind_enum import DealConfirmedCommandKindEnum
from .deal_confirmed_command_request import DealConfirmedCommandRequest
from .deal_confirmed_payload_request import DealConfirmedPayloadRequest
from .deal_corrected_body import DealCorrectedBody
from .deal_corrected_body_kind import DealCorrectedBodyKind
from .deal_corrected_command_kind_enum import DealCorrectedCommandKindEnum
from .deal_corrected_command_request import DealCorrectedCommandRequest
from .deal_corrected_entry import DealCorrectedEntry
from .deal_corrected_payload_request import DealCorrectedPayloadRequest
from .deal_ended_command_kind_enum import DealEndedCommandKindEnum
from .deal_ended_command_request import DealEndedCommandRequest
from .deal_ended_payload_request import DealEndedPayloadRequest
from .deal_entered_command_kind_enum import DealEnteredCommandKindEnum
from .deal_entered_command_request import DealEnteredCommandRequest
from .deal_entered_payload_request import DealEnteredPayloadRequest
from .deal_fields import DealFields
from .deal_recorded_body import DealRecordedBody
from .deal_recorded_body_kind import DealRecordedBodyKind
from .deal_recorded_entry import DealRecordedEntry
from .deal_rejected_command_kind_enum import DealRejectedCommandKindEnum
from .deal_rejected_command_request import DealRejectedCommandRequest
from .deal_rejected_payload_request import DealRejectedPayloadRequest
from .deal_voided_body import DealVoidedBody
from .deal_voided_body_kind import DealVoidedBodyKind
from .deal_voided_command_kind_enum import DealVoidedCommandKindEnum
from .deal_voided_command_request import DealVoidedCommandRequest
from .deal_voided_entry import DealVoidedEntry
from .deal_voided_payload_request import DealVoidedPayloadRequest
from .deals import Deals
from .dispute import Dispute
from .entry_enum import EntryEnum
from .entry_withdrawn_command_kind_enum import EntryWithdrawnCommandKindEnum
from .entry_withdrawn_command_request import EntryWithdrawnCommandRequest
from .entry_withdrawn_payload_request import EntryWithdrawnPayloadRequest
from .evening import Evening
from .evening_story import EveningStory
from .event import Event
from .event_page import EventPage
from .fixture import Fixture
from .fixture_body import FixtureBody
from .fixture_body_kind import FixtureBodyKind
from .fixture_filled_entry import FixtureFilledEntry
from .format_enum import FormatEnum
from .head import Head
from .history import History
from .history_page import HistoryPage
from .kinds_enum import KindsEnum
from .ladder_line import LadderLine
from .ladder_place import LadderPlace
from .language_enum import LanguageEnum
from .match import Match
from .match_completed_body import MatchCompletedBody
from .match_completed_body_kind import MatchCompletedBodyKind
from .match_completed_entry import MatchCompletedEntry
from .match_forfeited_command_kind_enum import MatchForfeitedCommandKindEnum
from .match_forfeited_command_request import MatchForfeitedCommandRequest
from .match_forfeited_payload_request import MatchForfeitedPayloadRequest
from .match_made_entry import MatchMadeEntry
from .match_reopened_body import MatchReopenedBody
from .match_reopened_body_kind import MatchReopenedBodyKind
from .match_reopened_entry import MatchReopenedEntry
from .match_result import MatchResult
from .match_started_command_kind_enum import MatchStartedCommandKindEnum
from .match_started_command_request import MatchStartedCommandRequest
from .match_started_payload_request import MatchStartedPayloadRequest
from .match_state import MatchState
from .match_state_legal_moves_type_0_item import MatchStateLegalMovesType0Item
from .match_state_position_type_0 import MatchStatePositionType0
from .match_status_enum import MatchStatusEnum
from .match_story import MatchStory
from .matches_list_status import MatchesListStatus
from .measure_enum import MeasureEnum
from .member import Member
from .member_account_request_request import MemberAccountRequestRequest
from .member_erasure import MemberErasure
from .member_invitation import MemberInvitation
from .member_rating import MemberRating
from .member_ref import MemberRef
from .member_request import MemberRequest
from .member_request_user_type_1 import MemberRequestUserType1
from .member_user_type_1 import MemberUserType1
from .members_export_retrieve_response_200 import MembersExportRetrieveResponse200
from .method_enum import MethodEnum
from .mode_enum import ModeEnum
from .move_played_command_kind_enum import MovePlayedCommandKindEnum
from .move_played_command_request import MovePlayedCommandRequest
from .move_played_payload_request import MovePlayedPayloadRequest
from .move_request import MoveRequest
from .move_withdrawn_command_kind_enum import MoveWithdrawnCommandKindEnum
from .move_withdrawn_command_request import MoveWithdrawnCommandRequest
from .move_withdrawn_payload_request import MoveWithdrawnPayloadRequest
from .new_webhook import NewWebhook
from .notice import Notice
from .paginated_club_list import PaginatedClubList
from .paginated_ladder_line_list import PaginatedLadderLineList
from .paginated_match_list import PaginatedMatchList
from .paginated_member_list import PaginatedMemberList
from .paginated_rated_member_list import PaginatedRatedMemberList
from .paginated_round_list import PaginatedRoundList
from .paginated_season_list import PaginatedSeasonList
from .paginated_stage_list import PaginatedStageList
from .paginated_team_list import PaginatedTeamList
from .paginated_token_list import PaginatedTokenList
from .paginated_tournament_list import PaginatedTournamentList
from .paginated_webhook_delivery_list import PaginatedWebhookDeliveryList
from .paginated_webhook_list import PaginatedWebhookList
from .partner import Partner
from .partnership import Partnership
from .patched_club_request import PatchedClubRequest
from .patched_club_seasons_settings_request import PatchedClubSeasonsSettingsRequest
from .patched_member_request import PatchedMemberRequest
from .patched_member_request_user_type_1 import PatchedMemberRequestUserType1
from .patched_rating_privacy_request import PatchedRatingPrivacyRequest
from .patched_round_edit_request import PatchedRoundEditRequest
from .patched_season_request import PatchedSeasonRequest
from .patched_stage_request import PatchedStageRequest
from .patched_stage_request_scorekeepers_item_type_1 import (
    PatchedStageRequestScorekeepersItemType1,
)
from .patched_tournament_request import PatchedTournamentRequest
from .patched_tournament_request_directors_item_type_1 import (
    PatchedTournamentRequestDirectorsItemType1,
)
from .player import Player
from .player_enum import PlayerEnum
from .player_request import PlayerRequest
from .player_request_user_type_1 import PlayerRequestUserType1
from .player_user_type_1 import PlayerUserType1
from .plays_in import PlaysIn
from .problem import Problem
from .problem_errors import ProblemErrors
from .published_fixture import PublishedFixture
from .rated_member import RatedMember
from .rating_change import RatingChange
from .rating_fields import RatingFields
from .rating_privacy import RatingPrivacy
from .reason_enum import ReasonEnum
from .result_enum import ResultEnum
from .result_page import ResultPage
from .root_retrieve_response_200 import RootRetrieveResponse200
from .round_ import Round
from .round_edited import RoundEdited
from .round_published_body import RoundPublishedBody
from .round_published_body_kind import RoundPublishedBodyKind
from .round_published_entry import RoundPublishedEntry
from .round_status_enum import RoundStatusEnum
from .round_unpublished_body import RoundUnpublishedBody
from .round_unpublished_body_kind import RoundUnpublishedBodyKind
from .round_unpublished_entry import RoundUnpublishedEntry
from .rule_enum import RuleEnum
from .score_adjusted_command_kind_enum import ScoreAdjustedCommandKindEnum
from .score_adjusted_command_request import ScoreAdjustedCommandRequest
from .score_adjusted_payload_request import ScoreAdjustedPayloadRequest
from .season import Season
from .season_request import SeasonRequest
from .seat import Seat
from .seed_by_ratings_request_request import SeedByRatingsRequestRequest
from .seeded_by_ratings import SeededByRatings
from .seeded_by_ratings_ratings import SeededByRatingsRatings
from .seeding_enum import SeedingEnum
from .side import Side
from .stage import Stage
from .stage_request import StageRequest
from .stage_request_scorekeepers_item_type_1 import StageRequestScorekeepersItemType1
from .stage_scorekeepers_item_type_1 import StageScorekeepersItemType1
from .stage_start_request import StageStartRequest
from .stage_started import StageStarted
from .stage_started_scorekeepers_item_type_1 import StageStartedScorekeepersItemType1
from .stage_status_enum import StageStatusEnum
from .standing_row import StandingRow
from .standing_row_tiebreaks import StandingRowTiebreaks
from .standings import Standings
from .standings_changed_body import StandingsChangedBody
from .standings_changed_body_kind import StandingsChangedBodyKind
from .standings_changed_entry import StandingsChangedEntry
from .state_entry import StateEntry
from .state_progress import StateProgress
from .swiss_method_enum import SwissMethodEnum
from .team import Team
from .team_changed_body import TeamChangedBody
from .team_changed_body_change import TeamChangedBodyChange
from .team_changed_body_kind import TeamChangedBodyKind
from .team_changed_entry import TeamChangedEntry
from .team_checked_in import TeamCheckedIn
from .team_index_enum import TeamIndexEnum
from .team_ref import TeamRef
from .team_request import TeamRequest
from .team_token_made import TeamTokenMade
from .team_token_request_request import TeamTokenRequestRequest
from .tiebreaks_enum import TiebreaksEnum
from .token import Token
from .token_renew_request import TokenRenewRequest
from .token_request import TokenRequest
from .tournament import Tournament
from .tournament_changed_body import TournamentChangedBody
from .tournament_changed_body_kind import TournamentChangedBodyKind
from .tournament_changed_entry import TournamentChangedEntry
from .tournament_directors_item_type_1 import TournamentDirectorsItemType1
from .tournament_request import TournamentRequest
from .tournament_request_directors_item_type_1 import (
    TournamentRequestDirectorsItemType1,
)
from .user_ref import UserRef
from .version_accepted_command_kind_enum import VersionAcceptedCommandKindEnum
from .version_accepted_command_request import VersionAcceptedCommandRequest
from .version_accepted_payload_request import VersionAcceptedPayloadRequest
from .webhook import Webhook
from .webhook_attempt import WebhookAttempt
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_status_enum import WebhookDeliveryStatusEnum
from .webhook_request import WebhookRequest
from .withdrawal_enum import WithdrawalEnum

__all__ = (
    "ActionEnum",
    "Appended",
    "BlankEnum",
    "Bracket",
    "BracketFixture",
    "BracketFixtureStatusEnum",
    "BracketRound",
    "BracketSlot",
    "Champion",
    "ChangeEnum",
    "Club",
    "ClubRequest",
    "ClubSeasonsSettings",
    "ConfirmationEnum",
    "CorrectionPreview",
    "CutDecideRequest",
    "CutDecision",
    "CutTie",
    "Deal",
    "DealConfirmedCommandKindEnum",
    "DealConfirmedCommandRequest",
    "DealConfirmedPayloadRequest",
    "DealCorrectedBody",
    "DealCorrectedBodyKind",
    "DealCorrectedCommandKindEnum",
    "DealCorrectedCommandRequest",
    "DealCorrectedEntry",
    "DealCorrectedPayloadRequest",
    "DealEndedCommandKindEnum",
    "DealEndedCommandRequest",
    "DealEndedPayloadRequest",
    "DealEnteredCommandKindEnum",
    "DealEnteredCommandRequest",
    "DealEnteredPayloadRequest",
    "DealFields",
    "DealRecordedBody",
    "DealRecordedBodyKind",
    "DealRecordedEntry",
    "DealRejectedCommandKindEnum",
    "DealRejectedCommandRequest",
    "DealRejectedPayloadRequest",
    "DealVoidedBody",
    "DealVoidedBodyKind",
    "DealVoidedCommandKindEnum",
    "DealVoidedCommandRequest",
    "DealVoidedEntry",
    "DealVoidedPayloadRequest",
    "Deals",
    "Dispute",
    "EntryEnum",
    "EntryWithdrawnCommandKindEnum",
    "EntryWithdrawnCommandRequest",
    "EntryWithdrawnPayloadRequest",
    "Evening",
    "EveningStory",
    "Event",
    "EventPage",
    "Fixture",
    "FixtureBody",
    "FixtureBodyKind",
    "FixtureFilledEntry",
    "FormatEnum",
    "Head",
    "History",
    "HistoryPage",
    "KindsEnum",
    "LadderLine",
    "LadderPlace",
    "LanguageEnum",
    "Match",
    "MatchCompletedBody",
    "MatchCompletedBodyKind",
    "MatchCompletedEntry",
    "MatchForfeitedCommandKindEnum",
    "MatchForfeitedCommandRequest",
    "MatchForfeitedPayloadRequest",
    "MatchMadeEntry",
    "MatchReopenedBody",
    "MatchReopenedBodyKind",
    "MatchReopenedEntry",
    "MatchResult",
    "MatchStartedCommandKindEnum",
    "MatchStartedCommandRequest",
    "MatchStartedPayloadRequest",
    "MatchState",
    "MatchStateLegalMovesType0Item",
    "MatchStatePositionType0",
    "MatchStatusEnum",
    "MatchStory",
    "MatchesListStatus",
    "MeasureEnum",
    "Member",
    "MemberAccountRequestRequest",
    "MemberErasure",
    "MemberInvitation",
    "MemberRating",
    "MemberRef",
    "MemberRequest",
    "MemberRequestUserType1",
    "MemberUserType1",
    "MembersExportRetrieveResponse200",
    "MethodEnum",
    "ModeEnum",
    "MovePlayedCommandKindEnum",
    "MovePlayedCommandRequest",
    "MovePlayedPayloadRequest",
    "MoveRequest",
    "MoveWithdrawnCommandKindEnum",
    "MoveWithdrawnCommandRequest",
    "MoveWithdrawnPayloadRequest",
    "NewWebhook",
    "Notice",
    "PaginatedClubList",
    "PaginatedLadderLineList",
    "PaginatedMatchList",
    "PaginatedMemberList",
    "PaginatedRatedMemberList",
    "PaginatedRoundList",
    "PaginatedSeasonList",
    "PaginatedStageList",
    "PaginatedTeamList",
    "PaginatedTokenList",
    "PaginatedTournamentList",
    "PaginatedWebhookDeliveryList",
    "PaginatedWebhookList",
    "Partner",
    "Partnership",
    "PatchedClubRequest",
    "PatchedClubSeasonsSettingsRequest",
    "PatchedMemberRequest",
    "PatchedMemberRequestUserType1",
    "PatchedRatingPrivacyRequest",
    "PatchedRoundEditRequest",
    "PatchedSeasonRequest",
    "PatchedStageRequest",
    "PatchedStageRequestScorekeepersItemType1",
    "PatchedTournamentRequest",
    "PatchedTournamentRequestDirectorsItemType1",
    "Player",
    "PlayerEnum",
    "PlayerRequest",
    "PlayerRequestUserType1",
    "PlayerUserType1",
    "PlaysIn",
    "Problem",
    "ProblemErrors",
    "PublishedFixture",
    "RatedMember",
    "RatingChange",
    "RatingFields",
    "RatingPrivacy",
    "ReasonEnum",
    "ResultEnum",
    "ResultPage",
    "RootRetrieveResponse200",
    "Round",
    "RoundEdited",
    "RoundPublishedBody",
    "RoundPublishedBodyKind",
    "RoundPublishedEntry",
    "RoundStatusEnum",
    "RoundUnpublishedBody",
    "RoundUnpublishedBodyKind",
    "RoundUnpublishedEntry",
    "RuleEnum",
    "ScoreAdjustedCommandKindEnum",
    "ScoreAdjustedCommandRequest",
    "ScoreAdjustedPayloadRequest",
    "Season",
    "SeasonRequest",
    "Seat",
    "SeedByRatingsRequestRequest",
    "SeededByRatings",
    "SeededByRatingsRatings",
    "SeedingEnum",
    "Side",
    "Stage",
    "StageRequest",
    "StageRequestScorekeepersItemType1",
    "StageScorekeepersItemType1",
    "StageStartRequest",
    "StageStarted",
    "StageStartedScorekeepersItemType1",
    "StageStatusEnum",
    "StandingRow",
    "StandingRowTiebreaks",
    "Standings",
    "StandingsChangedBody",
    "StandingsChangedBodyKind",
    "StandingsChangedEntry",
    "StateEntry",
    "StateProgress",
    "SwissMethodEnum",
    "Team",
    "TeamChangedBody",
    "TeamChangedBodyChange",
    "TeamChangedBodyKind",
    "TeamChangedEntry",
    "TeamCheckedIn",
    "TeamIndexEnum",
    "TeamRef",
    "TeamRequest",
    "TeamTokenMade",
    "TeamTokenRequestRequest",
    "TiebreaksEnum",
    "Token",
    "TokenRenewRequest",
    "TokenRequest",
    "Tournament",
    "TournamentChangedBody",
    "TournamentChangedBodyKind",
    "TournamentChangedEntry",
    "TournamentDirectorsItemType1",
    "TournamentRequest",
    "TournamentRequestDirectorsItemType1",
    "UserRef",
    "VersionAcceptedCommandKindEnum",
    "VersionAcceptedCommandRequest",
    "VersionAcceptedPayloadRequest",
    "Webhook",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookDeliveryStatusEnum",
    "WebhookRequest",
    "WithdrawalEnum",
)
