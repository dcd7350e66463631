"""Members' ratings, folded from finished matches (pure: no Django, no database).

A member's rating is a Gaussian belief about their skill, ``mu`` with uncertainty ``sigma``,
updated after every finished match they play by openskill's Weng-Lin Thurstone-Mosteller
"full" model (docs/seasons.md says why that model). A team's strength is the sum of its two
members' ``mu``; each member moves by their share of the team's variance, so a partner whose
rating is already settled moves less than a newcomer sitting beside them. ``sigma`` only
shrinks with play (``limit_sigma``); it grows back only with time away:

    sigma' = min(SIGMA, sqrt(sigma**2 + SIGMA**2 * max(0, days - GRACE_DAYS) / DRIFT_DAYS))

where ``days`` is the days from the evening of the member's last match to this one's, so a
member back after a month or more is less certain, and one back after more than a year is as
uncertain as a newcomer.

``fold`` is the one way ratings are computed: from given ratings, games in the order of their
``key``: the evening's date, then when the match first ended, then its id (so a result entered
late still counts on its evening's day). The same games from the same ratings give
the same floats, whoever computes them and however often.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

from openskill.models import ThurstoneMostellerFull

#: the prior of a member who has not played: openskill's defaults (mu 25, sigma 25/3)
MU, SIGMA = 25.0, 25.0 / 3.0
#: days away that cost no certainty, and the days (beyond those) that give it all back
GRACE_DAYS, DRIFT_DAYS = 28.0, 365.0
#: the z of the conservative estimate (mu - 3 sigma: 99.7 % sure the skill is above it)
Z = 3.0
#: the spread of one performance about the skill (openskill's default: sigma / 2)
BETA = SIGMA / 2.0
#: a member's rating is provisional until this many rated matches, then settled (a club
#: may choose another count: ``ClubSeasons.settled_after``)
SETTLED_AFTER = 10
#: a partnership's own rating is shown once the pair has played this many matches together
PARTNERSHIP_AFTER = 5

# limit_sigma: a match never makes a member less certain (openskill's tau would, a little)
MODEL = ThurstoneMostellerFull(mu=MU, sigma=SIGMA, limit_sigma=True)

#: the order games are rated in: the evening's date, when the match first ended, its id
Key = tuple[date, datetime, int]

#: a game's result for a team: won, drawn or lost
WON, DREW, LOST = "won", "drew", "lost"


@dataclass(frozen=True, slots=True)
class Rating:
    """A member's rating after their last rated match (``last_played``: when it ended)."""

    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0
    last_played: date | None = None  # the evening of the last match

    @property
    def conservative(self) -> float:
        """Return ``mu - 3 sigma``: a skill the member is almost surely above."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True, slots=True)
class Game:
    """A finished match as the ratings read it: who played with whom, and who won.

    ``teams`` are the two pairs of member ids (each sorted); ``winner`` is 0 or 1, or None
    for a draw. ``day`` is the evening's date; ``finished_at`` when the match first ended.
    """

    match_id: int
    day: date
    finished_at: datetime
    teams: tuple[tuple[int, int], tuple[int, int]]
    winner: int | None

    @property
    def key(self) -> Key:
        """The order games are rated in: by evening, by when they ended, then by match id."""
        return (self.day, self.finished_at, self.match_id)

    @property
    def players(self) -> tuple[int, int, int, int]:
        """The four members."""
        return (*self.teams[0], *self.teams[1])

    def result_of(self, team: int) -> str:
        """Return ``WON``, ``DREW`` or ``LOST`` for team 0 or 1."""
        if self.winner is None:
            return DREW
        return WON if self.winner == team else LOST


@dataclass(frozen=True, slots=True)
class Change:
    """What one game did to one member: the rating it started from (after drift) and after."""

    game: Game
    player: int
    team: int
    before: Rating
    after: Rating


def drifted(rating: Rating, on: date) -> Rating:
    """Return ``rating`` with the uncertainty time away adds by the day ``on`` (module
    docstring).

    >>> from datetime import timedelta
    >>> start = date(2026, 1, 1)
    >>> settled = Rating(30.0, 2.0, 40, start)
    >>> drifted(settled, start + timedelta(days=28)).sigma
    2.0
    >>> round(drifted(settled, start + timedelta(days=28 + 365)).sigma, 3) == round(SIGMA, 3)
    True
    """
    if rating.last_played is None:
        return rating
    days = (on - rating.last_played).days
    away = max(0.0, days - GRACE_DAYS)
    if away == 0.0:
        return rating
    sigma = min(SIGMA, math.sqrt(rating.sigma**2 + SIGMA**2 * away / DRIFT_DAYS))
    return replace(rating, sigma=max(rating.sigma, sigma))


def rate(game: Game, ratings: Mapping[int, Rating]) -> list[Change]:
    """Return the four changes ``game`` makes to the members' ``ratings`` (missing: new).

    Raises ValueError when the game does not seat four different members.
    """
    if len(set(game.players)) != 4:
        raise ValueError(f"match {game.match_id}: a game is four different members")
    before = [[drifted(ratings.get(p, Rating()), game.day) for p in team] for team in game.teams]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
    ranks = (
        [0.0, 0.0] if game.winner is None else [0.0 if game.winner == t else 1.0 for t in (0, 1)]
    )
    rated = MODEL.rate(teams, ranks=ranks)
    changes = []
    for t, team in enumerate(game.teams):
        for i, player in enumerate(team):
            old, new = before[t][i], rated[t][i]
            after = Rating(float(new.mu), float(new.sigma), old.matches + 1, game.day)
            changes.append(Change(game, player, t, old, after))
    return changes


def fold(
    games: Iterable[Game], ratings: Mapping[int, Rating] | None = None
) -> tuple[dict[int, Rating], list[Change]]:
    """Return the ratings after ``games`` (rated in key order) from ``ratings``, and every change.

    >>> from datetime import timedelta
    >>> t = datetime(2026, 3, 6, 20)
    >>> won = Game(1, t.date(), t, ((1, 2), (3, 4)), winner=0)
    >>> after, changes = fold([won])
    >>> after[1].mu > 25.0 > after[3].mu, after[1].sigma < SIGMA, len(changes)
    (True, True, 4)
    """
    current = dict(ratings or {})
    changes: list[Change] = []
    for game in sorted(games, key=lambda g: g.key):
        made = rate(game, current)
        for change in made:
            current[change.player] = change.after
        changes.extend(made)
    return current, changes


def team_strength(members: Iterable[Rating], *, conservative: bool = False) -> float:
    """Return a team's strength for seeding: the sum of its members' ``mu`` (or of their
    conservative estimates)."""
    return sum(r.conservative if conservative else r.mu for r in members)


def is_provisional(matches: int, settled_after: int = SETTLED_AFTER) -> bool:
    """Return whether a rating after ``matches`` rated matches is provisional.

    >>> is_provisional(9), is_provisional(10)
    (True, False)
    """
    return matches < settled_after


def win_probability(
    team: Sequence[tuple[float, float]], other: Sequence[tuple[float, float]]
) -> float:
    """Return the chance that ``team`` beats ``other`` by the rating model itself, each team
    given as its members' ``(mu, sigma)``:

        P = Phi((sum mu_team - sum mu_other) / sqrt(2 BETA**2 + sum of the four sigma**2))

    (the Thurstone-Mosteller model's own prediction for two teams: openskill's
    ``predict_win``, asked here.) A member's **expected result** in a match is
    this chance for their side: a won match scores 1, a draw 1/2, a loss 0.

    >>> new = (MU, SIGMA)
    >>> win_probability([new, new], [new, new])
    0.5
    >>> round(win_probability([(30.0, 2.0), (30.0, 2.0)], [(25.0, 2.0), (25.0, 2.0)]), 3)
    0.92
    """
    sides = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in side] for side in (team, other)]
    return float(MODEL.predict_win(sides)[0])


def score(result: str) -> float:
    """Return a result as a score: 1 won, 1/2 drew, 0 lost."""
    return {WON: 1.0, DREW: 0.5, LOST: 0.0}[result]


#: a partnership: its two members' ids, the lower first
Pair = tuple[int, int]


def fold_pairs(
    games: Iterable[Game], ratings: Mapping[Pair, Rating] | None = None
) -> dict[Pair, Rating]:
    """Return the partnerships' own ratings after ``games`` (in key order) from ``ratings``.

    A partnership is rated as one player: each game is a one-against-one match between the
    two pairs that played it, by the same model, prior and drift as a member's rating, so a
    pair's rating moves only with the matches that pair played together. Like ``fold``, the
    same games give the same floats.

    >>> t = datetime(2026, 3, 6, 20)
    >>> pairs = fold_pairs([Game(1, t.date(), t, ((1, 2), (3, 4)), winner=0)])
    >>> pairs[(1, 2)].mu > MU > pairs[(3, 4)].mu, pairs[(1, 2)].matches
    (True, 1)
    """
    current = dict(ratings or {})
    for game in sorted(games, key=lambda g: g.key):
        sides = [drifted(current.get(team, Rating()), game.day) for team in game.teams]
        ranks = (
            [0.0, 0.0]
            if game.winner is None
            else [0.0 if game.winner == t else 1.0 for t in (0, 1)]
        )
        rated = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in sides], ranks=ranks)
        for team, old, new in zip(game.teams, sides, rated, strict=True):
            current[team] = Rating(float(new[0].mu), float(new[0].sigma), old.matches + 1, game.day)
    return current
