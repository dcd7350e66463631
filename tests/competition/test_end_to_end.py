"""A whole club tournament on PostgreSQL with real Celery workers: 16 teams, a Swiss stage of 4
rounds, then the top 8 in a knockout, played to the end by bots.

This process does what organizers and tables do (pair, publish, append moves and results); the
workers do the rest (projections, fixture results, the bracket's advancement, standings). The
champion and the Swiss standings are then recomputed independently, from the match logs alone,
and every match verifies.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import seep_core as sc
from competition import formats
from competition.models import Fixture, Round, Stage, StandingRow
from competition.selectors import bracket_for_stage
from tests.scoring.worker import Worker, wait_until
from tournaments.models import Match, MatchEvent
from tournaments.verify import verify_match

from .helpers import Club, make_club

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def from_the_log(match: Match) -> tuple[int | None, sc.MatchProgress, list[int]]:
    """Return a match's winner, its progress and each team's sweeps, from its events alone."""
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    started = events.get(kind="match_started").payload
    progress = sc.start_match(
        started["first_dealer"], sc.MatchFormat.from_dict(started["format"]),
        sc.Rules.from_dict(started["rules"]),
    )  # fmt: skip
    deals_won, sweeps = [0, 0], [0, 0]
    for deal in events.filter(kind="deal_ended").values_list("payload", flat=True):
        progress = progress.after_deal(deal["total"])
        a, b = deal["total"]
        if a != b:
            deals_won[0 if a > b else 1] += 1
        sweeps[0] += len(deal["sweeps"][0])
        sweeps[1] += len(deal["sweeps"][1])
    assert progress.over
    return progress.winner, progress, [*deals_won, *sweeps]


def recomputed_swiss_table(stage: Stage) -> list[tuple[int, int]]:
    """The Swiss stage's final table from the pairings and the match logs alone."""
    rows = []
    for fixture in Fixture.objects.filter(stage=stage).select_related("round", "match"):
        number = fixture.round.number
        if fixture.team_b_id is None:
            rows.append(formats.Match(number, formats.Side(fixture.team_a_id, "bye")))
            continue
        assert fixture.match is not None
        winner, progress, (d0, d1, s0, s1) = from_the_log(fixture.match)
        outcomes = {0: ("win", "loss"), 1: ("loss", "win"), None: ("draw", "draw")}[winner]
        b0, b1 = progress.bazzis
        diff = progress.difference
        rows.append(
            formats.Match(
                number,
                formats.Side(fixture.team_a_id, outcomes[0], b0, b1, diff, d0, s0),
                formats.Side(fixture.team_b_id, outcomes[1], b1, b0, -diff, d1, s1),
            )
        )
    table = formats.standings(
        rows, points=formats.Points(), tiebreaks=stage.tiebreaks, seed=stage.tiebreak_seed,
        entrants=list(stage.entries.values_list("team_id", flat=True)),
    )  # fmt: skip
    return [(r.entrant, r.rank) for r in table.rows]


def wait_round_complete(round_: Round, timeout: float = 120) -> None:
    wait_until(
        lambda: Round.objects.get(pk=round_.pk).status == Round.Status.COMPLETE,
        timeout,
        f"round {round_.number} of {round_.stage} to complete",
    )


def test_a_swiss_then_a_knockout_runs_to_its_champion_on_real_workers(
    workers: Callable[..., Worker],
) -> None:
    workers(concurrency=2, beat_every=3)
    club: Club = make_club(16, slug="e2e-cup")
    swiss = club.stage(
        format="swiss", rounds=4, mode="score", match_format={"bazzis": 1, "deal_cap": 2},
        tiebreaks=["bazzis_won", "buchholz", "running_difference", "head_to_head", "random"],
        tiebreak_seed=7,
    )  # fmt: skip
    knockout = club.stage(
        format="single_elimination", entry="top", entry_count=8, seeding="standings",
        mode="digital", match_format={"bazzis": 1, "deal_cap": 1},
    )  # fmt: skip
    rng = random.Random(2026)
    club.start(swiss)
    for _ in range(4):
        round_ = club.publish(club.pair(swiss))
        club.play(round_, rng)
        wait_round_complete(round_)
    wait_until(
        lambda: Stage.objects.get(pk=swiss.pk).status == Stage.Status.COMPLETE, 60, "the Swiss"
    )
    wait_until(
        lambda: StandingRow.objects.filter(stage=swiss, as_of_round=4).count() == 16,
        60, "the final Swiss standings",
    )  # fmt: skip

    def table_is_current() -> bool:
        return list(
            StandingRow.objects.filter(stage=swiss, as_of_round=4)
            .order_by("rank", "team")
            .values_list("team_id", "rank")
        ) == sorted(recomputed_swiss_table(swiss), key=lambda tr: (tr[1], tr[0]))

    wait_until(table_is_current, 60, "the standings to equal the recomputation from the logs")

    club.start(knockout)
    expected_seeds = [team for team, rank in recomputed_swiss_table(swiss)][:8]
    assert (
        list(knockout.entries.order_by("seed").values_list("team_id", flat=True)) == expected_seeds
    )
    club.publish(knockout.round_set.order_by("number").first())
    played = set()
    while Stage.objects.get(pk=knockout.pk).status != Stage.Status.COMPLETE:
        ready = (
            Fixture.objects.filter(stage=knockout, result="", match__isnull=False)
            .exclude(match_id__in=played)
            .order_by("round__number", "key")
        )
        fixture = ready.first()
        if fixture is None:
            wait_until(
                lambda: Stage.objects.get(pk=knockout.pk).status == Stage.Status.COMPLETE
                or Fixture.objects.filter(stage=knockout, result="", match__isnull=False)
                .exclude(match_id__in=played)
                .exists(),
                120, "the workers to advance the bracket",
            )  # fmt: skip
            continue
        from competition import demo

        demo.play(fixture.match, rng)
        played.add(fixture.match_id)

    final = Fixture.objects.get(stage=knockout, winner_to="")
    winner, _, _ = from_the_log(final.match)
    champion = final.team_a_id if winner == 0 else final.team_b_id
    knockout.refresh_from_db()
    assert bracket_for_stage(stage=knockout)["champion"]["team"] == champion
    assert Match.objects.filter(fixture__stage=knockout).count() == 7
    for match in Match.objects.filter(tournament=club.tournament):
        assert verify_match(match) == [], match
