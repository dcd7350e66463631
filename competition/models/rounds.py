"""Rounds of a stage, and their fixtures (a pairing, a bye, or a bracket slot)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournaments.models import Match, Team, numbered_within

from .stages import Stage


class Round(models.Model):
    """A round of a stage: draft (directors only) -> published (matches made) -> complete."""

    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        PUBLISHED = "published", "published"
        COMPLETE = "complete", "complete"

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100, blank=True)
    part = models.CharField(
        max_length=16, blank=True, help_text="In a bracket: main, winners, losers, final..."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    created_at = models.DateTimeField(default=timezone.now)
    published_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    #: how the round was paired (method, cost, solver, floats...), for the record
    pairing = models.JSONField(default=dict, blank=True)
    #: the receipts of the round's matches (head hash, events), written when it completes
    receipts = models.JSONField(default=list, blank=True)

    class Meta:
        ordering, constraints = numbered_within("stage", "number", name="round_number_unique")

    def __str__(self) -> str:
        return self.name or f"round {self.number}"


class Fixture(models.Model):
    """One pairing of a round: two teams at a table and their match, or a bye, or a bracket
    slot whose teams come from earlier fixtures."""

    class Result(models.TextChoices):
        PENDING = "", "pending"
        A = "a", "won by a"
        B = "b", "won by b"
        DRAW = "draw", "drawn"
        BYE = "bye", "a bye for a"
        FORFEIT_A = "forfeit_a", "forfeited by a"
        FORFEIT_B = "forfeit_b", "forfeited by b"
        VOID = "void", "not played"

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="fixtures")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="fixtures")
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    team_a = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="fixtures_as_a"
    )
    team_b = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="fixtures_as_b"
    )
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="fixture"
    )
    result = models.CharField(max_length=10, choices=Result.choices, default="", blank=True)
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    # A bracket's wiring (docs/competition.md): the fixture's key, where its winner and its
    # loser go ("<key>:a" / "<key>:b"), and, for a reset final, when it is played at all.
    key = models.CharField(max_length=16, blank=True)
    source_a = models.CharField(max_length=24, blank=True, help_text="Seed n, winner/loser of X")
    source_b = models.CharField(max_length=24, blank=True)
    winner_to = models.CharField(max_length=20, blank=True)
    loser_to = models.CharField(max_length=20, blank=True)
    played_if = models.CharField(max_length=20, blank=True)
    #: the terms the match was created under: points, tie-breaks, format, mode
    terms = models.JSONField(default=dict, blank=True)
    floats = models.JSONField(default=list, blank=True)
    #: what a team's withdrawal decided here, to undo it (``team_reinstate``): the team, its
    #: side ("a"/"b") and the match it unlinked; empty: the withdrawal decided nothing here
    withdrawal = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["stage", "round__number", "table", "key", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="fixture_table_unique_in_round",
            ),
            models.UniqueConstraint(
                fields=["stage", "key"], condition=~Q(key=""), name="fixture_key_unique"
            ),
            models.CheckConstraint(
                condition=Q(team_a__isnull=True)
                | Q(team_b__isnull=True)
                | ~Q(team_a=models.F("team_b")),
                name="fixture_teams_distinct",
            ),
        ]

    def __str__(self) -> str:
        a = self.team_a or self.source_a or "?"
        b = self.team_b or self.source_b or ("bye" if self.result == "bye" else "?")
        where = f"table {self.table}" if self.table else self.key
        return f"{self.round}, {where}: {a} v {b}"

    @property
    def decided(self) -> bool:
        """Whether the fixture has its result (a bye and a void fixture included)."""
        return self.result != self.Result.PENDING

    def winner(self) -> Team | None:
        """Return the team that went through (a win, a forfeit, a bye), or None."""
        if self.result in (self.Result.A, self.Result.BYE, self.Result.FORFEIT_B):
            return self.team_a
        if self.result in (self.Result.B, self.Result.FORFEIT_A):
            return self.team_b
        return None

    def loser(self) -> Team | None:
        """Return the team that lost it (a forfeit included), or None."""
        if self.result in (self.Result.A, self.Result.FORFEIT_B):
            return self.team_b
        if self.result in (self.Result.B, self.Result.FORFEIT_A):
            return self.team_a
        return None
