"""The admin: directors set up their clubs, members, tournaments, teams and matches; history is
read-only.

Staff see and change only what their role in a tournament allows (``admin_base``): the
tournaments they direct and what belongs to them, the clubs they direct and their members;
superusers everything. Events, snapshots
and receipts can be read but never added, changed or deleted (the database refuses it
anyway). An event's payload is shown only through ``selectors.render_event``, which hides
what the viewer may not see (a deal's deck until the deal is over). The match page's
scoresheet is added by the scoring app, which computes it.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from . import quotas
from .access import (
    account_choices,
    directed_clubs,
    directed_tournaments,
    in_directed_teams,
    is_club_director,
)
from .admin_base import (
    ReadOnlyAdmin,
    StrictAdmin,
    SuperusersChange,
    TournamentScopedAdmin,
    tournament_filter,
)
from .models import (
    Club,
    ClubQuota,
    Match,
    MatchEvent,
    MatchReceipt,
    MatchSnapshot,
    Player,
    Team,
    Tournament,
)
from .selectors import render_event


@admin.register(Tournament)
class TournamentAdmin(TournamentScopedAdmin):
    tournament_path = ""
    list_display = ("name", "slug", "club", "date", "place", "organizer", "created_at")
    list_filter = (tournament_filter("club"),)
    list_select_related = ("club", "organizer")
    search_fields = ("name", "slug", "place")
    prepopulated_fields = {"slug": ("name",)}
    raw_id_fields = ("organizer",)
    filter_horizontal = ("directors",)

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        """Only a superuser names the organizer; only the organizer names the directors."""
        if request.user.is_superuser:
            return ()
        fields = ["organizer"]
        if obj is not None and obj.organizer_id != request.user.pk:
            fields.append("directors")
        if (
            obj is not None
            and obj.club_id is not None
            and not is_club_director(request.user, obj.club_id)
        ):  # only a director of its club moves a tournament out of it
            fields.append("club")
        return fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Creating a tournament is the one thing a model permission grants: its creator
        becomes its organizer."""
        user = request.user
        return bool(
            user.is_superuser or (user.is_staff and user.has_perm("tournaments.add_tournament"))
        )

    def has_module_permission(self, request: HttpRequest) -> bool:
        return super().has_module_permission(request) or self.has_add_permission(request)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        assert request.user.is_authenticated  # the admin serves signed-in staff only
        if not change and not request.user.is_superuser:
            obj.organizer = request.user  # who creates a tournament organizes it
        super().save_model(request, obj, form, change)


@admin.register(Club)
class ClubAdmin(StrictAdmin):
    """A club's directors keep it: staff see and change only the clubs they direct."""

    list_display = ("name", "slug", "time_zone", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors",)
    readonly_fields = ("created_at",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        clubs = super().get_queryset(request)
        if request.user.is_superuser:
            return clubs
        return clubs.filter(pk__in=directed_clubs(request.user).values("pk"))

    def _directs(self, request: HttpRequest, obj: Club | None = None) -> bool:
        """Whether the user directs a club (this one, when given): the role, not a permission."""
        user = request.user
        if user.is_superuser:
            return True
        if not user.is_active or not user.is_staff:
            return False
        clubs = directed_clubs(user)
        return (clubs.filter(pk=obj.pk) if obj is not None else clubs).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._directs(request) or self.has_add_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._directs(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._directs(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        """As for tournaments, a model permission grants making a club: its maker directs it."""
        user = request.user
        return bool(user.is_superuser or (user.is_staff and user.has_perm("tournaments.add_club")))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)  # its tournaments and members protect it anyway

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if not change and not request.user.is_superuser:
            form.instance.directors.add(request.user)  # who makes a club directs it


@admin.register(ClubQuota)
class ClubQuotaAdmin(SuperusersChange, StrictAdmin):
    """A club's quotas, the site operator's (superusers') alone: a club's directors read them
    on its desk. An empty field is the site's default (``tournaments.quotas``); each is
    checked where it is saved (0 to ``QUOTA_MOST``)."""

    list_display = ("club", *quotas.KINDS)
    search_fields = ("club__name", "club__slug")
    raw_id_fields = ("club",)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)


@admin.register(Player)
class PlayerAdmin(TournamentScopedAdmin):
    """A club's members: staff see the members of the clubs they direct, and the rows of no
    club (made before clubs, or by the API) that the teams of the tournaments they direct use.
    A row of no club that no team uses is a superuser's: nothing says whose it is."""

    list_display = ("name", "club", "contact", "user")
    list_filter = (tournament_filter("club"),)
    list_select_related = ("club", "user")
    search_fields = ("name", "contact", "user__username")
    raw_id_fields = ("user",)

    def scope(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        """Members of the clubs the user directs; players of no club in the teams of the
        tournaments they direct."""
        if request.user.is_superuser:
            return queryset
        clubs = directed_clubs(request.user).values("pk")
        clubless = Q(club__isnull=True) & in_directed_teams(request.user)
        return queryset.filter(Q(club__in=clubs) | clubless)

    def _directs(self, request: HttpRequest, obj: Model | None = None) -> bool:
        """A director of a club keeps its members, even before directing a tournament."""
        user = request.user
        if (
            not user.is_superuser
            and user.is_active
            and user.is_staff
            and directed_clubs(user).exists()
        ):
            return self._in_scope(request, obj)
        return super()._directs(request, obj)

    def _tournaments_of(self, queryset: QuerySet[Any]) -> set[int]:
        """The tournaments whose pages show these members: those of their teams."""
        teams = Team.objects.filter(Q(first_player__in=queryset) | Q(second_player__in=queryset))
        return set(teams.values_list("tournament_id", flat=True).distinct())

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False,
                 **kwargs: Any) -> Any:  # fmt: skip
        """Staff who are not superusers add members to one of their clubs, not to none."""
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None and not request.user.is_superuser and "club" in form.base_fields:
            form.base_fields["club"].required = True
        return form

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        """The account a player signs in with is theirs to play with: only a superuser, or a
        director of every tournament the player is in while none of their matches runs,
        may change it."""
        if request.user.is_superuser or obj is None:
            return ()
        teams = Team.objects.filter(Q(first_player=obj) | Q(second_player=obj))
        directed = directed_tournaments(request.user)
        if teams.exclude(tournament__in=directed.values("pk")).exists() or any(
            team.has_running_match() for team in teams
        ):
            return ("user",)
        return ()


@admin.register(Team)
class TeamAdmin(TournamentScopedAdmin):
    list_display = ("name", "tournament", "first_player", "second_player")
    list_filter = (tournament_filter("tournament"),)
    list_select_related = ("tournament", "first_player", "second_player")
    search_fields = ("name", "first_player__name", "second_player__name")
    raw_id_fields = ("first_player", "second_player")

    def get_readonly_fields(self, request: HttpRequest, obj: Team | None = None) -> Any:
        """A team's line-up cannot change under a running match (who sits where is fixed)."""
        if obj is not None and obj.has_running_match():
            return ("tournament", "first_player", "second_player")
        return ("tournament",) if obj is not None else ()


@admin.register(Match)
class MatchAdmin(TournamentScopedAdmin):
    list_display = ("__str__", "tournament", "mode", "status", "last_seq", "created_at")
    list_filter = ("status", "mode", tournament_filter("tournament"))
    list_select_related = ("tournament", "team0", "team1")
    filter_horizontal = ("scorekeepers",)
    readonly_fields: ClassVar[tuple[str, ...]] = (
        "rules",
        "status",
        "last_seq",
        "last_hash",
        "created_at",
    )

    def get_readonly_fields(self, request: HttpRequest, obj: Match | None = None) -> Any:
        """Return what staff may not edit: the history's head always; the setup once started."""
        fields = list(self.readonly_fields)
        if obj is not None:
            fields.append("tournament")
            if obj.status != Match.Status.SCHEDULED:
                fields += ["team0", "team1", "mode", "match_format", "first_dealer"]
        return fields


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "kind", "actor", "recorded_at", "caused_by")
    list_filter = ("kind", tournament_filter("match__tournament"))
    list_select_related = ("match__team0", "match__team1", "actor")
    ordering = ("match", "seq")
    # The raw payload is never shown: a deal_started payload holds the deck.
    fields = (
        "match",
        "seq",
        "kind",
        "shown_payload",
        "actor",
        "recorded_at",
        "idempotency_key",
        "request_digest",
        "caused_by",
        "hash",
    )

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> MatchEvent | None:
        event = super().get_object(request, object_id, from_field)
        if event is not None:
            # A display method sees only the row; remember who is looking at it.
            event._admin_viewer = request.user
        return event

    @admin.display(description="payload")
    def shown_payload(self, event: MatchEvent) -> SafeString:
        """Return the event as ``render_event`` shows it to the viewer, as indented JSON."""
        shown = render_event(event, getattr(event, "_admin_viewer", None))
        return format_html(
            "<pre>{}</pre>", json.dumps(shown, indent=2, ensure_ascii=False, default=str)
        )


@admin.register(MatchSnapshot)
class MatchSnapshotAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "updated_at")
    list_select_related = ("match__team0", "match__team1")
    ordering = ("match", "seq")
    # Not the state: it holds every seat's unplayed cards. It is a cache anyway, rebuilt
    # from the events, which render_event shows safely.
    fields = ("match", "seq", "head_hash", "updated_at")


@admin.register(MatchReceipt)
class MatchReceiptAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "key_id", "issued_at")
    list_select_related = ("match__team0", "match__team1")
    ordering = ("match", "seq")
    fields = ("match", "seq", "body", "signature", "key_id", "issued_at")


# The accounts' admin applies only the filters it offers too: a lookup on the password hash
# would otherwise be answered to anyone who may view accounts.
class AccountAdmin(SuperusersChange, StrictAdmin, UserAdmin):  # type: ignore[type-arg]
    """Accounts: staff who are not superusers see (with the permission to) only the accounts
    the admin offers them as choices (``admin_base.account_choices``), so the account pickers'
    search finds no other, and change none: an account's password and flags are its owner's and
    a superuser's, whatever permission one holds."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        accounts = super().get_queryset(request)
        if request.user.is_superuser:
            return accounts
        return accounts.filter(pk__in=account_choices(request.user).values("pk"))


# The stubs make GroupAdmin's request optional; the admin always passes one.
class AccountGroupAdmin(StrictAdmin, GroupAdmin):  # type: ignore[misc]
    pass


for model, model_admin in ((get_user_model(), AccountAdmin), (Group, AccountGroupAdmin)):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
    admin.site.register(model, model_admin)
