"""What the competition tells (tournaments.happenings), written in the transaction of each
change: a round published or taken back, a fixture's match made, a fixture's sides filled,
a stage's standings changed, the tournament changed, a team registered or changed; and where
a match's sides come from, added to what scoring tells of a match (a bracket's "winner of
QF1").

The bodies are the results log's and the webhooks' (docs/api.md lists them). Each also
publishes the live message of what it touched (a stage, the tournament): the pages that show
it follow.
"""

from __future__ import annotations

from typing import Any

import live
from tournaments import happenings
from tournaments.models import Team, Tournament

from .models import Fixture, Registration, Round, Stage


def fixture_sides(fixture: Fixture) -> list[dict[str, Any]]:
    """Return a fixture's two sides, side 0 (its team a, team 0 of its match) first."""
    return [
        happenings.side(0, fixture.team_a, fixture.source_a),
        happenings.side(1, fixture.team_b, fixture.source_b),
    ]


def fixture_winner_side(fixture: Fixture) -> int | None:
    """Return the side that went through (a win, a forfeit, a bye: 0 or 1), or None."""
    if fixture.result in (Fixture.Result.A, Fixture.Result.BYE, Fixture.Result.FORFEIT_B):
        return 0
    if fixture.result in (Fixture.Result.B, Fixture.Result.FORFEIT_A):
        return 1
    return None


def fixture_body(fixture: Fixture) -> dict[str, Any]:
    """A fixture as a round's publication shows it."""
    return {
        "table": fixture.table,
        "key": fixture.key or None,
        "sides": fixture_sides(fixture),
        "winner_side": fixture_winner_side(fixture),
        # deprecated (docs/api-changelog.md): sides[0].id and sides[1].id
        "a": fixture.team_a_id,
        "b": fixture.team_b_id,
        "match": fixture.match_id,
        "result": fixture.result or None,
    }


def _round_named(round_: Round) -> dict[str, Any]:
    """A round as a happening of its own names it: its stage, number and name."""
    return {"stage": round_.stage_id, "round": round_.number, "name": round_.name}


def round_published(round_: Round) -> None:
    """A round's pairings are out (read as they are now, in the publishing transaction)."""
    round_.refresh_from_db(fields=["published_at", "status"])
    fixtures = round_.fixtures.select_related("team_a", "team_b").order_by("table", "key", "id")
    stamp = round_.published_at.isoformat() if round_.published_at else ""
    happenings.write(
        tournament_id=round_.stage.tournament_id,
        kind=happenings.ROUND_PUBLISHED,
        body={**_round_named(round_), "fixtures": [fixture_body(f) for f in fixtures]},
        key=f"published:{round_.pk}:{stamp}",
        topics=[(live.Topic.STAGE, round_.stage_id)],
    )


def round_unpublished(round_: Round, called_off: list[int]) -> None:
    """A published round is a draft again, and these matches were called off."""
    happenings.write(
        tournament_id=round_.stage.tournament_id,
        kind=happenings.ROUND_UNPUBLISHED,
        body={**_round_named(round_), "called_off": sorted(called_off)},
        # no key: written once in the transaction that takes the round back, and a round taken
        # back twice with the same matches called off (none: a round of byes) is told twice
        topics=[(live.Topic.STAGE, round_.stage_id)],
    )


def _placed(kind: str, stage: Stage, fixture_id: int, key: str) -> None:
    fixture = Fixture.objects.select_related("team_a", "team_b", "round").get(pk=fixture_id)
    happenings.write(
        tournament_id=stage.tournament_id,
        kind=kind,
        body={
            "stage": stage.pk,
            "round": fixture.round.number,
            "fixture": fixture.pk,
            **fixture_body(fixture),
        },
        key=key,
        topics=[(live.Topic.STAGE, stage.pk)],
    )


def match_made(stage: Stage, fixture_id: int, match_id: int) -> None:
    """A fixture's match was made (at its round's publishing, or later: a bracket's next
    match once both its teams are known)."""
    _placed(happenings.MATCH_MADE, stage, fixture_id, f"made:{match_id}")


def fixture_filled(stage: Stage, fixture_id: int) -> None:
    """A fixture's sides were filled or changed (a bracket's slot reached, an entrant replaced
    after a correction); no key: each filling is told."""
    _placed(happenings.FIXTURE_FILLED, stage, fixture_id, "")


def standings_changed(stage: Stage, rounds: list[int]) -> None:
    """The stage's tables as of ``rounds`` were rewritten (the log says which; the table is
    one GET away, and a webhook delivery reads it when it is made)."""
    happenings.write(
        tournament_id=stage.tournament_id,
        kind=happenings.STANDINGS_CHANGED,
        body={"stage": stage.pk, "rounds": rounds, "as_of_round": max(rounds)},
        topics=[(live.Topic.STAGE, stage.pk)],
    )


#: what a team's happening says became of it (``team.changed``'s ``change``)
TEAM_CHANGES = ("registered", "renamed", "checked_in", "checked_out", "withdrawn", "reinstated")


def tournament_changed(tournament: Tournament) -> None:
    """The tournament's name, address, publication, date or place changed (as it is now)."""
    happenings.write(
        tournament_id=tournament.pk,
        kind=happenings.TOURNAMENT_CHANGED,
        body={
            "name": tournament.name,
            "slug": tournament.slug,
            "published": tournament.published,
            "date": tournament.date.isoformat() if tournament.date else None,
            "place": tournament.place or None,
        },
        topics=[(live.Topic.TOURNAMENT, tournament.pk)],
    )


def team_changed(team: Team, change: str) -> None:
    """A team was registered, renamed, checked in or out, withdrawn or reinstated (``change``):
    the team as it is now (never a rating: a member's may be hidden)."""
    assert change in TEAM_CHANGES, change
    registration = Registration.objects.filter(team=team).first()
    name = Team.objects.values_list("name", flat=True).get(pk=team.pk)  # as it is now
    happenings.write(
        tournament_id=team.tournament_id,
        kind=happenings.TEAM_CHANGED,
        body={
            "team": {"id": team.pk, "name": name},
            "change": change,
            "checked_in": registration is not None and registration.checked_in_at is not None,
            "withdrawn": registration is not None and registration.withdrawn_at is not None,
        },
        topics=[(live.Topic.TOURNAMENT, team.tournament_id)],
    )


def name_match_sources(body: dict[str, Any]) -> None:
    """Add to a match's happening where its sides come from (its fixture's sources)."""
    if "match" not in body or len(body.get("sides", ())) != 2:
        return
    sources = (
        Fixture.objects.filter(match_id=body["match"]).values_list("source_a", "source_b").first()
    )
    if sources is not None:
        for side, source in zip(body["sides"], sources, strict=True):
            side["source"] = source or None
