"""The director's desk: only the tournament's directors find it; teams, stages and rounds go
through the competition services, disputed deals are decided and corrections previewed
before they apply; refusals are messages, never a server error."""

from __future__ import annotations

from typing import Any

import pytest

from competition import services as competition
from competition.models import Fixture, Registration, Round, Stage
from scoring.models import MatchResult
from tournaments.models import Match, MatchEvent, Tournament
from tournaments.selectors import match_state

from .conftest import Club

pytestmark = pytest.mark.django_db


def desk_urls(club: Club) -> list[tuple[str, str, dict[str, Any]]]:
    slug, match, team = club.tournament.slug, club.matches[0], club.matches[0].team0
    return [
        ("get", f"/desk/{slug}/", {}),
        ("get", f"/desk/{slug}/rounds/{club.round.pk}/", {}),
        ("get", f"/desk/{slug}/matches/{match.pk}/", {}),
        ("post", f"/desk/{slug}/teams/", {}),
        ("post", f"/desk/{slug}/teams/act/", {"withdraw": team.pk, "confirmed": "yes"}),
        ("post", f"/desk/{slug}/stages/{club.stage.pk}/pair/", {}),
        ("post", f"/desk/{slug}/rounds/{club.round.pk}/publish/", {}),
        ("post", f"/desk/{slug}/matches/{match.pk}/decide/", {}),
        ("post", f"/desk/{slug}/matches/{match.pk}/correct/", {}),
        ("post", f"/desk/{slug}/teams/many/", {"many-lines": "X: Y & Z", "step": "register"}),
        ("get", f"/desk/{slug}/teams/{team.pk}/", {}),
        ("post", f"/desk/{slug}/teams/{team.pk}/", {"name": "Renamed"}),
        ("get", f"/desk/{slug}/stages/new/", {}),
        ("get", f"/desk/{slug}/stages/{club.stage.pk}/edit/", {}),
        ("post", f"/desk/{slug}/stages/{club.stage.pk}/remove/", {"confirmed": "yes"}),
        ("get", f"/desk/{slug}/stages/{club.stage.pk}/standings.csv", {}),
        ("post", f"/desk/{slug}/rounds/{club.round.pk}/discard/", {"confirmed": "yes"}),
        ("get", f"/desk/{slug}/rounds/{club.round.pk}/pairings.csv", {}),
    ]


@pytest.mark.parametrize("who", ["outsider", "scorekeeper", "north1"])
def test_only_the_tournaments_directors_find_the_desk(club: Club, who: str) -> None:
    client = club.client(who)
    for method, url, data in desk_urls(club):
        assert getattr(client, method)(url, data).status_code == 404, (who, url)
    assert Registration.objects.filter(withdrawn_at__isnull=False).count() == 0
    director = club.client("director")
    _, url, data = desk_urls(club)[4]
    assert director.post(url, data).status_code == 302  # the same request, from a director
    assert Registration.objects.filter(withdrawn_at__isnull=False).count() == 1


def test_a_director_of_another_tournament_finds_no_desk_here(
    club: Club, django_user_model: Any
) -> None:
    other = django_user_model.objects.create_user("elsewhere")
    Tournament.objects.create(name="Elsewhere", slug="elsewhere", organizer=other)
    club.users["elsewhere"] = other
    for method, url, data in desk_urls(club):
        assert getattr(club.client("elsewhere"), method)(url, data).status_code == 404, url


def test_a_director_of_another_tournament_reaches_nothing_here_through_their_own_desk(
    club: Club, django_user_model: Any
) -> None:
    """This tournament's ids under the other tournament's slug: every one a 404, no change."""
    other = django_user_model.objects.create_user("elsewhere")
    Tournament.objects.create(name="Elsewhere", slug="elsewhere", organizer=other)
    club.users["elsewhere"] = other
    before = (
        list(Registration.objects.values_list("team__name", "withdrawn_at")),
        list(Stage.objects.values_list("pk", "name")),
        list(Round.objects.values_list("pk", "status")),
    )
    slug = club.tournament.slug
    for method, url, data in desk_urls(club):
        if f"/desk/{slug}/" not in url or url.endswith(
            (f"/desk/{slug}/", "/stages/new/", "/teams/", "/teams/many/")
        ):
            continue  # nothing of this tournament's in it once under the other slug
        theirs = url.replace(f"/desk/{slug}/", "/desk/elsewhere/")
        answer = getattr(club.client("elsewhere"), method)(theirs, data)
        assert answer.status_code == 404, theirs
    after = (
        list(Registration.objects.values_list("team__name", "withdrawn_at")),
        list(Stage.objects.values_list("pk", "name")),
        list(Round.objects.values_list("pk", "status")),
    )
    assert after == before


def test_a_whole_evening_is_run_from_the_desk(club: Club) -> None:
    director = club.client("director")
    t = Tournament.objects.create(name="Friday", slug="friday", organizer=club.users["director"])
    for i, name in enumerate(["Ravens", "Owls", "Larks", "Wrens"]):
        response = director.post(
            "/desk/friday/teams/",
            {
                "name": name,
                "first_player": f"{name} A",
                "second_player": f"{name} B",
                "seed": i + 1,
                **({"checked_in": "on"} if i else {}),
            },
        )
        assert response.status_code == 302, response.content[:400]
    ravens = Registration.objects.get(team__name="Ravens")
    assert ravens.checked_in_at is None
    assert "Check in" in director.get("/desk/friday/").content.decode()
    director.post("/desk/friday/teams/act/", {"check_in": ravens.team_id})
    ravens.refresh_from_db()
    assert ravens.checked_in_at is not None
    stage = competition.stage_create(
        actor=club.users["director"],
        tournament=t,
        name="League",
        format="round_robin",
        mode="score",
        match_format={"bazzis": 1},
    )
    assert director.post(f"/desk/friday/stages/{stage.pk}/start/").status_code == 302
    stage.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING
    paired = director.post(f"/desk/friday/stages/{stage.pk}/pair/")
    round_ = Round.objects.get(stage=stage)
    assert paired["Location"] == f"/desk/friday/rounds/{round_.pk}/"
    assert round_.status == Round.Status.DRAFT
    assert "Publish round 1" in director.get(paired["Location"]).content.decode()
    before = list(
        Fixture.objects.filter(round=round_).order_by("table").values_list("team_a", "team_b")
    )
    swapped = director.post(
        f"/desk/friday/rounds/{round_.pk}/edit/", {"swap": "tables", "table_x": 1, "table_y": 2}
    )
    assert swapped.status_code == 302
    after = list(
        Fixture.objects.filter(round=round_).order_by("table").values_list("team_a", "team_b")
    )
    assert after == before[::-1]
    published = director.post(f"/desk/friday/rounds/{round_.pk}/publish/")
    assert published.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    assert Match.objects.filter(fixture__round=round_).count() == 2
    again = director.post(f"/desk/friday/rounds/{round_.pk}/publish/", follow=True)
    assert "The round is published already." in again.content.decode()


def test_bad_desk_input_is_a_message_and_loses_nothing(club: Club) -> None:
    director = club.client("director")
    slug = club.tournament.slug
    response = director.post(
        f"/desk/{slug}/teams/", {"name": "North", "first_player": "Zed", "second_player": "Zed"}
    )
    assert response.status_code == 422
    text = response.content.decode()
    assert "A team is two different players." in text and 'value="North"' in text
    assert f"/desk/{slug}/rounds/{club.round.pk}/" in text  # the whole desk, its rounds too
    response = director.post(
        f"/desk/{slug}/teams/", {"name": "North", "first_player": "Y", "second_player": "Z"}
    )
    assert response.status_code == 422  # the name is taken: the service says so
    assert "North" in response.content.decode()
    response = director.post(f"/desk/{slug}/rounds/{club.round.pk}/edit/", {"swap": "teams"})
    assert response.status_code == 422
    response = director.post(
        f"/desk/{slug}/rounds/{club.round.pk}/edit/",
        {"swap": "tables", "table_x": 1, "table_y": 2},
        follow=True,
    )
    assert "Only a draft round can be edited." in response.content.decode()


@pytest.mark.parametrize("number", ["²", "٣", "1" * 5000])  # isdigit() says yes to each
def test_a_team_button_that_is_no_id_changes_nothing(club: Club, number: str) -> None:
    director = club.client("director")
    before = list(Registration.objects.values_list("pk", "withdrawn_at", "checked_in_at"))
    response = director.post(
        f"/desk/{club.tournament.slug}/teams/act/", {"withdraw": number}, follow=True
    )
    assert response.status_code == 200
    assert "Nothing was changed" in response.content.decode()
    after = list(Registration.objects.values_list("pk", "withdrawn_at", "checked_in_at"))
    assert after == before


@pytest.mark.parametrize("seed", [str(2**31), "9" * 20])
def test_a_seed_no_column_holds_is_a_message_and_loses_nothing(club: Club, seed: str) -> None:
    teams = Registration.objects.filter(tournament=club.tournament).count()
    response = club.client("director").post(
        f"/desk/{club.tournament.slug}/teams/",
        {"name": "Big", "first_player": "A", "second_player": "B", "seed": seed},
    )
    assert response.status_code == 422
    assert Registration.objects.filter(tournament=club.tournament).count() == teams


def _disputed(club: Club) -> Match:
    match = club.matches[0]
    keeper = club.client("scorekeeper")
    keeper.post(
        f"/keep/{match.pk}/enter/",
        {
            "expected_seq": match.last_seq,
            "client_id": "enter-desk-1",
            "points_a": 60,
            "points_b": 40,
            "sweeps_a": 0,
            "sweeps_b": 0,
        },
    )
    match.refresh_from_db()
    club.client(club.player_of(match, 1)).post(
        f"/keep/{match.pk}/answer/",
        {
            "expected_seq": match.last_seq,
            "client_id": "reject-desk-1",
            "entry": 1,
            "action": "reject",
            "reason": "We had 45",
        },
    )
    match.refresh_from_db()
    assert match_state(match).disputed
    return match


def test_a_director_decides_a_disputed_deal(club: Club) -> None:
    match = _disputed(club)
    director = club.client("director")
    url = f"/desk/{club.tournament.slug}/matches/{match.pk}/"
    page = director.get(url).content.decode()
    assert "Disputed" in page and "We had 45" in page
    response = director.post(
        url + "decide/",
        {
            "decide-expected_seq": match.last_seq,
            "decide-client_id": "decide-0001",
            "decide-points_a": 55,
            "decide-points_b": 45,
            "decide-sweeps_a": 0,
            "decide-sweeps_b": 0,
        },
    )
    assert response.status_code == 302
    ended = MatchEvent.objects.get(match=match, kind="deal_ended")
    assert ended.payload["points"] == [55, 45] and ended.actor == club.users["director"]
    assert (
        "No rejected or disputed deal"
        in director.get(f"/desk/{club.tournament.slug}/").content.decode()
    )


def _finished(club: Club) -> Match:
    match = club.matches[0]
    match.refresh_from_db()
    club.client("scorekeeper").post(
        f"/keep/{match.pk}/enter/",
        {
            "expected_seq": match.last_seq,
            "client_id": "enter-desk-2",
            "points_a": 60,
            "points_b": 40,
            "sweeps_a": 0,
            "sweeps_b": 0,
        },
    )
    match.refresh_from_db()
    club.client(club.player_of(match, 1)).post(
        f"/keep/{match.pk}/answer/",
        {
            "expected_seq": match.last_seq,
            "client_id": "confirm-desk-2",
            "entry": 1,
            "action": "confirm",
        },
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_a_correction_is_previewed_changing_nothing_then_applied(club: Club) -> None:
    match = _finished(club)
    director = club.client("director")
    url = f"/desk/{club.tournament.slug}/matches/{match.pk}/correct/"
    data = {
        "fix-kind": "deal_corrected",
        "fix-deal": 1,
        "fix-points_a": 30,
        "fix-points_b": 70,
        "fix-sweeps_a": "",
        "fix-sweeps_b": "",
        "fix-reason": "scores swapped",
        "fix-expected_seq": match.last_seq,
        "fix-client_id": "correct-0001",
    }
    seq = match.last_seq
    preview = director.post(url, {**data, "fix-step": "preview", "step": "preview"})
    assert preview.status_code == 200
    text = " ".join(preview.content.decode().split())
    assert "What this correction changes" in text
    assert "The match's result" in text and "Standings that change" in text
    match.refresh_from_db()
    assert match.last_seq == seq  # the preview wrote nothing
    assert MatchResult.objects.get(match=match).winner == 0
    applied = director.post(url, {**data, "step": "apply"})
    assert applied.status_code == 302
    corrected = MatchEvent.objects.get(match=match, kind="deal_corrected")
    assert corrected.payload["reason"] == "scores swapped"
    assert MatchResult.objects.get(match=match).winner == 1


def test_a_correction_without_a_reason_changes_nothing(club: Club) -> None:
    match = _finished(club)
    url = f"/desk/{club.tournament.slug}/matches/{match.pk}/correct/"
    response = club.client("director").post(
        url,
        {
            "fix-kind": "deal_voided",
            "fix-deal": 1,
            "fix-expected_seq": match.last_seq,
            "fix-client_id": "correct-0002",
            "step": "apply",
        },
    )
    assert response.status_code == 422
    assert "Nothing was changed" in response.content.decode()
    assert not MatchEvent.objects.filter(match=match, kind="deal_voided").exists()


@pytest.mark.parametrize("sweeps", ["²", "50;²", "1" * 100])
def test_sweeps_that_are_no_numbers_are_a_message_and_change_nothing(
    club: Club, sweeps: str
) -> None:
    match = _finished(club)
    seq = match.last_seq
    response = club.client("director").post(
        f"/desk/{club.tournament.slug}/matches/{match.pk}/correct/",
        {
            "fix-kind": "deal_corrected",
            "fix-deal": 1,
            "fix-points_a": 50,
            "fix-points_b": 50,
            "fix-sweeps_a": sweeps,
            "fix-sweeps_b": "",
            "fix-reason": "a sweep was missed",
            "fix-expected_seq": seq,
            "fix-client_id": "correct-0003",
            "step": "apply",
        },
    )
    assert response.status_code == 422
    assert "Sweeps are whole numbers" in response.content.decode()
    match.refresh_from_db()
    assert match.last_seq == seq
