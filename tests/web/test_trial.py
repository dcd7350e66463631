"""What the club-night trial found on the public, print, phone and desk pages (issue 26): the
standings say which rounds they hold, the chart shows a bazzi's lead before the reset, a
finished match sheet stops saying "in progress", a rejection carries the rejecting team's
own numbers and the director picks a version in a tap, words instead of codes, the print page
after the end and for a knockout, seeds and scores in a bracket."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import TestCase

from competition import services as competition
from competition.models import Round, Stage
from scoring.models import MatchResult
from tests.competition.helpers import Club as CupClub
from tests.competition.helpers import make_club as make_cup
from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from tournaments.services import match_append_event, match_create
from web import charts

from .checks import check_html
from .conftest import Club, CommittingClient

pytestmark = pytest.mark.django_db


def play_deal(club: Club, match: Match, a: int, b: int, key: str) -> None:
    """Enter a deal on the score-keeper's phone and confirm it from team 1's."""
    match.refresh_from_db()
    club.client("scorekeeper").post(
        f"/keep/{match.pk}/enter/",
        {"expected_seq": match.last_seq, "client_id": f"enter-{key}", "points_a": a,
         "points_b": b, "sweeps_a": 0, "sweeps_b": 0},
    )  # fmt: skip
    match.refresh_from_db()
    club.client(club.player_of(match, 1)).post(
        f"/keep/{match.pk}/answer/",
        {"expected_seq": match.last_seq, "client_id": f"confirm-{key}",
         "entry": match_state(match).entries[0].number, "action": "confirm"},
    )  # fmt: skip
    match.refresh_from_db()


def next_round(club: Club) -> Round:
    with TestCase.captureOnCommitCallbacks(execute=True):
        round_ = competition.round_pair(actor=club.users["director"], stage=club.stage)
        return competition.round_publish(actor=club.users["director"], round=round_)


def captions(text: str) -> list[str]:
    return [" ".join(c.split()) for c in re.findall(r"<caption>(.*?)</caption>", text, re.S)]


# --- 1. the standings say which rounds they hold ----------------------------------------


def test_the_standings_say_after_the_last_round_played_not_the_one_just_published(
    club: Club,
) -> None:
    slug = club.tournament.slug
    assert "Standings before the first result" in captions(
        club.client().get(f"/t/{slug}/").content.decode()
    )
    for n, match in enumerate(club.matches):
        play_deal(club, match, 70, 30, f"r1-{n}")
    assert Round.objects.get(pk=club.round.pk).status == Round.Status.COMPLETE
    second = next_round(club)
    for url in (f"/t/{slug}/", f"/t/{slug}/print/"):
        text = club.client().get(url).content.decode()
        assert "Standings after round 1" in captions(text), url  # round 2 is unplayed
        assert "after round 2" not in text, url
    wall = club.client().get(f"/t/{slug}/wall/").content.decode()  # the wall says the same
    assert "standings after round 1" in wall and "after round 2" not in wall
    first = Match.objects.filter(fixture__round=second).order_by("pk").first()
    assert first is not None
    play_deal(club, first, 70, 30, "r2-0")
    for url in (f"/t/{slug}/", f"/t/{slug}/print/"):
        text = club.client().get(url).content.decode()
        assert "Standings after round 1, with 1 of 2 results of round 2" in captions(text), url


# --- 3. the chart shows the lead a bazzi reached, then the reset ---------------------------


def test_the_chart_shows_a_bazzi_at_the_lead_it_reached_then_the_drop_to_zero(
    club: Club,
) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        match = match_create(
            tournament=club.tournament,
            team0=club.matches[0].team0,
            team1=club.matches[0].team1,
            mode="score",
            match_format={"bazzis": 1, "deal_cap": 3},
        )
        Match.objects.filter(pk=match.pk).update(confirmation="none")
        head = match_append_event(
            match=match, expected_seq=0, kind=matchlog.MATCH_STARTED,
            payload={"first_dealer": 0}, actor=SYSTEM,
        ).last_seq  # fmt: skip
        for points in ([80, 20], [80, 20]):  # +60, then +120: a bazzi, back to 0
            head = match_append_event(
                match=match, expected_seq=head, kind=matchlog.DEAL_ENDED,
                payload={"points": points, "sweeps": [[], []]}, actor=SYSTEM,
            ).last_seq  # fmt: skip
    text = club.client().get(f"/m/{match.pk}/").content.decode()
    check_html(text)
    line = re.search(r'<polyline points="([^"]+)" class="chart-line"', text)
    assert line is not None
    points = [tuple(float(v) for v in p.split(",")) for p in line.group(1).split()]
    top, zero = charts.PAD, charts.PAD + (charts.HEIGHT - 2 * charts.PAD) / 2
    # 0, +60, up to +120 (the top of the scale), then straight down to 0 at the same deal
    assert [y for _, y in points] == [zero, pytest.approx(zero - 76 * 60 / 120), top, zero]
    assert points[2][0] == points[3][0]
    marker = re.search(r'<g class="chart-bazzi">.*?<circle cx="[\d.]+" cy="([\d.]+)"', text)
    assert marker is not None and float(marker.group(1)) == top  # at the lead, not at 0
    assert "deal 2: +120, bazzi to" in text and "back to +0" in text
    assert "(L2)" not in text and "running lead reached" in text  # the reason in words


# --- 4. a finished match sheet stops saying "in progress" ---------------------------------


def test_the_match_sheets_live_part_carries_its_status_so_a_finished_match_says_so(
    club: Club,
) -> None:
    match = club.matches[0]
    before = club.client().get(f"/m/{match.pk}/live/").content.decode()
    assert "in progress" in before
    play_deal(club, match, 30, 70, "sheet")
    live = club.client().get(f"/m/{match.pk}/live/").content.decode()
    status = re.search(r"<p [^>]*data-match-status>(.*?)</p>", live, re.S)
    assert status is not None and "finished" in status.group(1)
    assert f"{match.team1.name} won" in live
    page = club.client().get(f"/m/{match.pk}/").content.decode()
    assert "in progress" not in page


# --- 5. a rejection with the team's own numbers; the director picks a version -------------


def _reject(club: Club, match: Match, **numbers: Any) -> Any:
    match.refresh_from_db()
    return club.client(club.player_of(match, 1)).post(
        f"/keep/{match.pk}/answer/",
        {"expected_seq": match.last_seq, "client_id": "reject-trial-1", "action": "reject",
         "entry": match_state(match).entries[0].number, "reason": "We had 40", **numbers},
        HTTP_ACCEPT="application/json",
    )  # fmt: skip


def test_a_rejection_carries_the_rejecting_teams_numbers_and_the_director_counts_them(
    club: Club,
) -> None:
    match = club.matches[0]
    match.refresh_from_db()
    club.client("scorekeeper").post(
        f"/keep/{match.pk}/enter/",
        {"expected_seq": match.last_seq, "client_id": "enter-trial-1", "points_a": 70,
         "points_b": 30, "sweeps_a": 1, "sweeps_b": 0},
    )  # fmt: skip
    refused = _reject(club, match, points_a=60, points_b=30)
    assert refused.status_code == 422 and "must add up to 100" in refused.json()["message"]
    assert not MatchEvent.objects.filter(match=match, kind="deal_rejected").exists()

    # the reject form offers the numbers, labelled, on the other team's phone
    phone = club.client(club.player_of(match, 1)).get(f"/keep/{match.pk}/").content.decode()
    check_html(phone)
    assert 'name="points_a"' in phone.split("Not right?")[1]

    assert _reject(club, match, points_a=60, points_b=40, sweeps_b=1).status_code == 200
    rejected = MatchEvent.objects.get(match=match, kind="deal_rejected")
    assert rejected.payload["points"] == [60, 40] and rejected.payload["sweeps"] == [[], [50]]
    phone = club.client(club.player_of(match, 0)).get(f"/keep/{match.pk}/status/").content
    assert "Their version: " in phone.decode()

    director = club.client("director")
    url = f"/desk/{club.tournament.slug}/matches/{match.pk}/"
    page = director.get(url).content.decode()
    check_html(page)
    # the decide form starts from the entered version
    assert re.search(r'name="decide-points_a"[^>]*value="70"', page)
    assert re.search(r'name="decide-sweeps_a"[^>]*value="1"', page)
    # and each version is one form, one tap: the entry and the rejecting team's
    versions = re.findall(r'<form [^>]*data-version="\d+">(.*?)</form>', page, re.S)
    assert len(versions) == 2
    fields = dict(re.findall(r'name="(decide-[\w]+)" value="([^"]*)"', versions[1]))
    assert "version" in versions[1] and fields["decide-points_a"] == "60"
    response = director.post(url + "decide/", fields)
    assert response.status_code == 302
    ended = MatchEvent.objects.get(match=match, kind="deal_ended")
    assert ended.payload["points"] == [60, 40] and ended.payload["sweeps"] == [[], [50]]


# --- 6, 7, 8: brackets in words with seeds and scores; the print page ---------------------

CODE = re.compile(r"\b[RWL]\d+-\d+\b|\b3P\b|\bGF\d\b|third_place|Third_place|\bSeat [0-3]\b")


def _cup(n: int, **settings: Any) -> tuple[CupClub, Stage]:
    cup = make_cup(n, slug=f"cup-{n}")
    type(cup.tournament).objects.filter(pk=cup.tournament.pk).update(published=True)
    return cup, cup.start(cup.stage(**settings))


def test_a_bracket_names_its_parts_and_slots_in_words_with_seeds_and_scores(db: None) -> None:
    cup, stage = _cup(4, format="single_elimination", third_place=True)
    url = f"/t/{cup.tournament.slug}/"
    client = CommittingClient()
    cup.publish(stage.round_set.order_by("number")[0])
    text = client.get(url).content.decode()
    check_html(text)
    assert not CODE.findall(text), CODE.findall(text)
    assert "winner of semi-final 1" in text and "loser of semi-final 2" in text
    assert "<h4>Third-place match</h4>" in text
    # seeds: 1 v 4 and 2 v 3 in the semi-finals
    assert re.findall(r'<span class="seed"><span class="visually-hidden">seed </span>(\d+)', text)[
        :4
    ] == ["1", "4", "2", "3"]
    cup.play_stage(stage, random.Random(5))
    text = client.get(url).content.decode()
    check_html(text)
    assert not CODE.findall(text), CODE.findall(text)
    shown = re.findall(r'<span class="slot-score">(\d+)<', text)
    results = MatchResult.objects.filter(match__fixture__stage=stage)
    assert len(shown) == 2 * results.count() == 8  # both teams' bazzis in each of 4 matches
    assert sorted(map(int, shown)) == sorted(b for r in results for b in (r.bazzis0, r.bazzis1))


def test_a_double_elimination_says_losers_round_not_its_code(db: None) -> None:
    cup, stage = _cup(4, format="double_elimination")
    cup.publish(stage.round_set.order_by("number")[0])
    text = CommittingClient().get(f"/t/{cup.tournament.slug}/").content.decode()
    assert not CODE.findall(text), CODE.findall(text)
    assert "Losers&#x27; bracket" in text or "Losers' bracket" in text
    assert "loser of winners&#x27; round 1, match 1" in text


def test_the_print_page_shows_a_knockout_as_its_bracket_never_a_points_table(db: None) -> None:
    cup, stage = _cup(4, format="single_elimination")
    cup.publish(stage.round_set.order_by("number")[0])
    url = f"/t/{cup.tournament.slug}/print/"
    text = CommittingClient().get(url).content.decode()
    check_html(text)
    assert 'class="standings"' not in text and "Matches being played" in text
    assert "The bracket, match by match" in text and "Semi-final 1" in text
    cup.play_stage(stage, random.Random(3))
    text = CommittingClient().get(url).content.decode()
    check_html(text)
    assert 'class="standings"' not in text
    assert "final results" in text and "Champion:" in text and " won, bazzis " in text


def test_the_print_page_shows_the_final_standings_once_the_tournament_ended(db: None) -> None:
    cup, stage = _cup(4, format="round_robin")
    cup.play_stage(stage, random.Random(4))
    stage.refresh_from_db()
    assert stage.status == Stage.Status.COMPLETE
    text = CommittingClient().get(f"/t/{cup.tournament.slug}/print/").content.decode()
    check_html(text)
    assert "final standings" in text and 'class="standings"' in text
    assert "Standings after round 3" in captions(text)
    for team in cup.teams:
        assert f'data-team="{team.name}"' in text


@pytest.mark.parametrize("fmt", ["single_elimination", "double_elimination"])
def test_the_wall_shows_a_brackets_parts_in_words(db: None, fmt: str) -> None:
    cup, stage = _cup(4, format=fmt, third_place=fmt == "single_elimination")
    cup.publish(stage.round_set.order_by("number")[0])
    client = CommittingClient()
    for path in (f"/t/{cup.tournament.slug}/wall/", f"/t/{cup.tournament.slug}/wall/live/"):
        page = client.get(path)
        assert page.status_code == 200, path
        text = page.content.decode()
        if not path.endswith("/live/"):  # the live part is a fragment of the page
            check_html(text)
        assert not CODE.findall(text), CODE.findall(text)
        assert f"{stage.name}: the bracket" in text
    if fmt == "double_elimination":
        assert "losers&#x27; bracket" in text or "losers' bracket" in text
