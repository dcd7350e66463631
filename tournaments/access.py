"""Who may do what in a tournament: the server itself, directors, score-keepers, seated players.

Roles are per tournament (a staff flag or a model permission grants nothing here):

- a **director** is the tournament's organizer, a user the organizer added as a director, or a
  superuser: everything in the tournament, every card included;
- a **score-keeper** is assigned to a match: its results;
- a **player** sits at a seat of a match: the moves of that seat. Who sits where is fixed in
  the match's log when it starts (``match_started``), not read from the teams afterwards;
- ``SYSTEM`` is the server itself (demo bots, management commands, internal jobs).

A club's **directors** (``Club.directors``, or a superuser) keep its roster of members.

Which accounts a director may name (a score-keeper, a director, a member's account): the
admin offers ``account_choices``; the API takes ``nameable_accounts``, the club's people.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from .models import Club, Match, Player, Team, Tournament


class _System:
    """The server acting on its own behalf. Not a user: it has no id and signs nothing in."""

    pk = None
    is_authenticated = False  # never mistaken for a signed-in user by code that asks

    def __repr__(self) -> str:
        return "SYSTEM"


#: the actor of appends the server makes itself; recorded as no user (actor NULL)
SYSTEM: Final = _System()


@dataclass(frozen=True)
class LinkActor:
    """A team's private link acting for its team (``tournaments.links``): not a user. Its
    appends record no user, and ``via`` ``team-link:<side>:<link id>`` (docs/links.md); it
    may enter and answer results in its team's score matches of its tournament, nothing else.
    """

    link_id: int
    team_id: int
    tournament_id: int
    #: a team's token bound to one of its players (0: first, 1: second) plays only their seat
    player: int | None = None
    #: the other team's link whose phone it confirmed on, with this team's code (one phone a
    #: table): its appends record that phone's link too (``matchlog.link_via``)
    on_phone: int | None = None
    #: the match whose table card's phone it spoke on, with this team's code (one phone a
    #: table, opened from the table card): its appends say so (``matchlog.link_via``)
    on_table: int | None = None
    pk = None
    is_authenticated = False  # not a signed-in user: directors' and keepers' checks say no
    is_superuser = False

    def side_in(self, match: Match) -> int | None:
        """Return the side (0: team0, 1: team1) its team plays in ``match``, or None."""
        if match.tournament_id != self.tournament_id:
            return None
        if match.team0_id == self.team_id:
            return 0
        return 1 if match.team1_id == self.team_id else None

    def seats_in(self, match: Match) -> tuple[int, ...]:
        """Return the seats it may play in ``match``: its team's two (partners sit opposite:
        side s sits at s and s + 2), or its player's one when it is bound to a player."""
        side = self.side_in(match)
        if side is None:
            return ()
        return (side + 2 * self.player,) if self.player is not None else (side, side + 2)


def is_system(actor: Any) -> bool:
    """Return whether ``actor`` is the server itself."""
    return actor is SYSTEM


def _signed_in(user: Any) -> bool:
    return user is not None and user is not SYSTEM and bool(user.is_authenticated)


def is_director(user: Any, tournament: Tournament | int, *, listed: bool | None = None) -> bool:
    """Return whether ``user`` directs ``tournament`` (organizer, added director, superuser).

    ``SYSTEM`` directs every tournament. At most one query (none for a superuser, or for the
    organizer of a tournament object at hand, or when the caller read already whether the
    user is among its added directors: ``listed``, with a tournament object).
    """
    if user is SYSTEM:
        return True
    if not _signed_in(user):
        return False
    if user.is_superuser:
        return True
    if isinstance(tournament, Tournament):
        if tournament.organizer_id == user.pk:
            return True
        if listed is not None:
            return listed
        tournament = tournament.pk
    return (
        Tournament.objects.filter(pk=tournament)
        .filter(Q(organizer=user) | Q(directors=user))
        .exists()
    )


def is_club_director(user: Any, club: Club | int) -> bool:
    """Return whether ``user`` directs ``club``: an active signed-in user among its directors,
    or an active superuser. ``SYSTEM`` directs every club.

    At most one query (none for a superuser or ``SYSTEM``).
    """
    if user is SYSTEM:
        return True
    if not _signed_in(user) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    club_id = club.pk if isinstance(club, Club) else club
    return Club.objects.filter(pk=club_id, directors=user).exists()


def directed_clubs(user: Any) -> QuerySet[Club]:
    """Return the clubs ``user`` directs (every one for a superuser or ``SYSTEM``, none for
    others), as ``is_club_director`` decides."""
    if user is SYSTEM or (_signed_in(user) and user.is_active and user.is_superuser):
        return Club.objects.all()
    if not _signed_in(user) or not user.is_active:
        return Club.objects.none()
    return Club.objects.filter(directors=user)


def directed_tournaments(user: Any) -> QuerySet[Tournament]:
    """Return the tournaments ``user`` directs (every one for a superuser, none for others)."""
    if user is SYSTEM or (_signed_in(user) and user.is_superuser):
        return Tournament.objects.all()
    if not _signed_in(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(Q(organizer=user) | Q(directors=user)).distinct()


def at_slug(tournaments: QuerySet[Tournament], slug: str) -> Tournament | None:
    """Return the tournament of ``tournaments`` at ``slug`` (its address), or None: the
    published one holding it (at most one does), else the oldest (lowest id) of the others.

    A slug is the site's once its tournament is published and its club's before (the
    model's constraints), so several private tournaments of several clubs may hold one; the
    caller passes those its reader may reach (``competition.selectors.tournament_at``). One
    query, the club read with it.
    """
    found = tournaments.filter(slug=slug).select_related("club").order_by("-published", "pk")
    return found.first()


def is_scorekeeper(user: Any, match: Match) -> bool:
    """Return whether ``user`` is assigned to keep score at ``match``."""
    if not _signed_in(user):
        return False
    return match.scorekeepers.filter(pk=user.pk).exists()


def seats_in(seat_users: tuple[int | None, ...] | None, user: Any) -> list[int]:
    """Return the seats (0-3) at which ``user`` sits, given the users by seat a log fixed."""
    if not _signed_in(user) or seat_users is None:
        return []
    return [seat for seat, user_id in enumerate(seat_users) if user_id == user.pk]


def seat_lineup(match: Match) -> tuple[list[int], list[int | None]]:
    """Return the players and their users by seat (0-3), as the teams stand now (one query).

    Read once, when the match starts; the log keeps them from then on. Partners sit opposite
    (S1): team0's first player at 0 and second at 2, team1's at 1 and 3.
    """
    seats = ("team0__first_player", "team1__first_player", "team0__second_player",
             "team1__second_player")  # fmt: skip
    row = (
        Match.objects.filter(pk=match.pk)
        .values_list(*seats, *(f"{seat}__user" for seat in seats))
        .get()
    )
    return list(row[:4]), list(row[4:])


# --- Which people and accounts a director may name ----------------------------------------


def in_directed_teams(user: Any) -> Q:
    """Return a filter on players: those of the teams of the tournaments ``user`` directs."""
    teams = Team.objects.filter(tournament__in=directed_tournaments(user).values("pk"))
    return Q(pk__in=teams.values("first_player")) | Q(pk__in=teams.values("second_player"))


def player_choices(user: Any) -> QuerySet[Player]:
    """Return the players ``user`` may put in a team in the admin: the members of the clubs
    they direct and the players of the teams of the tournaments they direct (every player, for
    a superuser)."""
    if user.is_superuser:
        return Player.objects.all()
    return Player.objects.filter(
        Q(club__in=directed_clubs(user).values("pk")) | in_directed_teams(user)
    )


def account_choices(user: Any) -> QuerySet[Any]:
    """Return the accounts ``user`` may choose in the admin (a score-keeper, a director, a
    member's account; every account, for a superuser).

    Their own club's: the user, the directors of the clubs they direct and the accounts of
    those clubs' members. And, since a tournament need not have a club, those its
    tournaments already name: the organizers and directors of the tournaments they direct,
    the accounts of those tournaments' players and the score-keepers of their matches.
    """
    accounts = get_user_model()._default_manager.all()
    if user.is_superuser:
        return accounts
    clubs = directed_clubs(user).values("pk")
    tournaments = directed_tournaments(user).values("pk")
    club_directors = Club.directors.through.objects.filter(club__in=clubs)
    directors = Tournament.directors.through.objects.filter(tournament__in=tournaments)
    keepers = Match.scorekeepers.through.objects.filter(match__tournament__in=tournaments)
    return accounts.filter(
        Q(pk=user.pk)
        | Q(pk__in=club_directors.values("user"))
        | Q(pk__in=player_choices(user).filter(user__isnull=False).values("user"))
        | Q(pk__in=Tournament.objects.filter(pk__in=tournaments).values("organizer"))
        | Q(pk__in=directors.values("user"))
        | Q(pk__in=keepers.values("user"))
    )


def nameable_accounts(
    actor: Any, *, club: Club | int | None = None, tournament: Tournament | None = None
) -> QuerySet[Any]:
    """Return the accounts ``actor`` may name in ``club`` or ``tournament`` (a score-keeper, a
    director, a player's or a member's account): the club's people, never any account of the
    site. Every account for a superuser (or ``SYSTEM``).

    The club's people are its directors and its members' accounts (the tournament's club,
    when a tournament is given), with the actor's own. A tournament adds what it names
    already, so that its current choices stay choosable (and a tournament of no club names
    only those): its organizer and directors, its players' accounts, the score-keepers of its
    matches (a stage's, ``competition``'s, are added by who reads them).
    """
    accounts = get_user_model()._default_manager.all()
    if actor is SYSTEM or (_signed_in(actor) and actor.is_superuser):
        return accounts
    if not _signed_in(actor):
        return accounts.none()
    if tournament is not None:
        club = tournament.club_id
    club_id = club.pk if isinstance(club, Club) else club
    named = Q(pk=actor.pk)
    if club_id is not None:
        club_directors = Club.directors.through.objects.filter(club_id=club_id)
        members = Player.objects.filter(club_id=club_id, user__isnull=False)
        named |= Q(pk__in=club_directors.values("user")) | Q(pk__in=members.values("user"))
    if tournament is not None:
        directors = Tournament.directors.through.objects.filter(tournament=tournament)
        keepers = Match.scorekeepers.through.objects.filter(match__tournament=tournament)
        teams = Team.objects.filter(tournament=tournament)
        players = Player.objects.filter(
            Q(pk__in=teams.values("first_player")) | Q(pk__in=teams.values("second_player")),
            user__isnull=False,
        )
        named |= (
            Q(pk=tournament.organizer_id)
            | Q(pk__in=directors.values("user"))
            | Q(pk__in=keepers.values("user"))
            | Q(pk__in=players.values("user"))
        )
    return accounts.filter(named)
