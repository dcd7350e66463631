"""The scoring read models: each deal's result and each match's standing, folded from its log.

Nothing here is the truth: every row is recomputed from the match's event log by
``scoring.services.update_match_projection`` (incrementally, on a Celery worker) or by
``manage.py rebuild_projections`` (from scratch), and the two give the same rows. Only the
projection service writes these tables; the admin shows them read-only.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from tournaments.models import Match

TEAMS = [(0, "team 0"), (1, "team 1")]


class MatchResult(models.Model):
    """Where a match stands according to its log up to event ``seq`` (the checkpoint)."""

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, related_name="result"
    )
    seq = models.PositiveIntegerField(
        default=0, help_text="Checkpoint: the last event of the match's log folded in."
    )
    started = models.BooleanField(default=False)
    deals = models.PositiveIntegerField(default=0, help_text="Deals scored (redeals excluded).")
    difference = models.IntegerField(
        default=0, help_text="The running difference, team 0 minus team 1 (L1-L3)."
    )
    bazzis0 = models.PositiveSmallIntegerField("bazzis of team 0", default=0)
    bazzis1 = models.PositiveSmallIntegerField("bazzis of team 1", default=0)
    next_dealer = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat dealing the next deal (R1-R3)."
    )
    over = models.BooleanField(default=False, help_text="The format says the match is over (M1).")
    winner = models.PositiveSmallIntegerField(null=True, blank=True, choices=TEAMS)
    draw = models.BooleanField(default=False)
    forfeited_by = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=TEAMS, help_text="The team a director declared forfeit."
    )
    completed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the event that ended the match was recorded (none while it is open "
        "again after a correction).",
    )
    updated_at = models.DateTimeField(
        null=True, blank=True, help_text="When a worker last moved the checkpoint."
    )

    class Meta:
        ordering = ["match"]
        constraints = [
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__lte=1), name="matchresult_winner_team"
            ),
            models.CheckConstraint(
                condition=Q(next_dealer__isnull=True) | Q(next_dealer__lte=3),
                name="matchresult_next_dealer_seat",
            ),
            models.CheckConstraint(
                condition=~Q(draw=True, winner__isnull=False), name="matchresult_draw_no_winner"
            ),
        ]

    def __str__(self) -> str:
        return f"result of match {self.match_id} at #{self.seq}"

    @property
    def bazzis(self) -> tuple[int, int]:
        """Bazzis won by team 0 and team 1."""
        return (self.bazzis0, self.bazzis1)


class DealResult(models.Model):
    """One scored deal of a match: the teams' scores (E2) and what they did to the ledger (L1-L3).

    Team 0 sits at seats 0 and 2 (the match's ``team0``), team 1 at seats 1 and 3.
    """

    class Reason(models.TextChoices):
        LEAD = "lead", "lead of 100 (L2)"
        MINIMUM = "minimum", "under the minimum (L3)"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deal_results")
    deal = models.PositiveIntegerField(
        help_text="The deal's number in the match, redeals included."
    )
    dealer = models.PositiveSmallIntegerField()
    points0 = models.PositiveSmallIntegerField("card points of team 0")
    points1 = models.PositiveSmallIntegerField("card points of team 1")
    sweeps0 = models.JSONField("sweeps of team 0", default=list)
    sweeps1 = models.JSONField("sweeps of team 1", default=list)
    total0 = models.PositiveIntegerField("total of team 0")
    total1 = models.PositiveIntegerField("total of team 1")
    difference = models.IntegerField(help_text="This deal's total of team 0 minus team 1's.")
    running_difference = models.IntegerField(
        help_text="The running difference after the deal, team 0 minus team 1."
    )
    reset = models.BooleanField(
        default=False,
        help_text="A team scored under the minimum (L3): the bazzi went to the other team "
        "whatever the running difference, which went back to zero.",
    )
    bazzi = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=TEAMS, help_text="The team that won a bazzi in this deal."
    )
    reason = models.CharField(  # noqa: DJ001 -- NULL: no bazzi (the ledger step's reason)
        max_length=8, null=True, blank=True, choices=Reason.choices
    )
    bazzis0 = models.PositiveSmallIntegerField("bazzis of team 0 after the deal")
    bazzis1 = models.PositiveSmallIntegerField("bazzis of team 1 after the deal")
    seq = models.PositiveIntegerField(help_text="The event this result comes from.")

    class Meta:
        ordering = ["match", "deal"]
        constraints = [
            models.UniqueConstraint(fields=["match", "deal"], name="dealresult_deal_unique"),
            models.CheckConstraint(
                condition=Q(bazzi__isnull=True) | Q(bazzi__lte=1), name="dealresult_bazzi_team"
            ),
            models.CheckConstraint(
                condition=Q(bazzi__isnull=True, reason__isnull=True)
                | Q(bazzi__isnull=False, reason__in=["lead", "minimum"]),
                name="dealresult_bazzi_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} deal {self.deal}"
