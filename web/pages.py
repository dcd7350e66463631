"""What each page shows, read through the same selectors the API calls (never copies of them).

Each function returns plain values for one page's template, in a bounded number of queries
whatever the size of the tournament (tests/web/test_queries.py counts them).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django.db.models import Count, F, Max, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.urls import reverse
from django.utils.translation import gettext as _

import seep_core as sc
from competition import selectors as competition
from competition.models import Fixture, Round, Stage, StageEntry, StandingsCheckpoint
from scoring import selectors as scoring
from scoring.models import DealResult, MatchResult
from tournaments import matchlog
from tournaments import selectors as store
from tournaments.display_names import full_name, full_names
from tournaments.models import Erasure, Match, MatchReceipt, Player, Tournament

from . import charts, words

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(code: str) -> str:
    """Return a card code as people read it: ``10D`` -> ``10♦``."""
    return f"{code[:-1]}{SUITS.get(code[-1], code[-1])}"


# --- home --------------------------------------------------------------------------------


@dataclass
class TournamentCard:
    tournament: Tournament
    state: str  # running, coming, finished
    stage: Stage | None
    round: Round | None


def _tournament_state(stages: list[Stage]) -> tuple[str, Stage | None]:
    running = next((s for s in stages if s.status == Stage.Status.RUNNING), None)
    if running is not None:
        return "running", running
    if stages and all(s.status == Stage.Status.COMPLETE for s in stages):
        return "finished", stages[-1]
    upcoming = next((s for s in stages if s.status == Stage.Status.PENDING), None)
    return "coming", upcoming


def _current_round(stage: Stage | None, rounds: list[Round]) -> Round | None:
    """Return the round being played: the first published one not complete, else the last."""
    if stage is None or not rounds:
        return None
    playing = [r for r in rounds if r.status == Round.Status.PUBLISHED]
    return playing[0] if playing else rounds[-1]


def home_cards(tournaments: Any) -> list[TournamentCard]:
    """Return the tournaments running and coming (then the finished), with their round."""
    shown_rounds = Round.objects.exclude(status=Round.Status.DRAFT).order_by("number")
    stages = Stage.objects.order_by("order").prefetch_related(
        Prefetch("round_set", queryset=shown_rounds, to_attr="shown_rounds")
    )
    cards = []
    for t in tournaments.prefetch_related(Prefetch("stages", queryset=stages))[:100]:
        state, stage = _tournament_state(list(t.stages.all()))
        # the prefetch's list (to_attr), which the model's type does not know
        rounds: list[Round] = getattr(stage, "shown_rounds", []) if stage is not None else []
        cards.append(TournamentCard(t, state, stage, _current_round(stage, rounds)))
    order = {"running": 0, "coming": 1, "finished": 2}
    return sorted(cards, key=lambda c: order[c.state])


# --- the tournament page -----------------------------------------------------------------


class Table(TypedDict):
    """One fixture of the current round: its teams and its match's score so far, as plain
    values (a template finds a dict's keys at once; 256 tables render in half the time model
    instances take, and are read without building any)."""

    fixture: int  # its id
    table: int | None
    round: str  # the round's name, or "round N"
    status: str  # competition.fixture_status
    team_a: str | None
    team_b: str | None  # None: team a has a bye
    started: bool  # the match has a deal scored
    bazzis0: int
    bazzis1: int
    difference: int
    deals: int
    over: bool
    sheet: str  # the match sheet's URL, or ""


def sheets_prefix() -> str:
    """Return the match sheets' URL without the id: one reverse for a page's many links
    (a reverse a link costs milliseconds at 128 tables)."""
    return reverse("web:match", args=[1]).removesuffix("1/")


def sheet_url(prefix: str, match_id: int | None) -> str:
    return "" if match_id is None else f"{prefix}{match_id}/"


@dataclass
class StagePage:
    stage: Stage
    rounds: list[Round]
    current: Round | None
    standings: list[dict[str, Any]]  # rank, name, points, played, won, drawn, lost...
    tiebreak_names: list[str]
    as_of_round: int | None
    as_of_words: str  # "after round 2", "after round 2, with 1 of 2 results of round 3"
    groups: list[tuple[int | None, list[dict[str, Any]]]]
    bracket: dict[str, Any] | None
    tables: list[Table] = field(default_factory=list)
    printed: bool = False  # on the print page: a running stage, or every stage once all ended

    @functools.cached_property
    def standings_key(self) -> str:
        """What the standings' table shows, as one string (its rows are plain values read
        from the database: their repr says all of them): the live part keeps the table's
        HTML under it (``{% cache %}`` in web/_live.html)."""
        shown = (self.stage.name, self.groups, self.tiebreak_names, self.as_of_words)
        return hashlib.sha256(repr(shown).encode()).hexdigest()


_last_erasure = Erasure.objects.filter(club=OuterRef("tournament__club")).order_by("-pk")


def tournament_version(tournament: Tournament) -> str:
    """Return a tag that changes whenever anything the live part of the page shows changes.

    Five aggregate queries, far cheaper than rendering: the matches' heads, their
    projections, the fixtures' results and slots, the standings' checkpoints, the stages (and
    the club's last erasure of a member, whose names it showed).
    """
    matches = Match.objects.filter(tournament=tournament).aggregate(
        n=Count("pk"), seq=Sum("last_seq"), last=Max("pk")
    )
    results = MatchResult.objects.filter(match__tournament=tournament).aggregate(
        n=Count("pk"), seq=Sum("seq")
    )
    fixtures = Fixture.objects.filter(stage__tournament=tournament).aggregate(
        n=Count("pk"),
        decided=Count("pk", filter=~Q(result="")),
        a=Count("team_a"),
        b=Count("team_b"),
        matched=Count("match"),
        published=Count("pk", filter=~Q(round__status=Round.Status.DRAFT)),
        complete=Count("pk", filter=Q(round__status=Round.Status.COMPLETE)),
    )
    checkpoints = StandingsCheckpoint.objects.filter(stage__tournament=tournament).aggregate(
        n=Count("pk"), last=Max("updated_at")
    )
    stages = Stage.objects.filter(tournament=tournament).aggregate(
        n=Count("pk"),
        running=Count("pk", filter=Q(status=Stage.Status.RUNNING)),
        complete=Count("pk", filter=Q(status=Stage.Status.COMPLETE)),
        teams=Count("tournament__teams", distinct=True),
        # a member erased: the names shown changed (docs/privacy.md), the rest did not
        erased=Max(Subquery(_last_erasure.values("pk")[:1])),
    )
    text = repr(
        (
            sorted(matches.items()),
            sorted(results.items()),
            sorted(fixtures.items()),
            sorted(checkpoints.items()),
            sorted(stages.items()),
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _tables(
    round_: Round | None, stage: Stage, sheets: str, rounds: Sequence[Round]
) -> list[Table]:
    if round_ is None:
        return []
    if stage.elimination:  # every fixture still to be played, across the bracket's rounds
        fixtures = Fixture.objects.filter(stage=stage, round__status=Round.Status.PUBLISHED)
        fixtures = fixtures.filter(Q(result="") & Q(team_a__isnull=False, team_b__isnull=False))
    else:
        fixtures = Fixture.objects.filter(round=round_)
    names = {r.pk: words.round_name(r) for r in rounds}
    rows = fixtures.order_by("round__number", "table", "key", "pk").values_list(
        "pk",
        "table",
        "round_id",
        "result",
        "team_a_id",
        "team_b_id",
        "match_id",
        "team_a__name",
        "team_b__name",
        "match__status",
        "match__result__started",
        "match__result__bazzis0",
        "match__result__bazzis1",
        "match__result__difference",
        "match__result__deals",
        "match__result__over",
    )
    tables: list[Table] = []
    for pk, table, round_id, result, a, b, match, a_name, b_name, match_status, *score in rows:
        started, bazzis0, bazzis1, difference, deals, over = score
        tables.append(
            {
                "fixture": pk,
                "table": table,
                "round": names[round_id],
                "status": competition.status_of_fixture(result, a, b, match_status),
                "team_a": a_name,
                "team_b": b_name,
                "started": bool(started),
                "bazzis0": bazzis0 or 0,
                "bazzis1": bazzis1 or 0,
                "difference": difference or 0,
                "deals": deals or 0,
                "over": bool(over),
                "sheet": sheet_url(sheets, match),
            }
        )
    return tables


def standings_words(stage: Stage, rounds: list[Round], as_of: int | None) -> str:
    """Return which results the standings as of round ``as_of`` hold, in words.

    The projection keeps rows as of the last published round, which may not be played yet:
    the words name the last complete round, and how far the next one is (one query, only
    then).
    """
    if as_of is None:
        return ""
    complete = [r for r in rounds if r.number <= as_of and r.status == Round.Status.COMPLETE]
    last = complete[-1] if complete else None
    if last is not None and last.number == as_of:
        return _("after %(round)s") % {"round": words.round_name(last)}
    playing = next((r for r in rounds if r.number == as_of), None)
    counts = Fixture.objects.filter(stage=stage, round__number=as_of).aggregate(
        total=Count("pk"), decided=Count("pk", filter=~Q(result=""))
    )
    decided, total = counts["decided"] or 0, counts["total"] or 0
    after = "" if last is None else _("after %(round)s") % {"round": words.round_name(last)}
    if not decided:
        return after or _("before the first result")
    partly = _("with %(decided)s of %(total)s results of %(round)s") % {
        "decided": decided,
        "total": total,
        "round": words.round_name(playing or f"round {as_of}"),
    }
    return f"{after}, {partly}" if after else partly


def tournament_page(tournament: Tournament) -> list[StagePage]:
    """Return every stage of the tournament as its public page shows it."""
    pages = []
    sheets = sheets_prefix()
    for stage in Stage.objects.filter(tournament=tournament).order_by("order"):
        rounds = list(competition.stage_rounds(stage=stage))
        as_of = competition.latest_standings_round(stage=stage)
        # plain values from the selector's rows: 256 lines render in a third of the time
        # model instances take (no instance to build, no attribute hunt in the template)
        rows: list[dict[str, Any]] = [
            dict(row)
            for row in competition.standings_for_stage(stage=stage, as_of_round=as_of).values(
                "rank",
                "points",
                "played",
                "won",
                "drawn",
                "lost",
                "tiebreaks",
                "group",
                name=F("team__name"),
            )
        ]
        groups: dict[int | None, list[dict[str, Any]]] = {}
        for row in rows:
            groups.setdefault(row["group"], []).append(row)
        bracket = None
        if stage.elimination and stage.status != Stage.Status.PENDING:
            bracket = competition.bracket_for_stage(stage=stage)
        current = _current_round(stage, rounds)
        pages.append(
            StagePage(
                stage=stage,
                rounds=rounds,
                current=current,
                standings=rows,
                tiebreak_names=[name.replace("_", " ") for name, _ in rows[0]["tiebreaks"]]
                if rows
                else [],
                as_of_round=as_of,
                as_of_words="" if stage.elimination else standings_words(stage, rounds, as_of),
                groups=sorted(groups.items(), key=lambda g: (g[0] is not None, g[0] or 0)),
                bracket=_bracket_columns(bracket, sheets, stage) if bracket else None,
                tables=_tables(current, stage, sheets, rounds)
                if stage.status == Stage.Status.RUNNING
                else [],
            )
        )
    # the print page: the stages being played, or once none is, how every stage ended
    running = [p for p in pages if p.stage.status == Stage.Status.RUNNING]
    for p in running or [p for p in pages if p.stage.status == Stage.Status.COMPLETE]:
        p.printed = True
    return pages


def _slot_label(side: dict[str, Any] | None, empty: str, names: dict[str, str]) -> str:
    if side is None:
        return empty
    if side.get("name"):
        return str(side["name"])
    return words.source(str(side["from"]), names) if side.get("from") else empty


def _bracket_columns(bracket: dict[str, Any], sheets: str, stage: Stage) -> dict[str, Any]:
    """Group a bracket's rounds by part (main; winners, losers, final) for drawing, each
    slot with its team's seed, each decided match with its score (two queries)."""
    seeds = dict(StageEntry.objects.filter(stage=stage).values_list("team_id", "seed"))
    played = [f["match"] for r in bracket["rounds"] for f in r["fixtures"] if f["match"]]
    scores = {
        m: (team0, (b0, b1), difference)
        for m, team0, b0, b1, difference in MatchResult.objects.filter(
            match_id__in=played, over=True
        ).values_list("match_id", "match__team0_id", "bazzis0", "bazzis1", "difference")
    }
    names = words.fixture_names(
        [(r["name"] or f"round {r['number']}", [f["key"] for f in r["fixtures"]])
         for r in bracket["rounds"]]
    )  # fmt: skip
    parts: dict[str, list[dict[str, Any]]] = {}
    for r in bracket["rounds"]:
        for f in r["fixtures"]:
            f["sheet"] = sheet_url(sheets, f["match"])
            f["name"] = names.get(f["key"], f["key"])
            f["a_label"] = _slot_label(f["a"], "to be decided", names)
            empty = "bye" if f["result"] == "bye" else "to be decided"
            f["b_label"] = _slot_label(f["b"], empty, names)
            for side in "ab":
                team = (f[side] or {}).get("team")
                f[f"{side}_seed"] = seeds.get(team) if team else None
                f[f"{side}_score"] = None
            score = scores.get(f["match"]) if f["match"] else None
            if score is not None:
                team0, bazzis, difference = score
                # a match's team 0 is its fixture's a; the check costs nothing and keeps
                # each score beside its team whatever a correction moved
                a_first = team0 == (f["a"] or {}).get("team")
                f["a_score"], f["b_score"] = bazzis if a_first else bazzis[::-1]
                f["difference"] = difference if a_first else -difference
            f["forfeit"] = f["result"] in (Fixture.Result.FORFEIT_A, Fixture.Result.FORFEIT_B)
        parts.setdefault(r["part"] or "main", []).append(r)
    return {
        **bracket,
        "parts": [(part, words.part(part), rounds) for part, rounds in parts.items()],
    }


# --- the match sheet ---------------------------------------------------------------------


@dataclass
class DealLine:
    row: DealResult
    dealer: str
    bazzi_team: str | None


@dataclass
class MatchSheet:
    match: Match
    seats: list[tuple[int, Player, str]]  # seat, player, team name
    result: MatchResult | None
    deals: list[DealLine]
    chart: str  # an SVG element
    receipt: MatchReceipt | None
    position: dict[str, Any] | None  # the public view of the digital deal in play
    deal_no: int
    stage: Stage | None
    round: Round | None


def match_for_page(queryset: QuerySet[Match]) -> QuerySet[Match]:
    return queryset.select_related(
        "tournament__club",
        "team0__first_player",
        "team0__second_player",
        "team1__first_player",
        "team1__second_player",
    )


def seat_list(match: Match) -> list[tuple[int, Player, str]]:
    return [
        (seat, player, match.team_of_seat(seat).name)
        for seat, player in enumerate(match.seat_players())
    ]


def match_sheet(match: Match) -> MatchSheet:
    """Return the match sheet: who sits where, the deals, the chart, the receipt, the deal."""
    seats = seat_list(match)
    names = [player.name for _, player, _ in seats]
    teams = [match.team0.name, match.team1.name]
    deals = [
        DealLine(d, names[d.dealer], None if d.bazzi is None else teams[d.bazzi])
        for d in scoring.deal_results(match=match)
    ]
    position = None
    deal_no = 0
    if match.mode == Match.Mode.DIGITAL and match.status == Match.Status.IN_PROGRESS:
        state = store.match_state(match)
        deal_no = state.deal_no
        if state.deal is not None and state.deal.phase not in ("over", "redealt"):
            position = public_position(state.deal, names)
    fixture = Fixture.objects.filter(match=match).select_related("round__stage").first()
    return MatchSheet(
        match=match,
        seats=seats,
        result=scoring.match_result(match=match),
        deals=deals,
        chart=charts.running_difference(chart_points([d.row for d in deals]), teams),
        receipt=MatchReceipt.objects.filter(match=match).order_by("-seq").first(),
        position=position,
        deal_no=deal_no,
        stage=fixture.round.stage if fixture else None,
        round=fixture.round if fixture else None,
    )


def chart_points(rows: list[DealResult]) -> list[charts.Point]:
    """Return the chart's points: each deal's running difference, and for a deal that won a
    bazzi the lead it reached before the difference went back to zero (L2), or for a bazzi
    lost under the minimum (L3) the winner's lead line."""
    points, before = [], 0
    for row in rows:
        reached = row.running_difference
        if row.bazzi is not None:
            if row.reason == DealResult.Reason.LEAD:
                reached = before + row.difference
            else:
                reached = charts.LEAD if row.bazzi == 0 else -charts.LEAD
        points.append(charts.Point(row.deal, reached, row.running_difference, row.bazzi))
        before = row.running_difference
    return points


def public_position(deal: Any, names: list[str]) -> dict[str, Any]:
    """Return the public view of a deal in play, for a template: no hand, no stock, ever.

    Built from ``seep_core.view(deal, None)``, the engine's public view: the floor (loose
    cards and houses), how many cards each hand holds, the captured piles and the sweeps.
    """
    seen = sc.view(deal, None)
    floor = seen.get("floor") or {}
    return {
        "phase": seen["phase"],
        "bid": seen.get("bid"),
        "to_play": None if seen.get("to_play") is None else names[seen["to_play"]],
        "plays": seen.get("plays", 0),
        "loose": [(card_label(c), words.card(c)) for c in floor.get("loose", [])],
        "houses": [
            {
                "value": h["value"],
                "sets": [" ".join(card_label(c) for c in s) for s in h["sets"]],
                "spoken": " + ".join(", ".join(words.card(c) for c in s) for s in h["sets"]),
                "owners": [names[o] for o in h["owners"]],
            }
            for h in floor.get("houses", [])
        ],
        "hand_sizes": [(names[seat], n) for seat, n in enumerate(seen["hand_sizes"])],
        "piles": [len(p) for p in seen["piles"]],
        "sweeps": seen["sweeps"],
    }


# --- the score-keeper page ---------------------------------------------------------------


@dataclass
class EntryLine:
    entry: matchlog.Entry
    by: str  # who entered it, in words
    side_name: str | None


def keeper_matches(user: Any, *, teams: Sequence[int] = (), mode: str = Match.Mode.SCORE) -> Any:
    """Return the matches of ``mode`` ``user`` plays in (or, score matches, keeps score at),
    and those of ``teams`` (the teams whose links the browser holds), not yet finished (nor
    called off): score matches for the phone page, digital ones for the seat pages."""
    who = Q(pk__in=[])
    if user.is_authenticated:
        who = Q(team0__first_player__user=user) | Q(team0__second_player__user=user)
        who |= Q(team1__first_player__user=user) | Q(team1__second_player__user=user)
        if mode == Match.Mode.SCORE:
            who |= Q(scorekeepers=user)
    if teams:
        who |= Q(team0__in=teams) | Q(team1__in=teams)
    return (
        Match.objects.filter(who, mode=mode)
        .exclude(status__in=(Match.Status.FINISHED, Match.Status.CALLED_OFF))
        .select_related("tournament", "team0", "team1", "result")
        .distinct()
        .order_by("tournament__name", "pk")
    )


def director_score_matches(tournaments: Any) -> Any:
    return (
        Match.objects.filter(tournament__in=tournaments, mode=Match.Mode.SCORE)
        .exclude(status__in=(Match.Status.FINISHED, Match.Status.CALLED_OFF))
        .select_related("tournament", "team0", "team1", "result")
        .order_by("tournament__name", "pk")
    )


def _author(actor: int | None, players: dict[int, str], names: dict[int, str]) -> str:
    """Return who entered a result, by their player's name if they play, else their account's
    full name (never its user name: tournaments.display_names), else "the score-keeper"."""
    if actor is None:
        return _("the score-keeper")
    if actor < 0:  # a team's private link (its team is the line's side)
        return _("the team's link")
    return players.get(actor) or names.get(actor) or _("the score-keeper")


def entry_lines(match: Match, state: matchlog.MatchState) -> list[EntryLine]:
    """Return the entries awaiting an answer, each with who entered it."""
    actors = {e.actor for e in state.entries if e.actor is not None and e.actor > 0}
    names = full_names(actors)
    players = {p.user_id: p.name for _, p, _ in seat_list(match) if p.user_id}
    teams = [match.team0.name, match.team1.name]
    return [
        EntryLine(
            e,
            _author(e.actor, players, names),
            None if e.side is None else teams[e.side],
        )
        for e in state.entries
    ]


def last_answer(match: Match, state: matchlog.MatchState) -> dict[str, Any] | None:
    """Return who confirmed the last counted deal, if it was confirmed (one query)."""
    event = (
        store.match_events(match)
        .filter(kind=matchlog.Kind.DEAL_CONFIRMED)
        .select_related("actor")
        .order_by("-seq")
        .first()
    )
    if event is None or event.payload.get("deal") != state.deal_no:
        return None
    players = {p.user_id: p.name for _, p, _ in seat_list(match) if p.user_id}
    name = players.get(event.actor_id) if event.actor_id is not None else None
    side = seated_side(match, event.actor_id)
    author = matchlog.author(event.actor_id, event.via)
    if author is not None and author < 0:  # through a team's link: the team said it
        side = matchlog.link_side(author)
        name = (match.team0.name, match.team1.name)[side]
    by = name or (full_name(event.actor) if event.actor else None) or "the score-keeper"
    return {"deal": event.payload["deal"], "by": by, "side": side, "at": event.recorded_at}


def seated_side(match: Match, user_id: int | None) -> int | None:
    """Return the team (0, 1) whose player ``user_id`` is, or None."""
    if user_id is None:
        return None
    for seat, player, _team in seat_list(match):
        if player.user_id == user_id:
            return seat % 2
    return None


@dataclass
class Version:
    """One version of a deal's result before a director: an entry, or the numbers a team
    gave with its rejection; ``fields``, the decide form's data for it (None if the form's
    sweeps cannot say it)."""

    label: str
    points: list[int]
    sweeps: list[list[int]]
    fields: dict[str, Any] | None


def _sweep_fields(rules: sc.Rules, values: list[int]) -> tuple[int, bool] | None:
    """Return sweep values as the form counts them (how many, one on the first play)."""
    first = rules.first_sweep != rules.sweep and values[:1] == [rules.first_sweep]
    rest = values[1:] if first else values
    if any(v != rules.sweep for v in rest):
        return None
    return len(rest), first


def deal_versions(
    match: Match, lines: list[EntryLine], dispute: dict[str, Any] | None
) -> list[Version]:
    """Return the versions of the next deal a director chooses from: each entry, then each
    rejection that came with the rejecting team's own numbers."""
    rules = sc.Rules.from_dict(match.rules)
    teams = (match.team0.name, match.team1.name)
    found = [
        (
            _("entry %(entry)s by %(by)s (%(side)s)")
            % {"entry": line.entry.number, "by": line.by, "side": line.side_name}
            if line.side_name
            else _("entry %(entry)s by %(by)s") % {"entry": line.entry.number, "by": line.by},
            list(line.entry.points),
            [list(s) for s in line.entry.sweeps],
        )
        for line in lines
    ]
    entered = {line.entry.number: line.entry.side for line in lines}
    seated = {p.user_id: seat % 2 for seat, p, _ in seat_list(match) if p.user_id}
    for r in (dispute or {}).get("rejections", []):
        if "points" not in r:
            continue
        side = seated.get(r["by"])  # the rejecting player's team, else the entry's other one
        entry_side = entered.get(r["entry"])
        if side is None and entry_side is not None:
            side = 1 - entry_side
        if side is not None:
            label = _("%(team)s's version (rejecting entry %(entry)s)") % {
                "team": teams[side],
                "entry": r["entry"],
            }
        else:
            label = _("the rejecting version (rejecting entry %(entry)s)") % {"entry": r["entry"]}
        found.append((label, r["points"], r["sweeps"]))
    versions = []
    for label, points, sweeps in found:
        counted = [_sweep_fields(rules, list(s)) for s in sweeps]
        fields: dict[str, Any] | None = None
        if all(c is not None for c in counted):
            fields = {"points_a": points[0], "points_b": points[1]}
            for letter, c in zip("ab", counted, strict=True):
                assert c is not None
                fields[f"sweeps_{letter}"], first = c
                if first:
                    fields[f"first_{letter}"] = True
        versions.append(Version(label, points, sweeps, fields))
    return versions
