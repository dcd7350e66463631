"""What every admin page of the project shares: offered filters only, tournament scoping, and
choices within the scope.

Django's admin applies any lookup on a model's own fields that the query string names (JSON
key transforms included), so a list page would answer questions about a deck or a hand it
never shows. Here a list page applies only the filters it offers. And a model permission
grants nothing by itself: staff see and change only the rows of tournaments they direct
(``access.directed_tournaments``), whatever permissions they hold; superusers everything.

The same scope bounds every choice a form offers and accepts (a select, a list of accounts,
an id typed into a raw-id box): ``choices_for`` (docs/clubs.md, "In the admin"). An id outside
it is refused as "not one of the available choices", and its row is never named: a raw-id box
shows the label of a row in the scope only.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.exceptions import DisallowedModelAdminLookup
from django.contrib.admin.views.main import ChangeList
from django.contrib.admin.widgets import ForeignKeyRawIdWidget
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connections
from django.db.models import Model, QuerySet
from django.http import HttpRequest

import live

from .access import account_choices, directed_clubs, directed_tournaments, player_choices
from .models import Club, Player, Tournament

# --- What a staff member may choose -------------------------------------------------------


def choices_for(
    request: HttpRequest, model: type[Model], site: admin.AdminSite
) -> QuerySet[Any] | None:
    """Return the rows of ``model`` a form may offer the request's user, or None for every row.

    Clubs, tournaments, players and accounts as above; the rows of a model whose admin is
    scoped to tournaments (teams, matches, stages...) as that admin lists them. A superuser
    chooses from every row.
    """
    user = request.user
    if user.is_superuser:
        return None
    if model is Club:
        return directed_clubs(user)
    if model is Tournament:
        return directed_tournaments(user)
    if model is Player:
        return player_choices(user)
    if model is get_user_model():
        return account_choices(user)
    model_admin = site.get_model_admin(model) if site.is_registered(model) else None
    if isinstance(model_admin, TournamentScopedAdmin):
        return model_admin.scope(request, model._default_manager.all())
    return None


class ScopedRawIdWidget(ForeignKeyRawIdWidget):
    """A raw-id box that names the row whose id it holds only when that row is a choice: an id
    typed from elsewhere shows no label (else the box would read any row's name by its id)."""

    def __init__(self, *args: Any, choices: QuerySet[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices_queryset = choices

    def label_and_url_for_value(self, value: Any) -> tuple[str, str]:
        key = self.rel.get_related_field().name
        try:
            offered = self.choices_queryset.filter(**{key: value}).exists()
        except (ValueError, TypeError, OverflowError, ValidationError):
            offered = False
        if not offered:
            return "", ""
        return super().label_and_url_for_value(value)


class IdsInRange(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]  # stubs only
    """A list of choices that refuses a number too large for the column as it refuses any id
    that is not a choice: Django would ask the database, which fails on it (a 500)."""

    def clean(self, value: Any) -> Any:
        assert self.queryset is not None  # the admin always gives one
        meta = self.queryset.model._meta
        key = meta.get_field(self.to_field_name) if self.to_field_name else meta.pk
        ops = connections[self.queryset.db].ops
        internal_type = key.get_internal_type() if key is not None else ""
        if isinstance(value, (list, tuple)) and internal_type in ops.integer_field_ranges:
            low, high = ops.integer_field_range(internal_type)
            for item in value:
                try:
                    number = int(str(item).strip())
                except ValueError:
                    continue  # not a number: refused as Django refuses it
                if not low <= number <= high:
                    message = self.error_messages["invalid_choice"]
                    raise ValidationError(message, code="invalid_choice", params={"value": item})
        return super().clean(value)


class OfferedFiltersOnly(ChangeList):
    """A change list that refuses every query-string lookup its filters did not take."""

    def get_filters(self, request: HttpRequest) -> Any:
        filters = super().get_filters(request)
        remaining = filters[2]  # the lookups no list filter consumed
        if remaining:
            raise DisallowedModelAdminLookup(
                f"Filtering by {', '.join(sorted(remaining))} is not offered here"
            )
        return filters


class StrictAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # generic in the stubs only
    """An admin whose list applies only the filters it offers."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return OfferedFiltersOnly

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """Offer and accept only the rows ``choices_for`` gives; a raw-id box names no other."""
        choices = choices_for(request, db_field.related_model, self.admin_site)
        if choices is not None and "queryset" not in kwargs:
            kwargs["queryset"] = choices
            if "widget" not in kwargs and db_field.name in self.raw_id_fields:
                kwargs["widget"] = ScopedRawIdWidget(
                    db_field.remote_field, self.admin_site, choices=choices,
                    using=kwargs.get("using"),
                )  # fmt: skip
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """Offer and accept only the rows ``choices_for`` gives (score-keepers, directors)."""
        choices = choices_for(request, db_field.related_model, self.admin_site)
        if choices is not None and "queryset" not in kwargs:
            kwargs["queryset"] = choices
        kwargs.setdefault("form_class", IdsInRange)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class TournamentScopedAdmin(StrictAdmin):
    """An admin of rows that belong to a tournament: staff see only those they direct.

    ``tournament_path`` is the lookup from the model to its tournament ("" for Tournament).
    """

    tournament_path = "tournament"

    def scope(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        """Return ``queryset`` narrowed to the tournaments the request's user directs."""
        if request.user.is_superuser:
            return queryset
        directed = directed_tournaments(request.user).values("pk")
        field = f"{self.tournament_path}__in" if self.tournament_path else "pk__in"
        return queryset.filter(**{field: directed})

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return self.scope(request, super().get_queryset(request))

    def _in_scope(self, request: HttpRequest, obj: Model | None) -> bool:
        if obj is None or obj.pk is None or request.user.is_superuser:
            return True
        return self.scope(request, type(obj)._default_manager.filter(pk=obj.pk)).exists()

    def _directs(self, request: HttpRequest, obj: Model | None = None) -> bool:
        """Whether the request's user directs a tournament (this object's, when one is given).

        The role is what counts here, not Django's model permissions: a director works on
        their own tournaments with no permission granted, and a permission grants nothing
        outside the tournaments one directs.
        """
        user = request.user
        if user.is_superuser:
            return True
        if not user.is_active or not user.is_staff:
            return False
        cached = getattr(request, "_directs_any", None)
        if cached is None:
            cached = directed_tournaments(user).exists()
            request._directs_any = cached  # type: ignore[attr-defined]
        return bool(cached) and self._in_scope(request, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._directs(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._directs(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._directs(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._directs(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._directs(request, obj)

    # A change made here is a change the live pages show: they are told, as a service tells
    # them (live.publish, once the admin's transaction commits), not left to their recheck.

    def _tournaments_of(self, queryset: QuerySet[Any]) -> set[int]:
        path = self.tournament_path or "pk"
        return {pk for pk in queryset.values_list(path, flat=True).distinct() if pk is not None}

    def _tell(self, tournaments: set[int]) -> None:
        for pk in tournaments:
            live.publish(live.Topic.TOURNAMENT, pk)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        before = (
            self._tournaments_of(type(obj)._default_manager.filter(pk=obj.pk)) if change else set()
        )
        super().save_model(request, obj, form, change)
        self._tell(before | self._tournaments_of(type(obj)._default_manager.filter(pk=obj.pk)))

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        tournaments = self._tournaments_of(type(obj)._default_manager.filter(pk=obj.pk))
        super().delete_model(request, obj)
        self._tell(tournaments)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        tournaments = self._tournaments_of(queryset)
        super().delete_queryset(request, queryset)
        self._tell(tournaments)


class SuperusersChange:
    """An admin whose rows only a superuser adds, changes or deletes, whatever permission
    staff hold (mixed in before the admin class it narrows)."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return bool(request.user.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)


class ReadOnlyAdmin(TournamentScopedAdmin):
    """For rows written only by the application: events, snapshots, receipts, read models."""

    tournament_path = "match__tournament"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)


def tournament_filter(path: str) -> tuple[str, type[admin.RelatedOnlyFieldListFilter]]:
    """Return a list filter on the relation at ``path`` (a tournament, a match) that names
    only the objects the page's own rows belong to, so it lists nothing out of scope."""
    return (path, admin.RelatedOnlyFieldListFilter)
