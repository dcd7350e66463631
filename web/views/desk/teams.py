"""The desk's teams: register one or many (pasted, or a CSV file) from the club's roster,
check in, withdraw, and undo either, rename, change a seed or a rating."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from competition import errors as competition_errors
from competition import refusals
from competition import services as competition
from competition.models import Registration, Round
from competition.teamlines import TeamLine, read_lines
from tournaments.errors import QuotaExceeded
from tournaments.models import Team

from ... import desk_forms, forms
from ..common import refusal
from ._common import (
    back,
    confirm_first,
    form_change,
    refused,
    status_of,
    team_or_404,
    tournament_or_404,
)
from .tournament import desk_page


@login_required
@require_POST
def register_team(request: HttpRequest, slug: str) -> HttpResponse:
    """One team: two members picked as they are typed (a new name makes a new member)."""
    t = tournament_or_404(request, slug)
    form = forms.RegisterTeam(request.POST)

    def register() -> list[Team]:
        data = form.cleaned_data
        line = TeamLine(
            1,
            " ".join(data["name"].split()),
            " ".join(data["first_player"].split()),
            " ".join(data["second_player"].split()),
            seed=data["seed"],
        )
        return competition.teams_register(
            actor=request.user, tournament=t, lines=[line], checked_in=data["checked_in"]
        )

    registered = form_change(
        request,
        form,
        register,
        unchanged=_("The team was not registered"),
        by=(competition_errors.CompetitionRefused, QuotaExceeded),
    )
    if registered is None:
        return desk_page(request, t, form, status=status_of(form))
    messages.success(request, _("%(team)s registered.") % {"team": registered[0].name})
    return back(slug, "teams")


@login_required
@require_POST
def register_teams(request: HttpRequest, slug: str) -> HttpResponse:
    """Many teams, pasted or from a CSV file: first a preview of what would be made (which
    names are members already), then, confirmed, every team or none."""
    t = tournament_or_404(request, slug)
    form = desk_forms.BulkTeams(request.POST, request.FILES, prefix="many")
    if not form.is_valid():
        messages.error(request, _("No team was registered: see the form."))
        return desk_page(request, t, forms.RegisterTeam(), bulk_form=form, status=422)
    text = form.text()
    lines, errors = read_lines(text)
    refused = 0  # the status of the service's refusal, as the API answers it
    if request.POST.get("step") == "register" and lines and not errors:
        try:  # the service plans the registration itself, under the tournament's lock
            teams = competition.teams_register(
                actor=request.user,
                tournament=t,
                lines=lines,
                checked_in=form.cleaned_data["checked_in"],
            )
        except (competition_errors.CompetitionRefused, QuotaExceeded) as exc:
            refusal(request, exc)
            refused = refusals.status_of(exc)
        else:
            messages.success(
                request,
                ngettext("%(count)s team registered.", "%(count)s teams registered.", len(teams))
                % {"count": len(teams)},
            )
            return back(slug, "teams")
    plan = competition.teams_plan(tournament=t, lines=lines, actor=request.user)
    ok = bool(lines) and not errors and all(p.ok for p in plan)
    return render(
        request,
        "web/desk_teams_preview.html",
        {
            "tournament": t,
            "plan": plan,
            "errors": errors,
            "ok": ok,
            "text": text,
            "checked_in": form.cleaned_data["checked_in"],
            "new_members": sum(
                1 for p in plan for person in (p.first, p.second) if person.member is None
            ),
        },
        status=refused or (200 if ok else 422),
    )


#: a team's button: its service, and what is said once it is done (of the team, by name)
COMMANDS = {
    "check_in": (competition.team_check_in, gettext_lazy("%(team)s checked in.")),
    "check_out": (competition.team_check_out, gettext_lazy("%(team)s is no longer checked in.")),
    "withdraw": (competition.team_withdraw, gettext_lazy("%(team)s withdrawn.")),
    "reinstate": (competition.team_reinstate, gettext_lazy("%(team)s is back in the tournament.")),
}


@login_required
@require_POST
def team_command(request: HttpRequest, slug: str) -> HttpResponse:
    """A team's button: check in, undo it, withdraw (asked first), undo a withdrawal."""
    t = tournament_or_404(request, slug)
    command = next((name for name in COMMANDS if name in request.POST), None)
    team_id = forms.ascii_id(request.POST.get(command or ""))
    if command is None or team_id is None:
        messages.error(request, _("Nothing was changed: choose a team's button."))
        return back(slug, "teams")
    team = get_object_or_404(Team.objects.select_related("tournament"), pk=team_id, tournament=t)
    if command == "withdraw":
        asked = confirm_first(
            request,
            tournament=t,
            title=_("Withdraw %(team)s?") % {"team": team.name},
            consequences=[
                _("%(team)s will not be paired again.") % {"team": team.name},
                _(
                    "Its fixtures not yet begun become forfeits (or byes for its opponents, as "
                    "each stage says); a match under way is played out."
                ),
                _(
                    "The withdrawal can be undone until a round it forfeited is complete (or, "
                    "in a knockout, until its opponent plays on)."
                ),
            ],
            fields={"withdraw": team.pk},
            button=_("Withdraw %(team)s") % {"team": team.name},
            cancel=reverse("web:desk", args=[slug]) + "#teams",
        )
        if asked is not None:
            return asked
    service, done = COMMANDS[command]
    if not refused(request, lambda: service(actor=request.user, team=team)):
        where = late_entry_words(team) if command in ("check_in", "reinstate") else ""
        said = done % {"team": team.name}
        messages.success(request, f"{said} {where}" if where else said)
    return back(slug, "teams")


def late_entry_words(team: Team) -> str:
    """Say where a team checked in after a stage started plays, a sentence a stage, in the
    page's language ("" while no stage has started: it plays in the first stage that starts).
    The desk's words for what ``competition.team_plays_in`` finds."""
    if not competition.registration_fixed(team.tournament_id):
        return ""
    sentences = []
    for stage, first in competition.team_plays_in(team):
        said = {"team": team.name, "stage": stage.name, "round": first}
        if first is None:
            sentences.append(_("%(team)s plays in %(stage)s when it starts.") % said)
        elif first <= 1:
            sentences.append(_("%(team)s plays in %(stage)s.") % said)
        elif stage.round_set.filter(number=first, status=Round.Status.DRAFT).exists():
            sentences.append(
                _(
                    "%(team)s joins %(stage)s at round %(round)s, with 0 points (the rounds "
                    "before are not its); round %(round)s is a draft paired without it: "
                    "discard it and pair it again to have %(team)s play in it."
                )
                % said
            )
        else:
            sentences.append(
                _(
                    "%(team)s joins %(stage)s at round %(round)s, with 0 points (the rounds "
                    "before are not its)."
                )
                % said
            )
    return " ".join(sentences)


@login_required
@require_http_methods(["GET", "POST"])
def team_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Rename a team; change its seed or rating while no stage has started."""
    t, team = team_or_404(request, slug, pk)
    registration = Registration.objects.filter(team=team).first()
    if request.method == "GET":
        form = desk_forms.TeamDetails(
            initial={
                "name": team.name,
                "seed": registration.seed if registration else None,
                "rating": registration.rating if registration else None,
                "language": team.language,
            }
        )
        return render(request, "web/desk_team.html", {"tournament": t, "team": team, "form": form})
    form = desk_forms.TeamDetails(request.POST)
    saved = form_change(
        request,
        form,
        lambda: competition.team_update(actor=request.user, team=team, **form.cleaned_data),
    )
    if saved is None:
        return render(
            request,
            "web/desk_team.html",
            {"tournament": t, "team": team, "form": form},
            status=status_of(form),
        )
    messages.success(request, _("%(team)s is saved.") % {"team": saved.name})
    return back(slug, "teams")
