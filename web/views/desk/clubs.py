"""A club's roster on the desk: its members, added and corrected once for every evening."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import clubs, invites
from tournaments.access import is_club_director
from tournaments.errors import ClubRefused
from tournaments.models import Club, Player, Team
from tournaments.site import absolute_url

from ._common import refusal


class MemberForm(forms.Form):
    name = forms.CharField(max_length=200, label="Name")
    contact = forms.CharField(
        max_length=200, required=False, label="Contact (optional)",
        help_text="A phone number or an e-mail address: it tells two members of one name apart.",
    )  # fmt: skip


def _club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not is_club_director(request.user, club):
        raise Http404("no such club")
    return club


def _page(request: HttpRequest, club: Club, form: MemberForm, status: int = 200) -> HttpResponse:
    played = Count("teams_as_first", distinct=True) + Count("teams_as_second", distinct=True)
    members = clubs.club_members(club=club).annotate(teams=played)
    return render(
        request,
        "web/desk_club.html",
        {"club": club, "members": members, "form": form},
        status=status,
    )


@login_required
@require_GET
def roster(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's members, by name, with how many teams each has played in."""
    return _page(request, _club(request, slug), MemberForm())


@login_required
@require_POST
def member_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            member = clubs.member_add(
                actor=request.user,
                club=club,
                name=form.cleaned_data["name"],
                contact=form.cleaned_data["contact"],
            )
        except ClubRefused as exc:
            refusal(request, exc)
        else:
            messages.success(request, f"{member.name} is a member of {club.name}.")
            return redirect(reverse("web:club-roster", args=[club.slug]))
    else:
        messages.error(request, "Nobody was added: see the form.")
    return _page(request, club, form, status=422)


@login_required
@require_http_methods(["GET", "POST"])
def member_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Correct a member's name or contact: once, for every team and evening they play in."""
    club = _club(request, slug)
    member = get_object_or_404(Player.objects.filter(club=club), pk=pk)
    teams = _teams_of(member)
    context: dict[str, Any] = {"club": club, "member": member, "teams": teams}
    if request.method == "GET":
        form = MemberForm(initial={"name": member.name, "contact": member.contact})
        return render(request, "web/desk_member.html", {**context, "form": form})
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            clubs.member_update(
                actor=request.user,
                member=member,
                name=form.cleaned_data["name"],
                contact=form.cleaned_data["contact"],
            )
        except ClubRefused as exc:
            refusal(request, exc)
        else:
            messages.success(request, f"{form.cleaned_data['name']} is saved, in every team.")
            return redirect(reverse("web:club-roster", args=[club.slug]))
    else:
        messages.error(request, "Nothing was changed: see the form.")
    return render(request, "web/desk_member.html", {**context, "form": form}, status=422)


def _teams_of(member: Player) -> list[Team]:
    return list(
        Team.objects.filter(Q(first_player=member) | Q(second_player=member))
        .select_related("tournament")
        .order_by("-tournament__created_at")
    )


@login_required
@require_POST
def member_invite(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Invite a member with no account to make one: the one-time link, shown once."""
    club = _club(request, slug)
    member = get_object_or_404(Player.objects.filter(club=club), pk=pk)
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
