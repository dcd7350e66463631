"""What a stage records: its standings (a projection), notices to its directors, and the
decisions of ties at a cut."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.models import Team, numbered_within

from .rounds import Fixture
from .stages import Stage


class StandingRow(models.Model):
    """One team's line in a stage's standings as of a round (a projection: never edited)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="standing_rows")
    as_of_round = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="standing_rows")
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    rank = models.PositiveIntegerField()
    points = models.IntegerField()
    played = models.PositiveSmallIntegerField()
    won = models.PositiveSmallIntegerField()
    drawn = models.PositiveSmallIntegerField()
    lost = models.PositiveSmallIntegerField()
    byes = models.PositiveSmallIntegerField()
    #: the chosen tie-breaks in order: [[name, value], ...] (a fraction as "n/d")
    tiebreaks = models.JSONField(default=list)

    class Meta:
        ordering = ["stage", "as_of_round", "group", "rank", "team"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "as_of_round", "team"], name="standingrow_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.rank} after round {self.as_of_round} of {self.stage}"


class StandingsCheckpoint(models.Model):
    """What a stage's standings as of a round were computed from: a digest of their inputs.

    The projection recomputes a round's rows only when the digest of its inputs (the stage's
    points and tie-breaks, every fixture result and match figure up to that round) differs.
    """

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="checkpoints")
    as_of_round = models.PositiveSmallIntegerField()
    digest = models.CharField(max_length=64)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering, constraints = numbered_within(
            "stage", "as_of_round", name="standingscheckpoint_unique"
        )

    def __str__(self) -> str:
        return f"standings of {self.stage} as of round {self.as_of_round}"


class Notice(models.Model):
    """Something a director must look at, which the competition could not settle itself.

    Written when a corrected result no longer fits what was built on it: a bracket match that
    has begun holds a team the results no longer send there, or a later round was paired on
    the earlier result. Resolved by a director (``services.notice_resolve``).
    """

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="notices")
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="notices"
    )
    code = models.CharField(max_length=40)
    message = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.stage}: {self.message}"


class CutDecision(models.Model):
    """How a director decided a tie at a qualification's cut: teams level on every tie-break
    across the line of a stage that takes the top N of the one before (docs/competition.md,
    "Ties at the cut"). A record, never edited: the drawn lot's seed and order, or the order
    the director set, who decided and when. ``stage`` is the stage the teams enter.
    """

    class Method(models.TextChoices):
        LOT = "lot", "a drawn lot"
        ORDER = "order", "the director's order"

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="cut_decisions")
    #: the tie it decides: the group of the stage before ("" for the whole table) and the
    #: tied teams' ids in ascending order, as ``competition.cut`` names it
    tie = models.TextField()
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    teams = models.JSONField(help_text="The tied teams' ids, ascending.")
    method = models.CharField(max_length=8, choices=Method.choices)
    order = models.JSONField(help_text="The tied teams' ids as decided, the highest first.")
    lot_seed = models.BigIntegerField(
        null=True, blank=True, help_text="A drawn lot: the random seed it was drawn from."
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    decided_by_name = models.CharField(max_length=150, help_text="Who decided, as they were named.")
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["stage", "decided_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "tie"], name="cutdecision_tie_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.stage}: {self.get_method_display()} for {self.tie}"
