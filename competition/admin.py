"""The admin shows a tournament's stages, rounds, fixtures and standings to its directors.

Stages are set up here while pending, their settings refused as the services refuse them
(``services.check_settings``); rounds are paired, edited and published through the services
(the API, the director's desk), so fixtures and standings are read-only here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.http import HttpRequest

from tournaments.access import account_choices
from tournaments.admin_base import ReadOnlyAdmin, TournamentScopedAdmin, tournament_filter
from tournaments.models import Tournament

from . import services
from .errors import InvalidSettings
from .formats import TIEBREAK_LABELS
from .models import CutDecision, Fixture, Notice, Registration, Round, Stage, StandingRow


@admin.register(Registration)
class RegistrationAdmin(TournamentScopedAdmin):
    list_display = ("team", "tournament", "seed", "rating", "checked_in_at", "withdrawn_at")
    list_filter = (tournament_filter("tournament"),)
    list_select_related = ("team", "tournament")
    readonly_fields = ("team", "tournament", "registered_at")


class _JSONBox(forms.JSONField):
    """A JSON box that is empty, not "null", when there is no value."""

    def prepare_value(self, value: Any) -> Any:
        return "" if value is None else super().prepare_value(value)


class StageForm(forms.ModelForm):  # type: ignore[type-arg]  # generic in the stubs only
    """A stage's settings, refused as the services refuse them, each refusal on its field.

    The row's own rules are ``Stage.clean``'s (the form runs them); the rules that read other
    rows (the stage before, the teams) are ``services.check_settings``'s, run once the row's
    own are met. Nothing is saved while a refusal stands.
    """

    order = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=32767,
        help_text="1 for the first stage, 2 next...; blank: after the tournament's last stage.",
    )
    match_format = _JSONBox(
        required=False,
        help_text='How long each match lasts (docs/rules.md M1), such as {"bazzis": 2}; '
        "blank: the tournament's match format (in an elimination stage, without draws).",
    )
    tiebreaks = forms.JSONField(
        required=False,
        help_text='In order, a list of keys, such as ["bazzis_won", "buchholz"]: '
        + ", ".join(f"{key} ({label})" for key, label in TIEBREAK_LABELS.items())
        + "; the random draw only last (docs/competition.md).",
    )

    class Meta:
        model = Stage
        fields = ("tournament", "order", *services.SETTINGS, "scorekeepers")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        tournament = data.get("tournament") or (
            self.instance.tournament if self.instance.tournament_id else None
        )
        if data.get("order") is None:
            if self.instance.pk is not None:
                data["order"] = self.instance.order
            elif isinstance(tournament, Tournament):
                # Locked until the admin's transaction ends (the stage saved): an add at the
                # same time, here or through the services, waits and takes the next order.
                Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).first()
                last = tournament.stages.order_by("-order").values_list("order", flat=True)
                data["order"] = (last.first() or 0) + 1
        return data

    def _post_clean(self) -> None:
        super()._post_clean()  # type: ignore[misc]  # the model's rules (Stage.clean), the order
        if self.errors:
            return
        try:
            services.check_settings(self.instance)
        except InvalidSettings as exc:
            for field, messages in exc.fields.items():
                if field in self.fields:
                    self.add_error(field, messages)
                else:
                    self.add_error(None, [f"{field}: {m}" for m in messages])


@admin.register(Stage)
class StageAdmin(TournamentScopedAdmin):
    """A tournament's stages, set up here while pending: the settings are checked as the
    services check them; a stage that has started is shown, not changed."""

    form = StageForm
    list_display = ("name", "tournament", "order", "format", "mode", "status")
    list_filter = ("format", "status", tournament_filter("tournament"))
    list_select_related = ("tournament",)
    filter_horizontal = ("scorekeepers",)
    readonly_fields = ("status", "started_at", "completed_at", "seeding_seed", "drop_orders")

    def get_readonly_fields(self, request: HttpRequest, obj: Stage | None = None) -> Any:
        """A stage stays in its tournament."""
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if obj is None else ("tournament", *fields)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """Score-keepers: the accounts the admin offers (``account_choices``), and those who
        keep score at a stage of the tournaments the user directs already, so saving a stage
        keeps its score-keepers."""
        if db_field.name == "scorekeepers" and not request.user.is_superuser:
            stages = self.get_queryset(request).values("pk")
            keeping = Stage.scorekeepers.through.objects.filter(stage__in=stages).values("user")
            accounts = get_user_model()._default_manager
            kwargs["queryset"] = account_choices(request.user) | accounts.filter(pk__in=keeping)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_object(self, request: HttpRequest, object_id: str, from_field: Any = None) -> Any:
        """On a change (or a delete), the stage is read locked: it cannot start meanwhile."""
        obj = super().get_object(request, object_id, from_field)
        if obj is not None and request.method == "POST":
            locked = Stage.objects.select_for_update(no_key=True, of=("self",)).select_related(
                "tournament"
            )
            obj = locked.get(pk=obj.pk)
        return obj

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        pending = obj is None or obj.status == Stage.Status.PENDING
        return pending and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        pending = obj is None or obj.status == Stage.Status.PENDING
        return pending and super().has_delete_permission(request, obj)


class _StageRowAdmin(ReadOnlyAdmin):
    tournament_path = "stage__tournament"


@admin.register(Round)
class RoundAdmin(_StageRowAdmin):
    list_display = ("__str__", "stage", "number", "status", "published_at", "completed_at")
    list_filter = ("status", tournament_filter("stage__tournament"))
    list_select_related = ("stage__tournament",)


@admin.register(Fixture)
class FixtureAdmin(_StageRowAdmin):
    list_display = ("__str__", "stage", "table", "key", "result", "match")
    list_filter = ("result", tournament_filter("stage__tournament"))
    list_select_related = ("stage__tournament", "round", "team_a", "team_b")
    exclude = ("terms",)


@admin.register(StandingRow)
class StandingRowAdmin(_StageRowAdmin):
    list_display = ("stage", "as_of_round", "group", "rank", "team", "points", "played",
                    "won", "drawn", "lost", "byes")  # fmt: skip
    list_filter = (tournament_filter("stage__tournament"), tournament_filter("stage"))
    list_select_related = ("stage__tournament", "team")


@admin.register(Notice)
class NoticeAdmin(_StageRowAdmin):
    """What the competition could not settle by itself; resolved on the director's desk."""

    list_display = ("created_at", "stage", "fixture", "code", "message", "resolved_at")
    list_filter = ("code", tournament_filter("stage__tournament"))
    list_select_related = ("stage__tournament", "fixture__round")


@admin.register(CutDecision)
class CutDecisionAdmin(_StageRowAdmin):
    """How each tie at a cut was decided (a drawn lot, a director's order): the record, read
    only; decided on the director's desk."""

    list_display = ("decided_at", "stage", "tie", "method", "order", "lot_seed", "decided_by_name")
    list_filter = ("method", tournament_filter("stage__tournament"))
    list_select_related = ("stage__tournament",)
