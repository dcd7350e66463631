"""Clubs and their members, tournaments, teams and matches, and each match's append-only
event log.

Models hold data and the invariants the database can keep. Writing a match's history is the
append service's job (``tournaments.services``); the event table itself refuses UPDATE and
DELETE (migration 0002), so no code path can rewrite it. See docs/events.md.
"""

from __future__ import annotations

import functools
import unicodedata
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext

import seep_core

from . import matchlog

#: ids are ``bigint``: a number from here up names no row (checked before a query, which the
#: database or its driver would refuse with an error, not an empty answer)
ID_LIMIT = 2**63
#: what an ``integer`` column holds (PostgreSQL's int4; SQLite's is wider): the API's and the
#: pages' fields for such columns are bounded by it, alike on every backend
INTEGER_MIN, INTEGER_MAX = -(2**31), 2**31 - 1


#: paths under /desk/ that a tournament's slug would hide (its desk is /desk/<slug>/)
RESERVED_SLUGS = frozenset({"new"})
#: a slug constraint's refusal where no slug is at hand (``Tournament.validate_constraints``
#: words it with the slug: ``slug_taken``)
SLUG_TAKEN = "the address is taken: choose another"


def slug_taken(slug: str) -> str:
    """Return the refusal of a slug a tournament holds, naming none. Said only of a slug the
    asker may know is held: a published tournament's (the site's), or one of their own club's
    (``slug_held``, ``Tournament.Meta.constraints``); a private tournament of another club
    holds its slug for its club alone, so it is never the cause."""
    return gettext("the address '%(slug)s' is taken: choose another") % {"slug": slug}


def slug_held(slug: str, *, club_id: int | None, tournament_id: int | None = None) -> bool:
    """Return whether ``slug`` is taken for a tournament of club ``club_id`` (``tournament_id``,
    or a new one): a published tournament holds it, or another of the same club (of no club:
    another of none). A private tournament of another club does not count: its slug is its
    club's, and counting it would tell whoever asked that it exists (``Tournament``)."""
    same_club = Q(club_id=club_id) if club_id is not None else Q(club__isnull=True)
    holders = Tournament.objects.filter(Q(published=True) | same_club, slug=slug)
    if tournament_id is not None:
        holders = holders.exclude(pk=tournament_id)
    return holders.exists()


def refuse_control_characters(value: str) -> None:
    """Refuse text holding a control character: no name has one (and PostgreSQL refuses NUL)."""
    if any(unicodedata.category(char) in {"Cc", "Cs"} for char in value):
        raise ValidationError(
            gettext("a name holds no control characters"), code="control_character"
        )


def default_rules() -> dict[str, Any]:
    """Return the default rule variants (docs/rules.md as written) as a JSON-ready dict."""
    return seep_core.Rules().to_dict()


def default_match_format() -> dict[str, Any]:
    """Return the default match format (M1: one bazzi) as a JSON-ready dict."""
    return seep_core.MatchFormat().to_dict()


def checked_rules(value: object) -> dict[str, Any]:
    """Return ``value`` as a complete rules dict; raise ValidationError if the engine refuses it.

    >>> checked_rules({"minimum": 0})["minimum"], checked_rules({})["sweep"]
    (0, 50)
    """
    if not isinstance(value, dict):
        raise ValidationError(gettext("rules must be an object"), code="bad_rules")
    try:
        return seep_core.Rules.from_dict(value).to_dict()
    except seep_core.SeepError as exc:
        raise ValidationError(exc.message, code=exc.code) from exc


def checked_match_format(value: object) -> dict[str, Any]:
    """Return ``value`` as a complete match format dict; raise ValidationError if it is refused."""
    if not isinstance(value, dict):
        raise ValidationError(gettext("a match format must be an object"), code="bad_format")
    try:
        return seep_core.MatchFormat.from_dict(value).to_dict()
    except seep_core.SeepError as exc:
        raise ValidationError(exc.message, code=exc.code) from exc


def numbered_within(
    parent: str, number: str, *, name: str
) -> tuple[list[str], list[models.BaseConstraint]]:
    """Return the Meta ``ordering`` and ``constraints`` of rows numbered within a parent (a
    tournament's stages, a stage's rounds, a match's receipts): in order of number within
    the parent, each number once per parent (the constraint called ``name``)."""
    return [parent, number], [models.UniqueConstraint(fields=[parent, number], name=name)]


@functools.cache
def time_zone_names() -> frozenset[str]:
    """Return the IANA time zone names this machine knows (read once: it scans the files)."""
    return frozenset(zoneinfo.available_timezones())


class Club(models.Model):
    """A club: the people who run its tournaments (its directors) and its members.

    A member (``Player``) belongs to one club and plays in its tournaments under the same row
    from one tournament to the next, so a rename shows everywhere (docs/clubs.md).
    """

    name = models.CharField(max_length=200, validators=[refuse_control_characters])
    slug = models.SlugField(max_length=100, unique=True)
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        help_text="The IANA time zone the club plays in (Asia/Kolkata, Europe/London).",
    )
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default="en",
        help_text="The language its pages show in when the browser asks for none of ours.",
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="clubs_directed",
        help_text="The organizers and directors who run the club.",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    suspended = models.BooleanField(
        default=False,
        help_text=(
            "Suspended by the site's operator: its pages and API answer that it is, its data "
            "is kept as it was."
        ),
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Refuse a time zone that is not an IANA name this machine knows."""
        if self.time_zone not in time_zone_names():
            raise ValidationError(
                {
                    "time_zone": ValidationError(
                        gettext(
                            "time zone: %(zone)s is not an IANA time zone name (such as "
                            "Asia/Kolkata or Europe/London)"
                        )
                        % {"zone": repr(self.time_zone)},
                        code="bad_time_zone",
                    )
                }
            )


#: the highest value a club's quota may be set to (a count, or requests a minute)
QUOTA_MOST = 1_000_000


def _quota(help_text: str) -> models.PositiveIntegerField[int | None, int | None]:
    """A club's quota of one kind: empty for the site's default, at most ``QUOTA_MOST``."""
    return models.PositiveIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(QUOTA_MOST)], help_text=help_text
    )


class ClubQuota(models.Model):
    """A club's own quotas, set by the site's operator: each empty field is the site's default
    (the setting named in its help). ``tournaments.quotas`` reads and enforces them."""

    club = models.OneToOneField(
        Club, primary_key=True, on_delete=models.CASCADE, related_name="quota"
    )
    tournaments_per_month = _quota(
        "Tournaments made in a calendar month of the club's time zone. "
        "Empty: QUOTA_TOURNAMENTS_PER_MONTH."
    )
    teams_per_tournament = _quota(
        "Teams registered in one tournament. Empty: QUOTA_TEAMS_PER_TOURNAMENT."
    )
    members = _quota("Members on the roster. Empty: QUOTA_MEMBERS.")
    webhooks = _quota("Webhook subscriptions of all its tournaments. Empty: QUOTA_WEBHOOKS.")
    tokens = _quota(
        "Unexpired API tokens for the club or its tournaments (teams' tokens not "
        "counted). Empty: QUOTA_TOKENS."
    )
    api_rate = _quota("API requests a minute of all its tokens together. Empty: QUOTA_API_RATE.")
    push_streams = _quota(
        "Live streams of its tournaments open at once, in each push process. "
        "Empty: QUOTA_PUSH_STREAMS."
    )

    class Meta:
        verbose_name = "club quota"

    def __str__(self) -> str:
        return f"quotas of {self.club}"


class Tournament(models.Model):
    """A tournament (an evening) of a club: its teams, stages and matches.

    Its slug is its address (``/t/<slug>/``). A slug is the whole site's only once its
    tournament is published; until then it is its club's: two clubs' private tournaments may
    hold one slug, and a published one may hold the slug of another club's private ones (the
    address then shows the published one: ``tournaments.access.at_slug``). So choosing a slug
    tells nobody that another club's private tournament holds it (docs/web.md, "A
    tournament's address").
    """

    name = models.CharField(max_length=200, validators=[refuse_control_characters])
    slug = models.SlugField(max_length=100)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organized_tournaments"
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_tournaments",
        help_text="Users the organizer added to direct this tournament with them.",
    )
    rules = models.JSONField(
        default=default_rules,
        blank=True,
        help_text="Rule variants (docs/rules.md V1-V5); each match copies them when created.",
    )
    match_format = models.JSONField(
        default=default_match_format,
        blank=True,
        help_text="The default match format (M1) for this tournament's matches.",
    )
    published = models.BooleanField(
        default=False,
        help_text="Anyone may follow a published tournament; an unpublished one is seen only "
        "by its directors, players and score-keepers.",
    )
    # Nullable in the database on purpose (tests and the API make tournaments without one);
    # the services always set it.
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments",
        help_text="The club whose members play in it.",
    )
    date = models.DateField(null=True, blank=True, help_text="The day it is played.")
    place = models.CharField(max_length=200, blank=True, help_text="Where it is played.")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            # one published tournament a slug: the site's address /t/<slug>/
            models.UniqueConstraint(
                fields=["slug"],
                condition=Q(published=True),
                name="tournament_slug_published",
                violation_error_code="slug_taken",
                violation_error_message=SLUG_TAKEN,
            ),
            # one tournament a slug in a club, published or not
            models.UniqueConstraint(
                fields=["club", "slug"],
                name="tournament_slug_in_club",
                violation_error_code="slug_taken",
                violation_error_message=SLUG_TAKEN,
            ),
            # and among the tournaments of no club (tests' and fixtures'; the services always
            # give one a club), as if they were one club
            models.UniqueConstraint(
                fields=["slug"],
                condition=Q(club__isnull=True),
                name="tournament_slug_clubless",
                violation_error_code="slug_taken",
                violation_error_message=SLUG_TAKEN,
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def validate_constraints(self, exclude: Any = None) -> None:
        """Check the constraints, a slug held told once, on the slug, as ``slug_taken``."""
        try:
            super().validate_constraints(exclude)
        except ValidationError as exc:
            errors = exc.update_error_dict({})
            held = [e for e in errors.get(NON_FIELD_ERRORS, []) if e.code == "slug_taken"]
            if held:
                rest = [e for e in errors.pop(NON_FIELD_ERRORS) if e.code != "slug_taken"]
                if rest:
                    errors[NON_FIELD_ERRORS] = rest
                errors.setdefault("slug", []).append(
                    ValidationError(slug_taken(self.slug), code="slug_taken")
                )
            raise ValidationError(errors) from exc

    def _slug_chosen(self) -> bool:
        """Whether the slug is being chosen: a new tournament's, or one changed."""
        if self._state.adding or self.pk is None:
            return True
        return not Tournament.objects.filter(pk=self.pk, slug=self.slug).exists()

    def clean(self) -> None:
        """Check the rules and format with the engine and store them complete (defaults filled);
        refuse a slug a desk page has (``RESERVED_SLUGS``), and a slug chosen (a new one, or
        changed) that ``slug_held`` says is taken: a published tournament's, or one of the same
        club's. (The constraints hold what must always hold; a private tournament keeps a slug
        another club publishes at later, and is refused only when it is published.)"""
        errors: dict[str, ValidationError] = {}
        if self.slug in RESERVED_SLUGS:
            errors["slug"] = ValidationError(
                gettext("'%(slug)s' is the address of a page of the desk: choose another")
                % {"slug": self.slug},
                code="reserved_slug",
            )
        elif (
            self.slug
            and self._slug_chosen()
            and slug_held(self.slug, club_id=self.club_id, tournament_id=self.pk)
        ):
            errors["slug"] = ValidationError(slug_taken(self.slug), code="slug_taken")
        try:
            self.rules = checked_rules(self.rules)
        except ValidationError as exc:
            errors["rules"] = exc
        try:
            self.match_format = checked_match_format(self.match_format)
        except ValidationError as exc:
            errors["match_format"] = exc
        if errors:
            raise ValidationError(errors)


class Player(models.Model):
    """A member of a club: one row for one person, in every team and tournament they play.

    ``club`` is empty only for rows made outside a club (the API's and older tests' players,
    and players of no team when clubs came, migration 0011).
    """

    name = models.CharField(max_length=200, validators=[refuse_control_characters])
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        help_text="The account this player signs in with, if any.",
    )
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="members"
    )
    contact = models.CharField(
        max_length=200,
        blank=True,
        help_text="A phone number or e-mail, to tell two members of one name apart.",
        validators=[refuse_control_characters],
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "member"

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Refuse a club other than the one of the tournaments the member plays in."""
        if self.pk is None or self.club_id is None:
            return
        elsewhere = (
            Team.objects.filter(Q(first_player=self) | Q(second_player=self))
            .exclude(tournament__club=self.club_id)
            .select_related("tournament")
            .first()
        )
        if elsewhere is not None:
            raise ValidationError(
                {
                    "club": gettext(
                        "%(member)s plays for %(team)s in %(tournament)s, a tournament of "
                        "another club."
                    )
                    % {
                        "member": self.name,
                        "team": elsewhere.name,
                        "tournament": elsewhere.tournament,
                    }
                }
            )


class Team(models.Model):
    """A fixed pair of players registered in one tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="teams")
    name = models.CharField(max_length=200, validators=[refuse_control_characters])
    first_player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="teams_as_first"
    )
    second_player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="teams_as_second"
    )
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        default="",
        help_text="The language of the team's card and link (blank: the club's).",
    )

    class Meta:
        ordering = ["tournament", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name"], name="team_name_unique_in_tournament"
            ),
            models.CheckConstraint(
                condition=~Q(first_player=F("second_player")),
                name="team_players_distinct",
                violation_error_message="A team is two different players.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Refuse a name another team of the tournament has but for its capitals ("tigers"
        beside "Tigers"), a player who already plays for another team of the same
        tournament, or a member of another club than the tournament's."""
        if self.tournament_id and self.name:
            folded = self.name.casefold()
            for other in (
                Team.objects.filter(tournament_id=self.tournament_id)
                .exclude(pk=self.pk)
                .values_list("name", flat=True)
            ):
                if other.casefold() == folded and other != self.name:
                    raise ValidationError(
                        {
                            "name": gettext(
                                "Another team is called %(team)s: team names must differ by "
                                "more than their capitals."
                            )
                            % {"team": other}
                        }
                    )
        if not (self.tournament_id and self.first_player_id and self.second_player_id):
            return
        for player in (self.first_player, self.second_player):
            if player.club_id is not None and player.club_id != self.tournament.club_id:
                raise ValidationError(
                    gettext(
                        "%(member)s is a member of another club: this tournament's teams are its "
                        "own club's members."
                    )
                    % {"member": player.name}
                )
        players = [self.first_player_id, self.second_player_id]
        clash = (
            Team.objects.filter(tournament_id=self.tournament_id)
            .filter(Q(first_player__in=players) | Q(second_player__in=players))
            .exclude(pk=self.pk)
            .first()
        )
        if clash is not None:
            raise ValidationError(
                gettext("A player of this team already plays for %(team)s in this tournament.")
                % {"team": clash.name}
            )
        if self.pk is not None and self.lineup_changed() and self.has_running_match():
            raise ValidationError(
                gettext("This team is playing a match: its players cannot change until it is over.")
            )

    def lineup_changed(self) -> bool:
        """Return whether the players differ from the team as stored."""
        stored = Team.objects.filter(pk=self.pk).values_list("first_player", "second_player")
        return stored.first() not in (None, (self.first_player_id, self.second_player_id))

    def has_running_match(self) -> bool:
        """Return whether the team plays a match that has started and not ended."""
        return Match.objects.filter(
            Q(team0=self) | Q(team1=self), status=matchlog.Status.IN_PROGRESS
        ).exists()


class MemberInvite(models.Model):
    """An invitation for a club's member to make their own account (docs/clubs.md): a
    one-time link, stored as the SHA-256 of its key, that ends when used or when it expires.
    A member never needs an account to play (a team's link does); one lets them play digital
    matches at their own seat and keep their own API tokens."""

    member = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invites")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["member", "-created_at"]

    def __str__(self) -> str:
        return f"invitation of {self.member}"


class TeamLink(models.Model):
    """A team's private link: whoever opens it acts for that team in its tournament's score
    matches (enter a deal, answer the other team's entry), with no account (docs/links.md).

    The key in the link is never stored: it is an HMAC, under the deployment's secret, of the
    row's ``nonce`` (from ``secrets``), so a copy of the database opens no link and the desk
    can print the same card again; the row keeps the key's SHA-256 to find it by. One link of
    a team is live at a time; reissuing it revokes the one before.
    """

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="links")
    nonce = models.CharField(max_length=64, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["team", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["team"], condition=Q(revoked_at__isnull=True), name="team_link_one_live"
            ),
        ]

    def __str__(self) -> str:
        return f"link of {self.team}" + (" (revoked)" if self.revoked_at else "")


class Match(models.Model):
    """A match between two teams: team0 sits at seats 0 and 2, team1 at seats 1 and 3."""

    Mode = matchlog.Mode
    Status = matchlog.Status

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="matches")
    team0 = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="matches_as_team0",
        help_text="Sits at seats 0 and 2: its first player at 0, its second at 2.",
    )
    team1 = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="matches_as_team1",
        help_text="Sits at seats 1 and 3: its first player at 1, its second at 3.",
    )
    mode = models.CharField(max_length=10, choices=matchlog.choices(matchlog.Mode))
    # Copied from the tournament when the match is created, never changed after: the
    # seep_core.Rules the match is played under, whatever the tournament's rules become.
    rules = models.JSONField(editable=False)
    match_format = models.JSONField(
        blank=True,
        help_text="How long the match lasts (M1); blank takes the tournament's format.",
    )
    first_dealer = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(3)],
        help_text="Seat 0-3 (S2); blank: the server draws one when the match starts.",
    )
    confirmation = models.CharField(
        max_length=12,
        choices=matchlog.choices(matchlog.Confirmation),
        default=matchlog.Confirmation.NONE,
        help_text="Score mode: who must agree before an entered deal result counts.",
    )
    status = models.CharField(
        max_length=12, choices=matchlog.choices(matchlog.Status), default=matchlog.Status.SCHEDULED
    )
    # The head of the event log: the last event's seq and hash (0 and "" before the first).
    last_seq = models.PositiveIntegerField(default=0, editable=False)
    last_hash = models.CharField(max_length=64, default="", blank=True, editable=False)
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="scorekept_matches"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(
                condition=~Q(team0=F("team1")),
                name="match_teams_distinct",
                violation_error_message="A match is between two different teams.",
            ),
            models.CheckConstraint(
                condition=Q(first_dealer__isnull=True) | Q(first_dealer__lte=3),
                name="match_first_dealer_is_a_seat",
                violation_error_message="The first dealer is a seat, 0-3.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team0} v {self.team1}"

    def clean(self) -> None:
        """Check the teams, rules and format; a new match takes the tournament's rules.

        Errors are not tied to fields: once a match has started the admin shows its fields
        read-only, and a form cannot attach an error to a field it does not have.
        """
        if not self.tournament_id:
            return
        errors: list[str] = []
        for field in ("team0", "team1"):
            team = getattr(self, field) if getattr(self, f"{field}_id") else None
            if team is not None and team.tournament_id != self.tournament_id:
                errors.append(f"{field}: {team} is not a team of {self.tournament}.")
        if self.confirmation != matchlog.Confirmation.NONE and self.mode != matchlog.SCORE:
            errors.append("confirmation: only deal results entered in score mode are confirmed.")
        if self._state.adding:
            # The rules are fixed when the match is created; checked once, never rewritten.
            try:
                rules = self.tournament.rules if self.rules is None else self.rules
                self.rules = checked_rules(rules)
            except ValidationError as exc:
                errors.extend(f"rules: {message}" for message in exc.messages)
        try:
            match_format = (
                self.tournament.match_format if self.match_format is None else self.match_format
            )
            self.match_format = checked_match_format(match_format)
        except ValidationError as exc:
            errors.extend(f"match format: {message}" for message in exc.messages)
        if errors:
            raise ValidationError(errors)

    def seat_players(self) -> tuple[Player, Player, Player, Player]:
        """Return the four players by seat (0-3): partners sit opposite each other."""
        team0, team1 = self.team0, self.team1
        return (team0.first_player, team1.first_player, team0.second_player, team1.second_player)

    def team_of_seat(self, seat: int) -> Team:
        """Return the team playing at ``seat``: team0 at the even seats, team1 at the odd."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise ValueError(f"a seat is 0, 1, 2 or 3, not {seat!r}")
        return self.team0 if seat % 2 == 0 else self.team1


class MatchEvent(models.Model):
    """One fact in a match's history: seq 1, 2, 3… with no gaps; never changed or removed."""

    Kind = matchlog.Kind

    # No index of its own: the unique (match, seq) below serves every lookup by match.
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32, choices=matchlog.choices(matchlog.Kind))
    payload = models.JSONField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="match_events",
        help_text="Who asked for the event; empty for events the server wrote itself.",
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    # NULL, not "", for an unkeyed event: NULLs never collide in the unique constraint.
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    # sha256 of the client's request on a keyed event, to tell a retry from a key reused
    # for a different request.
    request_digest = models.CharField(max_length=64, blank=True, default="")
    # For a derived event: the seq of the command event that caused it.
    caused_by = models.PositiveIntegerField(null=True, blank=True)
    # How the request came in ("token:<id>", "session", "admin"; "" for the server): part of
    # the history a director reads, hashed with the event when set.
    via = models.CharField(max_length=40, blank=True, default="")
    # sha256(previous event's hash + canonical JSON of this event): the chain (docs/events.md).
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["seq"]
        constraints = [
            # Also the index that reads a match's stream in order.
            models.UniqueConstraint(fields=["match", "seq"], name="matchevent_seq_unique"),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"], name="matchevent_idempotency_key_unique"
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="matchevent_seq_from_1"),
            models.CheckConstraint(
                condition=Q(caused_by__isnull=True) | Q(caused_by__lt=F("seq")),
                name="matchevent_caused_by_earlier",
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} #{self.seq} {self.kind}"


class MatchSnapshot(models.Model):
    """The engine state after event ``seq``: a cache for validating appends, never the truth.

    Rebuildable at any time by replaying the match's events through seep_core.
    """

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.PROTECT, related_name="snapshot"
    )
    seq = models.PositiveIntegerField(help_text="The last event folded into the state.")
    # The hash of event ``seq`` and a keyed digest binding the match, the seq, that hash and
    # the state: a snapshot is trusted only when the digest checks out and the events after
    # it run from that event to the head of the log (it is written every few events:
    # ``snapshots.SNAPSHOT_EVERY``); a row copied from another match, or past the head, is
    # rebuilt instead.
    head_hash = models.CharField(max_length=64, default="", editable=False)
    digest = models.CharField(max_length=64, default="", editable=False)
    state = models.TextField(
        help_text="The state's canonical JSON: the very text the digest binds."
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"snapshot of match {self.match_id} at #{self.seq}"


class MatchReceipt(models.Model):
    """A signed statement of a finished match: its result and the head of its log at the end.

    Signed with a key kept outside the database (``tournaments.receipts``), so a copy handed
    to the teams proves later what the log said, even against someone who can rewrite the
    database. One per time the match ended (a correction that reopens it and ends it again
    gets a new one).
    """

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="receipts")
    seq = models.PositiveIntegerField(help_text="The event that ended the match.")
    body = models.JSONField(help_text="What is signed (canonical JSON of it).")
    signature = models.CharField(max_length=200)
    key_id = models.CharField(max_length=64)
    issued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering, constraints = numbered_within("match", "seq", name="matchreceipt_seq_unique")

    def __str__(self) -> str:
        return f"receipt of match {self.match_id} at #{self.seq}"


class SeatClaim(models.Model):
    """A seat of a digital match held by one phone acting through its team's link (docs/links.md,
    "Playing a digital match"), or by a bot through a team token bound to the seat's player
    ("A bot at one seat"): the first to claim the seat holds it until a director releases it.
    The phone is known by the SHA-256 of a random claim id kept in its session (never the id
    itself), the bot by the SHA-256 of one the server derives (``seats.bound_claim_id``). One
    holder a seat, one seat a phone, per match: the database keeps both, so two claiming at the
    same moment cannot both win. A release is kept (who, when), not deleted.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seat_claims")
    seat = models.PositiveSmallIntegerField(validators=[MaxValueValidator(3)])
    link = models.ForeignKey(TeamLink, on_delete=models.CASCADE, related_name="seat_claims")
    browser_hash = models.CharField(max_length=64, editable=False)
    claimed_at = models.DateTimeField(default=timezone.now, editable=False)
    released_at = models.DateTimeField(null=True, blank=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip

    class Meta:
        ordering = ["match", "seat", "-claimed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "seat"],
                condition=Q(released_at__isnull=True),
                name="seat_claim_one_holder",
            ),
            models.UniqueConstraint(
                fields=["match", "browser_hash"],
                condition=Q(released_at__isnull=True),
                name="seat_claim_one_seat_a_phone",
            ),
            models.CheckConstraint(condition=Q(seat__lte=3), name="seat_claim_seat_0_to_3"),
        ]

    def __str__(self) -> str:
        held = " (released)" if self.released_at else ""
        return f"seat {self.seat} of match {self.match_id}{held}"


class TablePhones(models.Model):
    """What the server knows of the phones at a match's table (docs/links.md, "One phone a
    table"): when each team's phone was last heard from and how many entries it said it held
    unsent, whether the table plays on one phone (the other team confirmed with the code on
    its card), and the wrong codes its phone typed (a phone that guesses is locked out of
    codes until a director lets it try again). One row a match, made on first need; nothing
    here is part of the match's log.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="phones"
    )
    heard0 = models.DateTimeField(null=True, blank=True)  # team0's phone, last heard
    heard1 = models.DateTimeField(null=True, blank=True)
    unsent0 = models.PositiveSmallIntegerField(default=0)  # entries it said it holds unsent
    unsent1 = models.PositiveSmallIntegerField(default=0)
    #: since when the table plays on one phone (a code typed there, right or wrong)
    one_phone_at = models.DateTimeField(null=True, blank=True)
    one_phone_side = models.PositiveSmallIntegerField(null=True, blank=True)  # whose phone
    #: wrong codes typed since the last right one
    code_failures = models.PositiveSmallIntegerField(default=0)
    locked_at = models.DateTimeField(null=True, blank=True)  # locked out of codes since

    def __str__(self) -> str:
        return f"phones of match {self.match_id}"


class Erasure(models.Model):
    """That a member's personal data was erased (tournaments.privacy, docs/privacy.md): who
    asked and when, never what was erased. The member's row stays, under its neutral label,
    so the logs, results and ratings that name it by id still hold together."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="erasures")
    member = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="erasure")
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", help_text="The director (or the member) who asked for it.",
    )  # fmt: skip
    by_member = models.BooleanField(
        default=False, help_text="The member asked for their own erasure."
    )
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["club", "-at"]

    def __str__(self) -> str:
        return f"erasure of member {self.member_id} at {self.at:%Y-%m-%d}"


class Happening(models.Model):
    """One thing that happened in a tournament that integrators or viewers are told of (a deal
    recorded, a match completed, a round published...), written in the transaction of the
    change itself and numbered per tournament in commit order (tournaments.happenings): the
    results log, the webhooks and the live messages are all read from these rows."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="happenings")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    body = models.JSONField()
    #: what makes the happening itself (a deal's row, a completion at a head...): written
    #: twice (a projection run again), it is kept once; "" for none (standings.changed)
    key = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="happening_seq_unique"),
            models.UniqueConstraint(
                fields=["tournament", "key"],
                condition=~models.Q(key=""),
                name="happening_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.seq} of tournament {self.tournament_id}"


class HappeningsHead(models.Model):
    """A tournament's last happening's seq: the row each writer of a happening locks, in the
    transaction of its change, so that happenings commit in the order of their seqs."""

    tournament = models.OneToOneField(
        Tournament, primary_key=True, on_delete=models.CASCADE, related_name="happenings_head"
    )
    last_seq = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"happenings of tournament {self.tournament_id}: {self.last_seq}"
