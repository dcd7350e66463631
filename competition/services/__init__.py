"""Running a tournament: registration, stages, rounds, brackets, and what follows when a match ends.

One module per aggregate (``registration``, ``stages``, ``rounds``, ``brackets``, ``results``);
this package re-exports the public names, so callers write ``services.round_publish(...)``.

Every function that changes something takes the ``actor`` and checks that they direct the
tournament (``tournaments.access.is_director``), whatever way the request came in, and is one
transaction: a refusal or a failure midway leaves nothing changed. The formats themselves are
pure (``competition.formats``); these modules store what they decide. Matches are created
through the store's ``match_create`` and started through its append service; results are
read from scoring's projection.
"""

from __future__ import annotations

from .brackets import bracket_state, notice_resolve
from .cut import CutTieUndecided, cut_draw_lot, cut_for_stage, cut_set_order, decision_words
from .evenings import tournament_create, tournament_update, unique_slug
from .registration import (
    PlannedTeam,
    late_entry_words,
    registration_fixed,
    registration_update,
    team_check_in,
    team_check_out,
    team_enter,
    team_plays_in,
    team_register,
    team_reinstate,
    team_rename,
    team_update,
    team_withdraw,
    teams_not_checked_in,
    teams_plan,
    teams_register,
)
from .results import fixture_match_completed, fixture_result_of, unrecorded_completions
from .rounds import (
    round_discard,
    round_edit,
    round_pair,
    round_publish,
    round_record_anchors,
    round_unpublish,
)
from .stages import (
    SETTINGS,
    check_settings,
    stage_create,
    stage_points,
    stage_remove,
    stage_start,
    stage_teams,
    stage_terms,
    stage_update,
)

__all__ = [
    "SETTINGS",
    "CutTieUndecided",
    "PlannedTeam",
    "bracket_state",
    "check_settings",
    "cut_draw_lot",
    "cut_for_stage",
    "cut_set_order",
    "decision_words",
    "fixture_match_completed",
    "fixture_result_of",
    "late_entry_words",
    "notice_resolve",
    "registration_fixed",
    "registration_update",
    "round_discard",
    "round_edit",
    "round_pair",
    "round_publish",
    "round_record_anchors",
    "round_unpublish",
    "stage_create",
    "stage_points",
    "stage_remove",
    "stage_start",
    "stage_teams",
    "stage_terms",
    "stage_update",
    "team_check_in",
    "team_check_out",
    "team_enter",
    "team_plays_in",
    "team_register",
    "team_reinstate",
    "team_rename",
    "team_update",
    "team_withdraw",
    "teams_not_checked_in",
    "teams_plan",
    "teams_register",
    "tournament_create",
    "tournament_update",
    "unique_slug",
    "unrecorded_completions",
]
