"""Registrations, stages (their settings and the rules of the row), and their entrants."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournaments.matchlog import Confirmation, Mode, choices
from tournaments.models import Team, Tournament, checked_match_format, numbered_within

from ..formats import TIEBREAK_LABELS


class Registration(models.Model):
    """A team's entry in its tournament: its seeding figures, check-in and withdrawal."""

    team = models.OneToOneField(
        Team, primary_key=True, on_delete=models.CASCADE, related_name="registration"
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    seed = models.PositiveIntegerField(
        null=True, blank=True, help_text="Manual seeding order (1 first); blank: after the seeded."
    )
    rating = models.IntegerField(null=True, blank=True, help_text="For seeding by rating.")
    registered_at = models.DateTimeField(default=timezone.now)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed", "team__name"]

    def __str__(self) -> str:
        return f"registration of {self.team}"

    @property
    def active(self) -> bool:
        """Checked in and not withdrawn: the team plays when a stage starts."""
        return self.checked_in_at is not None and self.withdrawn_at is None


class Stage(models.Model):
    """One phase of a tournament, with the rules it is played under, fixed when it starts."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "round robin"
        DOUBLE_ROUND_ROBIN = "double_round_robin", "double round robin"
        SWISS = "swiss", "Swiss"
        SINGLE_ELIMINATION = "single_elimination", "single elimination"
        DOUBLE_ELIMINATION = "double_elimination", "double elimination"
        GROUPS = "groups", "round-robin groups"

    class Entry(models.TextChoices):
        REGISTERED = "registered", "every checked-in team"
        TOP = "top", "the top N of the previous stage"
        TOP_PER_GROUP = "top_per_group", "the top N of each group of the previous stage"

    class Seeding(models.TextChoices):
        MANUAL = "manual", "manual order"
        RATING = "rating", "by rating"
        RANDOM = "random", "random (the seed is recorded)"
        STANDINGS = "standings", "by the previous stage's standings"

    class Withdrawal(models.TextChoices):
        FORFEIT = "forfeit", "the withdrawn team forfeits its later fixtures"
        BYE = "bye", "its opponents get a bye"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        RUNNING = "running", "running"
        COMPLETE = "complete", "complete"

    class SwissMethod(models.TextChoices):
        SLIDE = "slide", "slide (1 v 5, 2 v 6...)"
        FOLD = "fold", "fold (1 v 8, 2 v 7...)"
        ADJACENT = "adjacent", "adjacent (1 v 2, 3 v 4...)"

    class DropOrders(models.TextChoices):
        FEWEST_POSSIBLE = "fewest_possible", "per round, the fewest possible rematches"
        MEASURED = "measured", "the table measured by the rematches that happen"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="stages")
    order = models.PositiveSmallIntegerField(help_text="1 for the first stage, 2 next...")
    name = models.CharField(max_length=200)
    format = models.CharField(max_length=24, choices=Format.choices)
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss: how many rounds (the others know their own)."
    )
    groups = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text="Groups: how many."
    )
    entry = models.CharField(max_length=16, choices=Entry.choices, default=Entry.REGISTERED)
    entry_count = models.PositiveIntegerField(
        null=True, blank=True, help_text="N of the top N (per group) entering from the previous."
    )
    late_entry = models.BooleanField(
        default=False, help_text="Swiss: a team registered after the start joins the next round."
    )
    seeding = models.CharField(max_length=12, choices=Seeding.choices, default=Seeding.MANUAL)
    seeding_seed = models.BigIntegerField(
        null=True, blank=True, help_text="The random seed a random seeding used (recorded)."
    )
    swiss_method = models.CharField(
        max_length=10, choices=SwissMethod.choices, default=SwissMethod.SLIDE
    )
    match_format = models.JSONField(help_text="How long each match lasts (M1).")
    mode = models.CharField(max_length=10, choices=choices(Mode), default=Mode.DIGITAL)
    confirmation = models.CharField(
        max_length=12,
        choices=choices(Confirmation),
        default=Confirmation.NONE,
        help_text="Score mode: who must agree before an entered deal result counts.",
    )
    points_win = models.PositiveSmallIntegerField(default=2)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    points_bye = models.PositiveSmallIntegerField(default=2)
    points_forfeit = models.PositiveSmallIntegerField(
        default=0, help_text="What the team that forfeits gets (its opponent gets a win)."
    )
    tiebreaks = models.JSONField(
        default=list, blank=True, help_text="Tie-breaks in order (docs/competition.md)."
    )
    tiebreak_seed = models.BigIntegerField(
        null=True, blank=True, help_text="The seed of the random draw tie-break (recorded)."
    )
    third_place = models.BooleanField(default=False, help_text="Single elimination.")
    grand_final_reset = models.BooleanField(default=True, help_text="Double elimination.")
    # Not a setting: a record of how the bracket was drawn. The bracket is read again from its
    # seeds whenever a result comes in, so it must be read with the orders it was drawn with;
    # the stages drawn before the measured table keep "fewest_possible" (migration 0005).
    drop_orders = models.CharField(
        max_length=16,
        choices=DropOrders.choices,
        default=DropOrders.MEASURED,
        help_text="Double elimination: the losers' bracket drop orders its bracket was drawn "
        "with (set when drawn; docs/competition.md).",
    )
    withdrawal = models.CharField(
        max_length=8, choices=Withdrawal.choices, default=Withdrawal.FORFEIT
    )
    start_matches = models.BooleanField(
        default=True, help_text="Start each match (first dealer drawn) when its round is published."
    )
    review_draw = models.BooleanField(
        default=False,
        help_text="A bracket: its first round stays a draft when the stage starts, for the "
        "directors to review (swap seeds) and publish; off, it is published at the start.",
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="scorekept_stages",
        help_text="Keep score at every match of the stage.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering, constraints = numbered_within("tournament", "order", name="stage_order_unique")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"

    @property
    def elimination(self) -> bool:
        """Whether the stage is a bracket (its matches cannot end drawn)."""
        return self.format in (self.Format.SINGLE_ELIMINATION, self.Format.DOUBLE_ELIMINATION)

    #: the settings ``clean`` checks itself, in words: Django's own checks of them (a choice,
    #: a whole number) are left out, so a refusal is said once, naming the setting
    CHECKED_BY_CLEAN = (
        "format", "mode", "confirmation", "entry", "seeding", "swiss_method", "withdrawal",
        "rounds", "groups", "entry_count", "tiebreaks", "match_format",
    )  # fmt: skip

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        super().clean_fields(exclude={*(exclude or ()), *self.CHECKED_BY_CLEAN})

    def clean(self) -> None:
        """Refuse the settings of this row the formats and the engine cannot take, each under
        its field's name in words an organizer understands; store the match format complete.

        These rules read this row only (so every way in, the admin included, applies them:
        ``full_clean``). The rules that read other rows (the stage before, the teams) are the
        service's: ``competition.services.check_settings``.
        """
        errors: dict[str, list[ValidationError]] = {}

        def refuse(field: str, message: str, code: str) -> None:
            errors.setdefault(field, []).append(ValidationError(message, code=code))

        for field, code in (
            ("format", "bad_format"), ("mode", "bad_mode"), ("confirmation", "bad_confirmation"),
            ("entry", "bad_entry"), ("seeding", "bad_stage"), ("swiss_method", "bad_stage"),
            ("withdrawal", "bad_stage"),
        ):  # fmt: skip
            problem = _not_a_choice(self, field)
            if problem:
                refuse(field, problem, code)
        if (
            self.confirmation != Confirmation.NONE
            and "confirmation" not in errors
            and self.mode != Mode.SCORE
        ):
            refuse(
                "confirmation",
                gettext(
                    "a confirmation (who must agree before an entered deal result counts) is for "
                    "score mode only: set the play mode to score, or the confirmation to none"
                ),
                "bad_confirmation",
            )
        for field, code, words, most in (
            ("rounds", "bad_rounds", gettext("the number of rounds"), 32767),
            ("groups", "bad_groups", gettext("the number of groups"), 32767),
            ("entry_count", "bad_entry", gettext("the number of teams entering"), 2**31 - 1),
        ):
            value = getattr(self, field)
            if value is not None and not _whole(value, 1, most):
                refuse(
                    field,
                    gettext("%(setting)s is a whole number from 1 to %(most)s")
                    % {"setting": words, "most": most},
                    code,
                )
        if self.format == self.Format.SWISS and self.rounds is None:
            refuse(
                "rounds",
                gettext("a Swiss stage needs its number of rounds (1 or more)"),
                "bad_rounds",
            )
        if self.format == self.Format.GROUPS and self.groups is None:
            refuse(
                "groups",
                gettext("a group stage needs its number of groups (1 or more)"),
                "bad_groups",
            )
        if self.entry != self.Entry.REGISTERED and self.entry_count is None:
            refuse(
                "entry_count",
                gettext(
                    "a stage that takes the top teams of the one before needs how many enter "
                    "(the N of the top N, 1 or more)"
                ),
                "bad_entry",
            )
        if self.late_entry and self.format != self.Format.SWISS:
            refuse("late_entry", gettext("late entry is for a Swiss stage only"), "bad_entry")
        for message in _tiebreak_problems(self.tiebreaks):
            refuse("tiebreaks", message, "bad_tiebreaks")
        if self.tiebreaks is None:
            self.tiebreaks = []
        self._clean_match_format(refuse)
        if errors:
            raise ValidationError(errors)

    def _clean_match_format(self, refuse: Any) -> None:
        """Check the match format with the engine and store it complete; none given: the
        tournament's. An elimination match cannot end drawn (M1: play goes on)."""
        value = self.match_format
        given = value is not None
        if not given and self.tournament_id is not None:
            value = self.tournament.match_format
        if not isinstance(value, dict):
            refuse(
                "match_format",
                gettext('the match format is an object, such as {"bazzis": 1} (docs/rules.md M1)'),
                "bad_format",
            )
            return
        value = dict(value)
        if self.elimination:
            if given and value.get("draws"):
                refuse(
                    "match_format",
                    gettext(
                        "an elimination match cannot end drawn (M1: play goes on deal by deal): "
                        "set the match format's draws to false, or leave it out"
                    ),
                    "bad_format",
                )
                return
            value["draws"] = False
        try:
            self.match_format = checked_match_format(value)
        except ValidationError as exc:
            for message in exc.messages:
                refuse(
                    "match_format",
                    gettext("the match format: %(problem)s") % {"problem": message},
                    "bad_format",
                )


#: each choice setting of a stage, in words
_SETTING_WORDS = {
    "format": gettext_lazy("format"), "mode": gettext_lazy("play mode"),
    "confirmation": gettext_lazy("confirmation"), "entry": gettext_lazy("entry"),
    "seeding": gettext_lazy("seeding"), "swiss_method": gettext_lazy("Swiss pairing method"),
    "withdrawal": gettext_lazy("withdrawal"),
}  # fmt: skip


def _not_a_choice(stage: Stage, field: str) -> str | None:
    """Return why the stage's ``field`` is not one of its choices, or None if it is."""
    value = getattr(stage, field)
    options = getattr(stage._meta.get_field(field), "choices", None) or []
    if isinstance(value, str) and value in {key for key, _ in options}:
        return None
    words = _SETTING_WORDS[field]
    listed = ", ".join(f"{label} ({key})" for key, label in options)
    return gettext("unknown %(setting)s %(value)s: the %(setting)s is one of %(choices)s") % {
        "setting": words,
        "value": repr(value),
        "choices": listed,
    }


def _whole(value: object, least: int, most: int) -> bool:
    return type(value) is int and least <= value <= most


def _tiebreak_problems(value: object) -> list[str]:
    """Return what is wrong with a list of tie-breaks, in words (none: nothing)."""
    listed = ", ".join(f"{label} ({key})" for key, label in TIEBREAK_LABELS.items())
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        return [
            gettext(
                'the tie-breaks are a list of keys, such as ["bazzis_won", "buchholz"]: %(keys)s'
            )
            % {"keys": listed}
        ]
    problems = []
    by_words = {label.casefold(): key for key, label in TIEBREAK_LABELS.items()}
    by_words |= {key.casefold(): key for key in TIEBREAK_LABELS}
    unknown = []
    for name in dict.fromkeys(value):
        if name not in TIEBREAK_LABELS:
            key = by_words.get(name.strip().casefold())
            unknown.append(
                gettext("%(name)s (its key is %(key)s)") % {"name": repr(name), "key": key}
                if key
                else repr(name)
            )
    if len(unknown) == 1:
        problems.append(
            gettext("%(name)s is not a tie-break key; the tie-breaks are %(keys)s")
            % {"name": unknown[0], "keys": listed}
        )
    elif unknown:
        problems.append(
            gettext("%(names)s are not tie-break keys; the tie-breaks are %(keys)s")
            % {"names": gettext(" and ").join(unknown), "keys": listed}
        )
    twice = [name for name in dict.fromkeys(value) if value.count(name) > 1]
    if twice:
        problems.append(
            gettext("each tie-break counts once: %(names)s named more than once")
            % {"names": ", ".join(twice)}
        )
    if "random" in value and value[-1] != "random":
        problems.append(gettext("the random draw (random) can only be the last tie-break"))
    return problems


class StageEntry(models.Model):
    """A team playing in a stage: its seed there, and its group in a group stage."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="stage_entries")
    seed = models.PositiveIntegerField()
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_round = models.PositiveSmallIntegerField(
        default=1, help_text="The first round it plays (a late entry joins later)."
    )

    class Meta:
        ordering = ["stage", "seed"]
        verbose_name_plural = "stage entries"
        constraints = [
            models.UniqueConstraint(fields=["stage", "team"], name="stageentry_team_unique"),
            models.UniqueConstraint(fields=["stage", "seed"], name="stageentry_seed_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.team} (seed {self.seed}) in {self.stage}"
