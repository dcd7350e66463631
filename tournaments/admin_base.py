"""What every admin page of the project shares: offered filters only, and tournament scoping.

Django's admin applies any lookup on a model's own fields that the query string names (JSON
key transforms included), so a list page would answer questions about a deck or a hand it
never shows. Here a list page applies only the filters it offers. And a model permission
grants nothing by itself: staff see and change only the rows of tournaments they direct
(``access.directed_tournaments``), whatever permissions they hold; superusers everything.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.exceptions import DisallowedModelAdminLookup
from django.contrib.admin.views.main import ChangeList
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from .access import directed_clubs, directed_tournaments
from .models import Club, Match, Team, Tournament


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

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """Offer only the clubs, tournaments, teams and matches the user directs."""
        if not request.user.is_superuser:
            directed = directed_tournaments(request.user)
            if db_field.related_model is Club:
                kwargs["queryset"] = directed_clubs(request.user)
            elif db_field.related_model is Tournament:
                kwargs["queryset"] = directed
            elif db_field.related_model is Team:
                kwargs["queryset"] = Team.objects.filter(tournament__in=directed.values("pk"))
            elif db_field.related_model is Match:
                kwargs["queryset"] = Match.objects.filter(tournament__in=directed.values("pk"))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


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
