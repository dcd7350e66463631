"""What a club learns across evenings: its members' ratings, its seasons and their ladders.

``MemberRating``, ``RatingChange``, ``PartnershipRating``, ``RatingCheckpoint`` and
``EveningResult`` are projections of the match logs (through scoring's results), written only
by ``seasons.services`` and rebuilt from the logs by ``manage.py rebuild_projections``.
``Season`` and ``ClubSeasons`` are what a club's directors decide; ``RatingPrivacy`` what a
member (or a director) decides.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext

from tournaments.models import Club, Match, Player, Team, Tournament, refuse_control_characters

from . import ladder, rating

#: the most places a ladder rule may list, and the most points one place or win may earn
MAX_PLACES, MAX_POINTS = 64, 10_000


class ClubSeasons(models.Model):
    """A club's choices for ratings and ladders."""

    club = models.OneToOneField(
        Club, primary_key=True, on_delete=models.CASCADE, related_name="seasons_settings"
    )
    public = models.BooleanField(
        default=False,
        help_text="Anyone may see the club's ladder, rating list and member pages; otherwise "
        "only its directors and its members who sign in.",
    )
    settled_after = models.PositiveSmallIntegerField(
        default=rating.SETTLED_AFTER,
        help_text="A member's rating is provisional until this many rated matches (1 to 1000).",
    )

    class Meta:
        verbose_name = "club's seasons settings"
        verbose_name_plural = "clubs' seasons settings"

    def __str__(self) -> str:
        return f"seasons settings of {self.club}"

    def clean(self) -> None:
        """Refuse a count of matches to settle outside 1 to 1000."""
        if not 1 <= self.settled_after <= 1000:
            raise ValidationError(
                {"settled_after": gettext("settled_after: from 1 to 1000 rated matches")},
                code="bad_season",
            )


class Season(models.Model):
    """A club's season: its evenings from ``starts_on`` to ``ends_on`` and its ladder rule."""

    class Rule(models.TextChoices):
        PLACES = ladder.PLACES, "points per place each evening"
        WINS = ladder.WINS, "points per match won"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=200, validators=[refuse_control_characters])
    starts_on = models.DateField()
    ends_on = models.DateField()
    rule = models.CharField(max_length=8, choices=Rule.choices, default=Rule.PLACES)
    points = models.JSONField(
        default=list,
        help_text="Places: the points of the 1st, 2nd... place; wins: one number, per match won.",
    )
    best = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Only each member's best N evenings count (blank: all)."
    )

    class Meta:
        ordering = ["club", "-starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_it_starts"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Refuse an empty name, dates out of order, points that are not a short list of
        whole numbers (one for a rule by wins), and a best N of 0."""
        errors: dict[str, Any] = {}
        if not (self.name or "").strip():
            errors["name"] = ValidationError(gettext("a season has a name"), code="bad_season")
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            errors["ends_on"] = ValidationError(
                gettext("the season ends on or after the day it starts"), code="bad_season"
            )
        points = self.points
        if (
            not isinstance(points, list)
            or not 1 <= len(points) <= MAX_PLACES
            or not all(type(p) is int and 0 <= p <= MAX_POINTS for p in points)
        ):
            errors["points"] = ValidationError(
                gettext("points: a list of 1 to %(places)s whole numbers from 0 to %(most)s")
                % {"places": MAX_PLACES, "most": MAX_POINTS},
                code="bad_season",
            )
        elif self.rule == self.Rule.WINS and len(points) != 1:
            errors["points"] = ValidationError(
                gettext("points: one number, the points of a match won"), code="bad_season"
            )
        if self.best is not None and not 1 <= self.best <= 1000:
            errors["best"] = ValidationError(
                gettext("best: from 1 to 1000 evenings, or blank for all"), code="bad_season"
            )
        if errors:
            raise ValidationError(errors)

    def ladder_rule(self) -> ladder.Rule:
        """Return the season's rule as the ladder computes it."""
        return ladder.Rule(self.rule, tuple(self.points), self.best)


class RatingCheckpoint(models.Model):
    """How far a club's ratings are folded: the key of the last game rated (none: no game).

    Its row is the lock every writer of the club's ratings takes first.
    """

    club = models.OneToOneField(
        Club, primary_key=True, on_delete=models.CASCADE, related_name="rating_checkpoint"
    )
    day = models.DateField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    match_id_last = models.BigIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings of {self.club} to match {self.match_id_last}"


class MemberRating(models.Model):
    """A member's rating after the last match they played (drift up to today is the reader's)."""

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="member_ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField()
    last_played_on = models.DateField(help_text="The evening of the member's last match.")

    class Meta:
        ordering = ["club", "-mu", "player"]

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.1f} ± {self.sigma:.1f}"


class RatingChange(models.Model):
    """What one rated match did to one member's rating (the rows a member's chart reads)."""

    class Result(models.TextChoices):
        WON = "won", "won"
        DREW = "drew", "drew"
        LOST = "lost", "lost"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    partner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    team = models.PositiveSmallIntegerField(help_text="The side of the match: 0 or 1.")
    result = models.CharField(max_length=4, choices=Result.choices)
    day = models.DateField(help_text="The evening's date (its tournament's).")
    finished_at = models.DateTimeField(help_text="When the match first ended.")
    mu_before = models.FloatField(help_text="After the drift of time away.")
    sigma_before = models.FloatField(help_text="After the drift of time away.")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(
        help_text="The member's rated matches, this one included."
    )

    class Meta:
        ordering = ["club", "day", "finished_at", "match", "player"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="ratingchange_unique"),
        ]
        indexes = [
            models.Index(fields=["club", "day", "finished_at", "match"], name="ratingchange_key"),
            models.Index(fields=["player", "day", "finished_at"], name="ratingchange_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in match {self.match_id}: {self.mu:.1f}"


class PartnershipRating(models.Model):
    """A pair's own rating, from the matches the two played together (``rating.fold_pairs``),
    written beside the members' ratings by the same writer, so it is rebuilt from the logs as
    they are."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="partnership_ratings")
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(help_text="Rated matches the two played together.")
    last_played_on = models.DateField(help_text="The evening of their last match together.")

    class Meta:
        ordering = ["club", "-mu", "first", "second"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="partnershiprating_unique"),
            models.CheckConstraint(
                condition=Q(first__lt=F("second")), name="partnershiprating_first_lower"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_id} & {self.second_id}: {self.mu:.1f} ± {self.sigma:.1f}"


class RatingPrivacy(models.Model):
    """A member's choice to keep their rating from the club's public page and API (its
    directors, and the member, still see it). No row: shown as the club's pages are."""

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="rating_privacy"
    )
    hidden = models.BooleanField(default=False)
    changed_at = models.DateTimeField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip

    class Meta:
        verbose_name_plural = "rating privacy choices"

    def __str__(self) -> str:
        return f"{self.player}: rating {'hidden' if self.hidden else 'shown'}"


class EveningResult(models.Model):
    """A member's evening: their team's place (once the evening is over) and matches won."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evening_results")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="evening_results"
    )
    date = models.DateField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="evening_results")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveIntegerField(null=True, blank=True)
    won = models.PositiveSmallIntegerField(default=0)
    played = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["club", "date", "tournament", "place", "player"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="eveningresult_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.tournament}"


class RatingSeeding(models.Model):
    """That a tournament's teams were seeded from their members' ratings, and how."""

    class Measure(models.TextChoices):
        SUM = "sum", "the sum of the members' ratings"
        CONSERVATIVE = "conservative", "the sum of the members' conservative estimates"

    tournament = models.OneToOneField(
        Tournament, primary_key=True, on_delete=models.CASCADE, related_name="rating_seeding"
    )
    measure = models.CharField(max_length=12, choices=Measure.choices)
    teams = models.PositiveIntegerField()
    seeded_at = models.DateTimeField()
    seeded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip

    def __str__(self) -> str:
        return f"{self.tournament} seeded by {self.get_measure_display()}"
