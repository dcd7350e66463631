"""How a tournament is run: registration, stages, rounds, fixtures, and standings.

A tournament has stages in order; a stage fixes its format, match format, play mode, points
and tie-breaks when it starts, and takes its teams from the registrations (checked in, not
withdrawn) or from the previous stage's standings (the top N, or the top N of each group).
A stage has rounds (draft, published, complete), and a round has fixtures: two teams at a
table and the match created for them, a bye, or, in a bracket, a slot waiting for the winner
(or loser) of an earlier fixture. Standings are a projection, one row per team per round,
written by ``competition.standings`` on a worker whenever a match of the stage completes.

Matches themselves, and their logs, are the store's (``tournaments``); results are scoring's.

One module per part: ``stages`` (registrations, stages and their entrants), ``rounds`` (rounds
and their fixtures), ``records`` (standings, notices, decisions at a cut); this package
re-exports every model.
"""

from .records import CutDecision, Notice, StandingRow, StandingsCheckpoint
from .rounds import Fixture, Round
from .stages import Registration, Stage, StageEntry

__all__ = [
    "CutDecision",
    "Fixture",
    "Notice",
    "Registration",
    "Round",
    "Stage",
    "StageEntry",
    "StandingRow",
    "StandingsCheckpoint",
]
