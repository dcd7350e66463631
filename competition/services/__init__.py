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
from .registration import team_check_in, team_register, team_withdraw
from .results import fixture_match_completed, fixture_result_of, unrecorded_completions
from .rounds import round_edit, round_pair, round_publish, round_record_anchors
from .stages import (
    SETTINGS,
    stage_create,
    stage_points,
    stage_start,
    stage_teams,
    stage_terms,
    stage_update,
)

__all__ = [
    "SETTINGS",
    "bracket_state",
    "fixture_match_completed",
    "fixture_result_of",
    "notice_resolve",
    "round_edit",
    "round_pair",
    "round_publish",
    "round_record_anchors",
    "stage_create",
    "stage_points",
    "stage_start",
    "stage_teams",
    "stage_terms",
    "stage_update",
    "team_check_in",
    "team_register",
    "team_withdraw",
    "unrecorded_completions",
]
