"""The desk of one tournament: its teams, stages and rounds, notices and deals to review."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_GET, require_POST

from competition import selectors as competition_reads
from competition import services as competition
from competition.models import Fixture, Notice, Registration, Round, Stage
from tournaments.clubs import club_members, name_key
from tournaments.models import Team, Tournament
from tournaments.reads import consistent_read

from ... import desk_forms, desk_words, forms
from ._common import back, refused, tournament_or_404
from .matches import review_queue


def team_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """Return the registered teams as the desk's table shows them (plain values: a table of
    256 teams renders in a few milliseconds, without the template engine's attribute hunt)."""
    fixed = competition.registration_fixed(tournament.pk)
    # the teams a withdrawal cannot be undone for: a forfeit of theirs counts (its round is over)
    counted = set(
        Fixture.objects.filter(
            stage__tournament=tournament,
            round__status=Round.Status.COMPLETE,
            withdrawal__has_key="team",
        ).values_list("withdrawal__team", flat=True)
    )
    rows = []
    for seed, rating, team_id, name, first, second, checked_in, withdrawn in (
        Registration.objects.filter(tournament=tournament)
        .order_by("seed", "team__name")
        .values_list(
            "seed",
            "rating",
            "team_id",
            "team__name",
            "team__first_player__name",
            "team__second_player__name",
            "checked_in_at",
            "withdrawn_at",
        )
    ):
        if withdrawn is not None:
            status = pgettext("a team", "withdrawn")
        elif checked_in is not None:
            at = timezone.localtime(checked_in).strftime("%H:%M")
            status = pgettext("a team", "checked in %(at)s") % {"at": at}
        else:
            status = pgettext("a team", "registered")
        rows.append(
            {
                "seed": seed or "",
                "rating": "" if rating is None else rating,
                "pk": team_id,
                "name": name,
                "players": f"{first} & {second}",
                "status": status,
                "check_in": checked_in is None and withdrawn is None,
                "check_out": checked_in is not None and withdrawn is None and not fixed,
                "withdraw": withdrawn is None,
                "reinstate": withdrawn is not None and team_id not in counted,
            }
        )
    return rows


def member_options(tournament: Tournament) -> list[str]:
    """Return what the registration form offers as it is typed: each member of the club by
    name, or "Name #id" where two members share a name."""
    if tournament.club is None:
        return []
    members = list(club_members(club=tournament.club).values_list("pk", "name"))
    counts = Counter(name_key(name) for _, name in members)
    return [name if counts[name_key(name)] == 1 else f"{name} #{pk}" for pk, name in members]


@login_required
@require_GET
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    return desk_page(request, t, forms.RegisterTeam(initial={"checked_in": True}))


def desk_page(
    request: HttpRequest,
    t: Tournament,
    register_form: forms.RegisterTeam,
    *,
    bulk_form: desk_forms.BulkTeams | None = None,
    status: int = 200,
) -> HttpResponse:
    """The desk: the teams, the stages with their rounds, notices, the deals awaiting a director."""
    with consistent_read():
        registrations = team_rows(t)
        stages = list(Stage.objects.filter(tournament=t).order_by("order"))
        # a stage that can start and takes the top N of the one before: the ties at its cut,
        # read from the standings as projected (the start, and a decision, bring them up to
        # date first: a page view does not rework the stage before)
        waiting = _undecided_cut_ties(stages)
        rounds = Round.objects.filter(stage__in=stages).order_by("number")
        by_stage: dict[int, list[Round]] = {s.pk: [] for s in stages}
        for r in rounds:
            by_stage[r.stage_id].append(r)
        review = review_queue(t)
        notices = list(
            competition_reads.open_notices(tournament_id=t.pk).select_related(
                "stage", "fixture__match"
            )
        )
        options = member_options(t)
        shadowed = competition_reads.shadowed(t)
    return render(
        request,
        "web/desk.html",
        {
            "tournament": t,
            "registrations": registrations,
            # (stage, its rounds, whether it can start: every stage before it is complete,
            # the ties at its cut that wait for a director)
            "stages": [
                (
                    s,
                    by_stage[s.pk],
                    all(e.status == Stage.Status.COMPLETE for e in stages[:i]),
                    waiting.get(s.pk, []),
                )
                for i, s in enumerate(stages)
            ],
            "review": review,
            "notices": notices,
            "register_form": register_form,
            "bulk_form": bulk_form
            or desk_forms.BulkTeams(initial={"checked_in": True}, prefix="many"),
            "members": options,
            # another club published a tournament at this one's slug: its address shows that
            "shadowed": shadowed,
        },
        status=status,
    )


def _undecided_cut_ties(stages: list[Stage]) -> dict[int, list[str]]:
    """Return, for the next stage to start if it takes the top N of a complete stage before
    it, each tie at its cut that waits for a director, in words (``stages`` in order)."""
    for i, stage in enumerate(stages):
        if stage.status != Stage.Status.PENDING:
            continue
        if i == 0 or stages[i - 1].status != Stage.Status.COMPLETE:
            return {}
        found = competition.cut_for_stage(stage, previous=stages[i - 1], fresh=False)
        if found is None or not found.undecided:
            return {}
        names = dict(
            Team.objects.filter(
                pk__in=[team for tie in found.undecided for team in tie.teams]
            ).values_list("pk", "name")
        )
        return {
            stage.pk: [
                ngettext(
                    "%(teams)s are level on everything at %(place)s, and %(through)s of them "
                    "goes through.",
                    "%(teams)s are level on everything at %(place)s, and %(through)s of them "
                    "go through.",
                    tie.through,
                )
                % {
                    "teams": desk_words.names([names[team] for team in tie.teams]),
                    "place": desk_words.place(tie.rank, tie.group),
                    "through": tie.through,
                }
                for tie in found.undecided
            ]
        }
    return {}


@login_required
@require_POST
def notice_resolve(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Mark a notice as dealt with."""
    t = tournament_or_404(request, slug)
    notice = get_object_or_404(
        Notice.objects.select_related("stage__tournament"), pk=pk, stage__tournament=t
    )
    if not refused(request, lambda: competition.notice_resolve(actor=request.user, notice=notice)):
        messages.success(request, _("The notice is marked as dealt with."))
    return back(slug, "notices")
