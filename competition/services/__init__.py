"""Running a tournament: registration, stages, rounds, and what follows when a match ends.

One module per aggregate, split by verb inside a big one; this package re-exports the public
names, so callers write ``services.round_publish(...)``. The modules form a chain, each
importing only those below it (``tests/competition/test_services_layering.py``), from the
bottom up:

- ``_common`` (the director check, the locks, the standings to follow) and ``notices``;
- ``follow``: what follows a decided fixture (its match made, its round and stage complete,
  a bracket's later slots filled, a withdrawn team's fixtures settled);
- ``results``: a match's result into its fixture; ``registration``, then ``withdrawals`` and
  ``roster``; ``stage_settings``, ``rounds``, ``stages``, ``cut_decisions``, ``evenings``.

Below them all lie the reads they share with the selectors: ``competition.draw``, the one
bridge between the pure formats and the tables, and ``competition.cut``. The tasks sit
above: they call the services, which never import them (``_common.schedule_standings``).

Every function that changes something takes the ``actor`` and checks that they direct the
tournament (``tournaments.access.is_director``), whatever way the request came in, and is one
transaction: a refusal or a failure midway leaves nothing changed. The formats themselves are
pure (``competition.formats``); ``competition.draw`` turns what they decide into rows. Matches
are created through the store's ``match_create`` and started through its append service;
results are read from scoring's projection.
"""

from __future__ import annotations

from ..cut import CutTieUndecided, cut_for_stage, decision_words
from ..draw import bracket_state, stage_points
from .cut_decisions import cut_draw_lot, cut_set_order
from .evenings import tournament_create, tournament_update, unique_slug
from .follow import stage_terms
from .notices import notice_resolve
from .registration import (
    late_entry_words,
    registration_fixed,
    registration_update,
    team_check_in,
    team_check_out,
    team_language,
    team_plays_in,
    team_register,
    team_rename,
    team_update,
    teams_not_checked_in,
)
from .results import fixture_match_completed, fixture_result_of, unrecorded_completions
from .roster import PlannedTeam, team_enter, teams_plan, teams_register
from .rounds import (
    round_discard,
    round_edit,
    round_pair,
    round_publish,
    round_record_anchors,
    round_unpublish,
)
from .stage_settings import SETTINGS, check_settings
from .stages import stage_create, stage_remove, stage_start, stage_teams, stage_update
from .withdrawals import team_reinstate, team_withdraw

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
    "team_language",
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
