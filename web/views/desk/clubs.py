"""A club's roster on the desk: its members, added and corrected once for every evening."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournaments import clubs, invites, quotas
from tournaments.errors import ClubRefused
from tournaments.models import Club, Player, Team
from tournaments.site import absolute_url

from ..common import refusal
from ._common import club_desk, form_change, status_of


class MemberForm(forms.Form):
    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    contact = forms.CharField(
        max_length=200, required=False, label=gettext_lazy("Contact (optional)"),
        help_text=gettext_lazy(
            "A phone number or an e-mail address: it tells two members of one name apart."
        ),
    )  # fmt: skip


def _member(club: Club, pk: int) -> Player:
    return get_object_or_404(Player.objects.filter(club=club), pk=pk)


def _page(request: HttpRequest, club: Club, form: MemberForm, status: int = 200) -> HttpResponse:
    played = Count("teams_as_first", distinct=True) + Count("teams_as_second", distinct=True)
    members = clubs.club_members(club=club).annotate(teams=played)
    return render(
        request,
        "web/desk_club.html",
        {"club": club, "members": members, "form": form, "quotas": quotas.usage(club)},
        status=status,
    )


@club_desk("GET")
def roster(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's members, by name, with how many teams each has played in; and its quotas,
    what it holds of each."""
    return _page(request, club, MemberForm())


@club_desk("POST")
def member_new(request: HttpRequest, club: Club) -> HttpResponse:
    form = MemberForm(request.POST)
    member = form_change(
        request,
        form,
        lambda: clubs.member_add(actor=request.user, club=club, **form.cleaned_data),
        unchanged=_("Nobody was added"),
        by=ClubRefused,
    )
    if member is None:
        return _page(request, club, form, status=status_of(form))
    messages.success(
        request,
        _("%(member)s is a member of %(club)s.") % {"member": member.name, "club": club.name},
    )
    return redirect(reverse("web:club-roster", args=[club.slug]))


@club_desk("GET", "POST")
def member_edit(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    """Correct a member's name or contact: once, for every team and evening they play in."""
    member = _member(club, pk)
    context: dict[str, Any] = {"club": club, "member": member, "teams": _teams_of(member)}
    if request.method == "GET":
        form = MemberForm(initial={"name": member.name, "contact": member.contact})
        return render(request, "web/desk_member.html", {**context, "form": form})
    form = MemberForm(request.POST)
    saved = form_change(
        request,
        form,
        lambda: clubs.member_update(actor=request.user, member=member, **form.cleaned_data),
        by=ClubRefused,
    )
    if saved is None:
        return render(
            request, "web/desk_member.html", {**context, "form": form}, status=status_of(form)
        )
    messages.success(
        request, _("%(member)s is saved, in every team.") % {"member": form.cleaned_data["name"]}
    )
    return redirect(reverse("web:club-roster", args=[club.slug]))


def _teams_of(member: Player) -> list[Team]:
    return list(
        Team.objects.filter(Q(first_player=member) | Q(second_player=member))
        .select_related("tournament")
        .order_by("-tournament__created_at")
    )


@club_desk("POST")
def member_invite(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    """Invite a member with no account to make one: the one-time link, shown once."""
    member = _member(club, pk)
    try:
        invite, key = invites.member_invite(actor=request.user, member=member)
    except ClubRefused as exc:
        refusal(request, exc)
        return redirect(reverse("web:club-member", args=[club.slug, member.pk]))
    url = absolute_url(request, reverse("web:member-invite", args=[key]))
    return render(
        request,
        "web/desk_invite.html",
        {"club": club, "member": member, "url": url, "invite": invite},
    )  # signed in: kept by no cache (deploy.middleware.PrivateAnswers)


class NewClubForm(forms.Form):
    name = forms.CharField(
        max_length=200,
        label=gettext_lazy("Your club's name"),
        help_text=gettext_lazy("As your players know it: it is on every page of the club."),
    )
    time_zone = forms.CharField(
        max_length=64,
        initial="UTC",
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy(
            "Where the club plays, as an IANA name: Asia/Kolkata, Europe/London, America/Toronto."
        ),
    )
    language = forms.ChoiceField(
        choices=settings.LANGUAGES,
        initial="en",
        label=gettext_lazy("Your club's language"),
        help_text=gettext_lazy("The club's pages show in it when a browser asks for none of ours."),
    )


def _new_club_page(request: HttpRequest, form: NewClubForm, status: int = 200) -> HttpResponse:
    return render(request, "web/club_new.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def club_new(request: HttpRequest) -> HttpResponse:
    """An organizer who signed up names their club (its name, time zone and language) and
    lands on its desk; they invite its co-directors, score-keepers and members from there."""
    if request.method == "GET":
        return _new_club_page(request, NewClubForm())
    form = NewClubForm(request.POST)
    club = form_change(
        request,
        form,
        lambda: clubs.club_create(actor=request.user, **form.cleaned_data),
        unchanged=_("No club was made"),
        by=ClubRefused,
    )
    if club is None:
        return _new_club_page(request, form, status=status_of(form))
    messages.success(
        request,
        _("%(club)s is made, and you direct it. Add its members, then make its first evening.")
        % {"club": club.name},
    )
    return redirect(reverse("web:desk-home"))
