"""What a club learns across evenings: its rating list, its seasons and their ladders, a
member's rating and history, and seeding an evening by its members' ratings.

Calls ``seasons.services`` and reads ``seasons.selectors``. Who sees what: a club whose pages
are public (``ClubSeasons.public``), anyone; any other, the people who see the club
(``access.seen_clubs``: its directors and its members with an account); anyone else finds no
such club (404). Writes are its directors' (403 ``forbidden``), as for the roster.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition.models import Registration
from seasons import rating, selectors
from seasons import services as seasons
from seasons.models import ClubSeasons, RatingSeeding, Season
from tournaments.clubdate import club_today
from tournaments.models import Club, Player, Tournament

from ..access import get_directed, get_directed_club, get_or_404, sees_club
from ..problems import Problem
from ..serializers import seasons as s
from ._common import ERRORS, listed, paginate, refuse_unknown


def _seasons_club(request: Request, pk: Any) -> Club:
    """The club with this id if its pages are public or the caller sees it; else 404, to
    anyone: a private club's id answers as one that does not exist (not 401 to the anonymous
    nor 403 to a tournament's token, which would tell them it exists)."""
    club: Club = get_or_404(Club.objects.all(), pk)
    if selectors.is_public(club) or sees_club(request, club):
        return club
    raise Http404


def _ref(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.name}


def _rating(r: rating.Rating, settled: int = rating.SETTLED_AFTER) -> dict[str, Any]:
    return {
        "mu": r.mu, "sigma": r.sigma, "conservative": r.conservative, "matches": r.matches,
        "last_played": r.last_played, "provisional": rating.is_provisional(r.matches, settled),
    }  # fmt: skip


def _seat(seat: selectors.Seat, settled: int) -> dict[str, Any]:
    shown = None if seat.rating is None else _rating(seat.rating, settled)
    return {"member": _ref(seat.player), "rating": shown}


def _story(evening: selectors.EveningStory, settled: int) -> dict[str, Any]:
    return {
        "tournament": evening.tournament_id,
        "name": evening.name,
        "date": evening.day,
        "before": _rating(evening.before, settled),
        "after": _rating(evening.after, settled),
        "moved": evening.moved,
        "expected": evening.expected,
        "actual": evening.actual,
        "matches": [
            {
                "match": m.change.match_id,
                "finished_at": m.change.finished_at,
                "result": m.change.result,
                "before": _rating(m.before, settled),
                "after": _rating(m.after, settled),
                "moved": m.moved,
                "expected": m.expected,
                "actual": m.actual,
                "partner": _seat(m.partner, settled),
                "opponents": [_seat(o, settled) for o in m.opponents],
            }
            for m in evening.matches
        ],
    }


# --- views ----------------------------------------------------------------------------------


class ClubRatings(APIView):
    @listed(s.RatedMemberSerializer, "club_ratings_list")
    def get(self, request: Request, pk: int) -> Response:
        """The club's rated members, best first by the conservative estimate (with the drift
        of time away up to today, the club's date in its time zone, as its page)."""
        club = _seasons_club(request, pk)
        hidden = selectors.hidden_ratings(club=club, viewer=request.user)
        settled = selectors.settled_after(club)
        rows = selectors.rating_list(club=club, on=club_today(club), hidden=hidden)
        return paginate(
            self, request, rows,
            lambda r: {
                "rank": r.rank, "member": _ref(r.player), "rating": _rating(r.rating, settled),
            },
        )  # fmt: skip


class ClubSeasonsView(APIView):
    @listed(s.SeasonSerializer, "club_seasons_list")
    def get(self, request: Request, pk: int) -> Response:
        """The club's seasons, latest first."""
        club = _seasons_club(request, pk)
        rows = Season.objects.filter(club=club).order_by("-starts_on", "-pk")
        return paginate(self, request, rows, lambda x: s.SeasonSerializer(x).data)

    @extend_schema(request=s.SeasonSerializer, responses={201: s.SeasonSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        """Make a season (its directors)."""
        club = get_directed_club(request, pk)
        data = s.SeasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = seasons.season_create(actor=request.user, club=club, **data.validated_data)
        return Response(s.SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


def _season(request: Request, pk: Any) -> Season:
    season: Season = get_or_404(Season.objects.select_related("club"), pk)
    _seasons_club(request, season.club_id)
    return season


class SeasonDetail(APIView):
    @extend_schema(responses={200: s.SeasonSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.SeasonSerializer(_season(request, pk)).data)

    @extend_schema(
        request=s.SeasonSerializer(partial=True), responses={200: s.SeasonSerializer, **ERRORS}
    )
    def patch(self, request: Request, pk: int) -> Response:
        """Change a season's name, dates, rule, points or best N (its club's directors)."""
        season = _season(request, pk)
        get_directed_club(request, season.club_id)
        data = s.SeasonSerializer(season, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        season = seasons.season_update(actor=request.user, season=season, **data.validated_data)
        return Response(s.SeasonSerializer(season).data)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, pk: int) -> Response:
        """Remove a season (its ladder is computed: nothing else goes)."""
        refuse_unknown(request)
        season = _season(request, pk)
        get_directed_club(request, season.club_id)
        seasons.season_delete(actor=request.user, season=season)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonLadder(APIView):
    @listed(
        s.LadderLineSerializer,
        "season_ladder_list",
        [
            OpenApiParameter(
                "as_of", date, description="The ladder after the evenings up to this day."
            )
        ],
    )
    def get(self, request: Request, pk: int) -> Response:
        """The season's ladder, best first (as of an evening: ``as_of``)."""
        season = _season(request, pk)
        raw = request.query_params.get("as_of") or ""
        try:
            as_of = date.fromisoformat(raw) if raw else None
        except ValueError:
            raise Problem(
                f"as_of: {raw[:40]!r} is not a date (YYYY-MM-DD)", code="bad_date", status_code=400
            ) from None
        lines = selectors.season_ladder(season=season, as_of=as_of)
        return paginate(
            self, request, lines,
            lambda x: {
                "rank": x.line.rank, "member": _ref(x.player), "points": x.line.points,
                "evenings": x.line.evenings, "counted": x.line.counted, "wins": x.line.wins,
                "won": x.line.won,
            },
        )  # fmt: skip


class MemberRatingView(APIView):
    @extend_schema(responses={200: s.MemberRatingSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        """A member's rating now, every rated match, what each evening and match did to it
        (``story``), their partners and partnerships, evenings and ladder places (what the
        member's page shows). A member who hides their rating (``rating_hidden``) has no
        rating, history, story or partnerships here but to the club's directors and to
        themself; another member's hidden rating in a match is null."""
        member: Player = get_or_404(Player.objects.filter(club__isnull=False), pk)
        assert member.club_id is not None
        club = _seasons_club(request, member.club_id)
        today = club_today(club)
        hidden = selectors.hidden_ratings(club=club, viewer=request.user)
        settled = selectors.settled_after(club)
        kept = member.pk in hidden
        now = None if kept else selectors.ratings_now(players=[member.pk], on=today).get(member.pk)
        history = [
            {
                "match": c.match_id,
                "tournament": c.match.tournament_id,
                "day": c.day,
                "finished_at": c.finished_at,
                "partner": _ref(c.partner),
                "result": c.result,
                "mu_before": c.mu_before,
                "sigma_before": c.sigma_before,
                "mu": c.mu,
                "sigma": c.sigma,
            }
            for c in ([] if kept else selectors.rating_history(player=member))
        ]
        story = [] if kept else selectors.rating_story(player=member, hidden=hidden)
        pairs = selectors.partnership_ratings(player=member, on=today, hidden=hidden)
        return Response(
            {
                "member": _ref(member),
                "rating": None if now is None else _rating(now, settled),
                "rating_hidden": selectors.rating_hidden(player=member),
                "settled_after": settled,
                "history": history,
                "story": [_story(e, settled) for e in reversed(story)],
                "partnerships": [
                    {"member": _ref(p), "rating": _rating(r, settled)} for p, r in pairs
                ],
                "partners": [
                    {"member": _ref(p), "played": n, "won": w}
                    for p, n, w in selectors.partners(player=member)
                ],
                "evenings": [
                    {
                        "tournament": e.tournament_id,
                        "name": e.tournament.name,
                        "date": e.date,
                        "team": e.team.name,
                        "place": e.place,
                        "won": e.won,
                        "played": e.played,
                    }
                    for e in selectors.evenings(player=member)
                ],
                "ladders": [
                    {"season": s.pk, "name": s.name, "rank": rank, "points": points}
                    for s, rank, points in selectors.ladder_places(player=member)
                ],
            }
        )


class MemberRatingPrivacy(APIView):
    shape = s.RatingPrivacySerializer

    @extend_schema(request=shape, responses={200: shape, **ERRORS})
    def patch(self, request: Request, pk: int) -> Response:
        """Say whether the member's rating is kept from the club's public page and API (the
        member, signed in with their account, or a director of their club). Its directors and
        the member still see it."""
        member: Player = get_or_404(Player.objects.filter(club__isnull=False), pk)
        assert member.club_id is not None
        _seasons_club(request, member.club_id)
        data = self.shape.__class__(data=request.data)
        data.is_valid(raise_exception=True)
        choice = seasons.member_rating_privacy_update(
            actor=request.user, member=member, hidden=data.validated_data["hidden"]
        )
        return Response({"hidden": choice.hidden})


class ClubSeasonsSettings(APIView):
    shape = s.ClubSeasonsSettingsSerializer

    @extend_schema(responses={200: shape, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        club = _seasons_club(request, pk)
        return Response(
            {"public": selectors.is_public(club), "settled_after": selectors.settled_after(club)}
        )

    @extend_schema(request=shape, responses={200: shape, **ERRORS})
    def patch(self, request: Request, pk: int) -> Response:
        """Say whether anyone may see the club's ladders, ratings and member pages, and after
        how many rated matches a rating is settled (422 ``bad_season`` outside 1 to 1000)."""
        club = get_directed_club(request, pk)
        data = self.shape.__class__(data=request.data)
        data.is_valid(raise_exception=True)
        saved: ClubSeasons = seasons.club_seasons_update(
            actor=request.user,
            club=club,
            public=data.validated_data.get("public"),
            settled_after=data.validated_data.get("settled_after"),
        )
        return Response({"public": saved.public, "settled_after": saved.settled_after})


class TournamentSeedByRatings(APIView):
    @extend_schema(
        request=inline_serializer(
            "SeedByRatingsRequest",
            {"measure": serializers.ChoiceField(choices=RatingSeeding.Measure.choices)},
        ),
        responses={
            200: inline_serializer(
                "SeededByRatings",
                {
                    "measure": serializers.CharField(),
                    "teams": serializers.IntegerField(),
                    "seeded_at": serializers.DateTimeField(),
                    "ratings": serializers.DictField(
                        child=serializers.IntegerField(allow_null=True),
                        help_text="Each team's rating now (by team id), in hundredths.",
                    ),
                },
            ),
            **ERRORS,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Set each team's rating from its members' ratings (the sum of their ratings, or of
        their conservative estimates) and the stages not started to seed by rating."""
        tournament = get_directed(request, Tournament.objects.all(), pk, "")
        refuse_unknown(request, frozenset({"measure"}))
        measure = request.data.get("measure") if hasattr(request.data, "get") else None
        if not isinstance(measure, str):
            raise Problem("measure: one of sum, conservative", code="invalid", status_code=400)
        record = seasons.seed_by_member_ratings(
            actor=request.user, tournament=tournament, measure=measure
        )
        ratings = dict(
            Registration.objects.filter(tournament=tournament).values_list("team_id", "rating")
        )
        return Response(
            {
                "measure": record.measure,
                "teams": record.teams,
                "seeded_at": record.seeded_at,
                "ratings": {str(k): v for k, v in ratings.items()},
            }
        )


__all__ = [
    "ClubRatings",
    "ClubSeasonsSettings",
    "ClubSeasonsView",
    "MemberRatingPrivacy",
    "MemberRatingView",
    "SeasonDetail",
    "SeasonLadder",
    "TournamentSeedByRatings",
]
