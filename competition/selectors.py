"""Reading a tournament's competition: stages, rounds, fixtures, standings and brackets.

Standings come from the projection (``competition.standings``), never computed on a read.
Brackets and rematches are read through ``competition.draw``, the cut through
``competition.cut``: a selector imports no service.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, Q, QuerySet, Value

from tournaments import happenings
from tournaments.access import at_slug, directed_tournaments
from tournaments.matchlog import Kind
from tournaments.models import Match, MatchEvent, Team, Tournament

from . import formats
from . import happenings as told
from .access import visible_tournaments
from .cut import Cut, cut_for_stage, decision_words
from .draw import bracket_state, is_rematch, meetings
from .models import Fixture, Notice, Round, Stage, StandingRow


def tournament_at(user: Any, slug: str, *, directing: bool = False) -> Tournament | None:
    """Return the tournament ``user`` finds at ``slug``, or None (the caller's 404).

    Every page and stream at an address holding a slug (``/t/<slug>/``, ``/desk/<slug>/``,
    their live parts and streams, the desk's webhooks) finds its tournament here. Among the
    tournaments holding the slug that ``user`` may see (``directing``: that they direct), the
    published one, else the oldest (``tournaments.access.at_slug``). A private tournament
    they may not see is as absent as one that does not exist. So a private tournament of a
    club whose slug another club's tournament has since published at is still its directors'
    at its desk, while its page's address shows the published one (docs/web.md, "A
    tournament's address").
    """
    reachable = directed_tournaments(user) if directing else visible_tournaments(user)
    return at_slug(reachable, slug)


def shadowed(tournament: Tournament) -> bool:
    """Return whether another, published tournament holds the private ``tournament``'s slug,
    so that its page's address shows that one (the desk says so; it must choose another slug
    before it is published)."""
    if tournament.published:
        return False
    held = Tournament.objects.filter(slug=tournament.slug, published=True)
    return held.exclude(pk=tournament.pk).exists()


def open_notices(*, tournament_id: int) -> QuerySet[Notice]:
    """Return what the tournament's directors have still to look at, newest first."""
    return Notice.objects.filter(stage__tournament_id=tournament_id, resolved_at__isnull=True)


def stage_rounds(*, stage: Stage, include_drafts: bool = False) -> QuerySet[Round]:
    """Return the stage's rounds in order (drafts only for directors)."""
    rounds = Round.objects.filter(stage=stage).order_by("number")
    return rounds if include_drafts else rounds.exclude(status=Round.Status.DRAFT)


def latest_standings_round(*, stage: Stage) -> int | None:
    """Return the last round the stage's standings have rows for, or None."""
    return (
        StandingRow.objects.filter(stage=stage)
        .order_by("-as_of_round")
        .values_list("as_of_round", flat=True)
        .first()
    )


def standings_for_stage(*, stage: Stage, as_of_round: int | None = None) -> QuerySet[StandingRow]:
    """Return the stage's standings as of a round (default: the latest), group by group."""
    if as_of_round is None:
        as_of_round = latest_standings_round(stage=stage)
    return (
        StandingRow.objects.filter(stage=stage, as_of_round=as_of_round or 0)
        .select_related("team")
        .order_by("group", "rank", "team__name")
    )


def _side(fixture: Fixture, side: str) -> dict[str, Any] | None:
    # the bracket's old slot ("a", "b"), kept while API v1 keeps it (docs/api-changelog.md)
    team = getattr(fixture, f"team_{side}")
    if team is not None:
        return {"team": team.pk, "name": team.name}
    source = getattr(fixture, f"source_{side}")
    return {"team": None, "from": source} if source else None


side = happenings.side  # one side of a fixture or a match, as the API names it
fixture_sides = told.fixture_sides  # a fixture's two sides, side 0 first
fixture_winner_side = told.fixture_winner_side  # the side that went through, or None


def fixture_status(fixture: Fixture) -> str:
    """Return where a fixture stands: waiting, ready, playing, decided, void or bye."""
    return status_of_fixture(
        fixture.result,
        fixture.team_a_id,
        fixture.team_b_id,
        None if fixture.match is None else fixture.match.status,
    )


def status_of_fixture(
    result: str, team_a_id: int | None, team_b_id: int | None, match_status: str | None
) -> str:
    """:func:`fixture_status` from a fixture's values (a page that reads rows, not models)."""
    if result == Fixture.Result.VOID:
        return "void"
    if result == Fixture.Result.BYE:
        return "bye"
    if result:
        return "decided"
    if team_a_id is None or team_b_id is None:
        return "waiting"
    if match_status is not None and match_status != "scheduled":
        return "playing"
    return "ready"


def bracket_for_stage(*, stage: Stage, include_drafts: bool = False) -> dict[str, Any]:
    """Return a bracket stage as a tree: its rounds, each with its fixtures, and the champion.

    A fixture shows its two entrants (a team, or where it comes from: "winner of R1-2"), its
    result, its match, where its winner and loser go, and whether it is waiting, ready,
    being played, decided or void.
    """
    rounds = list(stage_rounds(stage=stage, include_drafts=include_drafts))
    fixtures = (
        Fixture.objects.filter(round__in=rounds)
        .select_related("team_a", "team_b", "match")
        .order_by("round__number", "key", "table", "id")
    )
    by_round: dict[int, list[dict[str, Any]]] = {r.pk: [] for r in rounds}
    champion = None
    for f in fixtures:
        winner = f.winner()
        by_round[f.round_id].append(
            {
                "key": f.key,
                "table": f.table,
                "sides": fixture_sides(f),
                "winner_side": fixture_winner_side(f),
                "a": _side(f, "a"),
                "b": _side(f, "b"),
                "result": f.result or None,
                "winner": None if winner is None else winner.pk,
                "status": fixture_status(f),
                "match": f.match_id,
                "winner_to": f.winner_to or None,
                "loser_to": f.loser_to or None,
            }
        )
    if stage.elimination and stage.status != Stage.Status.PENDING:
        team_id = bracket_state(stage).champion
        if team_id is not None:
            name = Team.objects.get(pk=team_id).name
            champion = {"id": team_id, "name": name, "team": team_id}
    return {
        "stage": stage.pk,
        "format": stage.format,
        "status": stage.status,
        "rounds": [
            {
                "number": r.number,
                "name": r.name,
                "part": r.part,
                "status": r.status,
                "fixtures": by_round[r.pk],
            }
            for r in rounds
        ],
        "champion": champion,
    }


def draft_explained(*, round_: Round) -> list[dict[str, Any]]:
    """Return each table of a round as the desk explains it: the teams with their points and
    place before the round, who floats up or down, the bye, and any rematch with why it stands.

    A Swiss pairer meets as few rematches as the field allows (docs/competition.md), so a
    rematch it made could not be avoided; one made by an edit says so.
    """
    stage = round_.stage
    before: dict[int, tuple[int | None, int]] = {}
    if round_.number > 1 and not stage.elimination:
        rows = StandingRow.objects.filter(stage=stage, as_of_round=round_.number - 1)
        before = {team: (rank, points) for team, rank, points in rows.values_list(
            "team_id", "rank", "points")}  # fmt: skip
    met = meetings(stage, round_.number)
    planned = (round_.pairing or {}).get("cost", {}).get("rematches", 0)
    explained: list[dict[str, Any]] = []
    for f in round_.fixtures.select_related("team_a", "team_b").order_by("table", "key", "pk"):
        floats = {x["team"]: x["direction"] for x in f.floats or []}
        rematch, rounds = "", []
        if f.team_a_id is not None and f.team_b_id is not None:
            rounds = met.get(frozenset((f.team_a_id, f.team_b_id)), [])
        if rounds and is_rematch(stage, rounds):
            rematch = (
                f"they met in round {', '.join(map(str, rounds))}: "
                + ("no pairing of this field avoids every rematch" if planned
                   else "made by an edit of the draft")
            )  # fmt: skip
        explained.append(
            {
                "fixture": f,
                "where": f.table or f.key,
                "sides": (
                    _draft_side(f.team_a, f.source_a, before, floats),
                    _draft_side(f.team_b, f.source_b, before, floats),
                ),
                "bye": f.result == Fixture.Result.BYE,
                "rematch": rematch,
                # the same in parts, for a page to say in its own language: the rounds they
                # met in, and whether the pairer made it (else an edit of the draft did)
                "rematch_rounds": ", ".join(map(str, rounds)) if rematch else "",
                "rematch_planned": bool(planned),
            }
        )
    return explained


def _draft_side(
    team: Team | None,
    source: str,
    before: dict[int, tuple[int | None, int]],
    floats: dict[int, str],
) -> dict[str, Any]:
    if team is None:
        return {"name": source or "bye", "known": False}
    rank, points = before.get(team.pk, (None, 0))
    return {"name": team.name, "known": True, "rank": rank, "points": points,
            "float": floats.get(team.pk, "")}  # fmt: skip


def cut_explained(
    *, stage: Stage, fresh: bool = False, found: Cut | None = None
) -> list[dict[str, Any]]:
    """Return the standings of the stage before that decide who enters ``stage`` (a top N),
    in the order the cut takes them, each place with what put it above the next (points, or
    the first tie-break that differs; where every one is level, how a tie across the cut was
    decided, "undecided" while it waits for a director, and "seed" elsewhere) and whether it
    goes through: ``in`` true or false, None for a team of an undecided tie at the cut.
    Empty for a stage that takes the registered teams, or before the stage before has
    standings. ``fresh``: bring those standings up to date first (not inside a read-only
    block). ``found``: the cut, when the caller has it already.
    """
    if found is None:
        found = cut_for_stage(stage, fresh=fresh)
    if found is None:
        return []
    labels = formats.TIEBREAK_LABELS
    entered = set(stage.entries.values_list("team_id", flat=True))
    ties = {team: tie for tie in found.ties for team in tie.teams}
    out: list[dict[str, Any]] = []
    for line in found.lines:
        through = [p.team_id for p in line if not p.withdrawn][: found.count]
        for i, place in enumerate(line):
            row = place.row
            after = line[i + 1].row if i + 1 < len(line) else None
            tie = ties.get(row.team_id)
            decided, why = "", ""
            if after is not None and after.group == row.group:
                if after.points != row.points:
                    decided = why = "points"
                else:
                    values = dict((name, value) for name, value in after.tiebreaks)
                    why = next((n for n, v in row.tiebreaks if values.get(n) != v), "")
                    decided = labels.get(why, why)
                if not decided and after.rank != row.rank:
                    # level on every value the lines keep, yet at different places: a
                    # head-to-head mini-table among only the teams still level split them
                    # (the lines keep the first mini-table's values), never their seed
                    decided = f"{labels['head_to_head']} among the teams still level"
                    why = "head_to_head_among_level"
                if not decided:
                    same_tie = tie is not None and tie is ties.get(after.team_id)
                    if same_tie and tie is not None and tie.decision is not None:
                        decided, why = decision_words(tie.decision), "decision"
                    elif same_tie and not entered:
                        decided = "undecided: level on everything across the cut"
                        why = "undecided"
                    else:
                        decided = why = "seed"
            if entered:
                went: bool | None = row.team_id in entered
            elif tie is not None and tie.decision is None:
                went = None
            else:
                went = row.team_id in through
            out.append(
                {
                    "group": row.group,
                    "rank": row.rank,
                    "team": row.team.name,
                    "team_id": row.team_id,
                    "points": row.points,
                    "tiebreaks": [(labels.get(n, n), v) for n, v in row.tiebreaks],
                    "above_next_by": decided,
                    # the same as a code (a tie-break's key, "points", "decision", ...), and
                    # the tie's decision: for a page to say it in its own language
                    "above_next_why": why,
                    "decision": tie.decision if why == "decision" and tie is not None else None,
                    "tiebreak_values": dict(row.tiebreaks),
                    "in": went,
                    "withdrawn": place.withdrawn,
                }
            )
    return out


def round_unpublishable(*, round_: Round, fixtures: list[Fixture] | None = None) -> bool:
    """Whether the desk offers to unpublish a round (``services.round_unpublish`` decides):
    published, its stage running, no later round paired (Swiss, round robin), no result won
    or drawn in it, and nothing but the start recorded in any of its matches.

    ``fixtures``: the round's fixtures if the caller has them (a bracket's are the stage's);
    the rest is one query.
    """
    stage = round_.stage
    if round_.status == Round.Status.DRAFT or stage.status != Stage.Status.RUNNING:
        return False
    played = (Fixture.Result.A, Fixture.Result.B, Fixture.Result.DRAW)
    rounds = Round.objects.filter(stage=stage) if stage.elimination else [round_.pk]
    later = Round.objects.filter(stage=stage, number__gt=round_.number)
    recorded = MatchEvent.objects.filter(match__fixture__round__in=rounds).exclude(
        kind__in=(Kind.MATCH_STARTED, Kind.DEAL_STARTED)
    )
    checks = Round.objects.filter(pk=round_.pk).annotate(
        later=Exists(later) if not stage.elimination else Value(False),
        recorded=Exists(recorded),
        results=Value(False)
        if fixtures is not None and not stage.elimination
        else Exists(Fixture.objects.filter(round__in=rounds, result__in=played)),
    )
    found = checks.values_list("later", "recorded", "results").first()
    if found is None or any(found):
        return False
    return fixtures is None or not any(f.result in played for f in fixtures)


def tournaments_over(tournament_ids: list[int]) -> set[int]:
    """Return which of the tournaments are over: each has stages, and all are complete."""
    rows = (
        Stage.objects.filter(tournament_id__in=tournament_ids)
        .values_list("tournament_id", "status")
        .order_by()
    )
    seen: dict[int, bool] = {}
    for tournament_id, status in rows:
        seen[tournament_id] = seen.get(tournament_id, True) and status == Stage.Status.COMPLETE
    return {tournament_id for tournament_id, over in seen.items() if over}


def tournament_champion(*, tournament_id: int) -> Team | None:
    """Return the winner of a tournament that is over, or None: its last stage's champion
    (a bracket), or the one team first in its last stage's final standings (None when
    groups leave several firsts)."""
    stage = Stage.objects.filter(tournament_id=tournament_id).order_by("-order").first()
    if stage is None or stage.status != Stage.Status.COMPLETE:
        return None
    if stage.elimination:
        team_id = bracket_state(stage).champion
        return None if team_id is None else Team.objects.filter(pk=team_id).first()
    firsts = [row.team for row in standings_for_stage(stage=stage) if row.rank == 1]
    return firsts[0] if len(firsts) == 1 else None


def team_now(*, team_id: int) -> dict[str, Any]:
    """Return what a team has to play now: ``{"match": Match}`` (its match not finished, in
    a published round), ``{"bye": Round}`` (a bye in a round still being played), or
    ``{}`` (nothing yet: its next round is not published, or it is out)."""
    mine = Q(team_a_id=team_id) | Q(team_b_id=team_id)
    fixtures = (
        Fixture.objects.filter(mine, round__status=Round.Status.PUBLISHED)
        .select_related("round", "match__team0", "match__team1", "match__tournament")
        .order_by("-stage__order", "-round__number", "-pk")
    )
    for fixture in fixtures[:8]:
        match = fixture.match
        if match is not None and match.status not in (
            Match.Status.FINISHED,
            Match.Status.CALLED_OFF,
        ):
            return {"match": match}
        if fixture.result == Fixture.Result.BYE and fixture.team_a_id == team_id:
            return {"bye": fixture.round}
    return {}
