"""Teams at the tables without accounts: each team's private link, opened on a phone, enters
and answers its results (the two-person rule as for accounts), is printed on cards, and stops
when the director reissues it or the tournament ends."""

from __future__ import annotations

import html
import re
import uuid
from typing import Any

import pytest

from competition.models import Round, Stage
from tournaments.models import Match, MatchEvent, Team, TeamLink, Tournament
from tournaments.verify import verify_match

from .checks import check_html
from .conftest import CommittingClient
from .test_desk_evening import TEN, make_evening, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(django_user_model: Any) -> CommittingClient:
    client = CommittingClient()
    client.force_login(django_user_model.objects.create_user("meera"))
    return client


def published_evening(
    desk: CommittingClient, confirmation: str = "other_team"
) -> tuple[Tournament, Round]:
    t = make_evening(desk, confirmation=confirmation)
    register(desk, t, TEN)
    swiss = Stage.objects.filter(tournament=t).order_by("order", "pk").first()
    assert swiss is not None
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/pair/")
    round_ = Round.objects.get(stage=swiss)
    desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/publish/")
    return t, round_


def link_of(desk: CommittingClient, t: Tournament, team: Team) -> str:
    page = desk.get(f"/desk/{t.slug}/teams/{team.pk}/link/")
    assert page.status_code == 200
    assert page["Cache-Control"] == "private, no-store"
    found = re.search(r"https?://[^/\s<]+(/l/[A-Za-z0-9_-]{43}/)", page.content.decode())
    assert found is not None
    return found.group(1)


def phone(path: str) -> CommittingClient:
    """A phone with no account that opened a team's link."""
    client = CommittingClient()
    opened = client.get(path)
    assert opened.status_code == 302 and opened["Location"] == "/keep/"
    assert opened["Cache-Control"] == "private, no-store"
    return client


def command(match: Match, **fields: Any) -> dict[str, Any]:
    match.refresh_from_db()
    return {"expected_seq": match.last_seq, "client_id": uuid.uuid4().hex, **fields}


def enter(client: CommittingClient, match: Match, a: int) -> Any:
    return client.post(
        f"/keep/{match.pk}/enter/",
        command(match, points_a=a, points_b=100 - a, sweeps_a=0, sweeps_b=0),
    )


def entry_number(match: Match) -> int:
    last = MatchEvent.objects.filter(match=match, kind="deal_entered").order_by("-seq").first()
    assert last is not None
    return len(
        MatchEvent.objects.filter(
            match=match, kind="deal_entered", payload__deal=last.payload["deal"]
        )
    )


def test_two_teams_links_enter_and_confirm_a_deal_with_no_account(desk: CommittingClient) -> None:
    t, _ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    tigers = phone(link_of(desk, t, match.team0))
    lotus = phone(link_of(desk, t, match.team1))

    index = tigers.get("/keep/").content.decode()
    assert f"you act for <strong>{match.team0.name}</strong>" in index
    assert f"/keep/{match.pk}/" in index
    page = tigers.get(f"/keep/{match.pk}/")
    assert page.status_code == 200
    check_html(page.content.decode())

    assert enter(tigers, match, 60).status_code == 302
    entered = MatchEvent.objects.get(match=match, kind="deal_entered")
    assert entered.actor_id is None and entered.via.startswith("team-link:0:")
    assert entered.payload["side"] == 0
    # the same link, and the same team, never confirm their own entry
    own = tigers.post(f"/keep/{match.pk}/answer/", command(match, action="confirm", entry=1))
    assert own.status_code == 403
    assert "other team" in own.content.decode()
    assert not MatchEvent.objects.filter(match=match, kind="deal_ended").exists()

    answered = lotus.post(f"/keep/{match.pk}/answer/", command(match, action="confirm", entry=1))
    assert answered.status_code == 302
    confirmed = MatchEvent.objects.get(match=match, kind="deal_confirmed")
    assert confirmed.via.startswith("team-link:1:")
    ended = MatchEvent.objects.get(match=match, kind="deal_ended")
    assert ended.payload["points"] == [60, 40]
    match.refresh_from_db()
    assert verify_match(match) == []  # a replay knows each author by its link's side
    # each phone reads who confirmed from its own side
    status = html.unescape(lotus.get(f"/keep/{match.pk}/status/").content.decode())
    assert f"confirmed by your team ({match.team1.name})" in status
    status = html.unescape(tigers.get(f"/keep/{match.pk}/status/").content.decode())
    assert f"confirmed by {match.team1.name} at" in status
    assert "'s link" not in status


def test_a_link_acts_in_its_teams_matches_only(
    desk: CommittingClient, django_user_model: Any
) -> None:
    t, _ = published_evening(desk)
    first, other = list(Match.objects.filter(tournament=t).order_by("pk"))[:2]
    tigers = phone(link_of(desk, t, first.team0))
    assert tigers.get(f"/keep/{other.pk}/").status_code == 404
    assert enter(tigers, other, 55).status_code == 404
    assert not MatchEvent.objects.filter(match=other, kind="deal_entered").exists()
    # nor the desk, the director's pages, nor another tournament's matches
    assert tigers.get(f"/desk/{t.slug}/").status_code in (302, 404)
    elsewhere = CommittingClient()
    elsewhere.force_login(django_user_model.objects.create_user("rival"))
    t2 = make_evening(elsewhere, name="Saturday", confirmation="other_team")
    register(elsewhere, t2, TEN)
    swiss = Stage.objects.filter(tournament=t2).order_by("order", "pk").first()
    assert swiss is not None
    elsewhere.post(f"/desk/{t2.slug}/stages/{swiss.pk}/start/")
    elsewhere.post(f"/desk/{t2.slug}/stages/{swiss.pk}/pair/")
    elsewhere.post(f"/desk/{t2.slug}/rounds/{Round.objects.get(stage=swiss).pk}/publish/")
    theirs = Match.objects.filter(tournament=t2).first()
    assert theirs is not None
    assert tigers.get(f"/keep/{theirs.pk}/").status_code == 404


def test_a_reissued_link_is_refused_in_words_and_records_nothing(desk: CommittingClient) -> None:
    t, _ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    old = link_of(desk, t, match.team0)
    assert link_of(desk, t, match.team0) == old  # printed again: the same card
    tigers = phone(old)

    asked = desk.post(f"/desk/{t.slug}/teams/{match.team0_id}/link/reissue/")
    assert asked.status_code == 200 and "stops at once" in asked.content.decode()
    assert link_of(desk, t, match.team0) == old  # asked, not done
    desk.post(f"/desk/{t.slug}/teams/{match.team0_id}/link/reissue/", {"confirmed": "yes"})
    new = link_of(desk, t, match.team0)
    assert new != old

    refused = enter(tigers, match, 70)
    assert refused.status_code == 403
    assert "no longer works" in refused.content.decode()
    assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()
    again = CommittingClient().get(old)
    assert again.status_code == 403 and "no longer works" in again.content.decode()
    assert CommittingClient().get("/l/" + "x" * 43 + "/").status_code == 404
    phone(new)  # the new card works


def test_links_of_a_tournament_that_is_over_show_it_and_enter_nothing(
    desk: CommittingClient,
) -> None:
    t, _ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    path = link_of(desk, t, match.team0)
    tigers = phone(path)
    Stage.objects.filter(tournament=t).update(status=Stage.Status.COMPLETE)
    refused = enter(tigers, match, 65)
    assert refused.status_code == 409
    assert "The tournament is over: nothing more can be entered." in refused.content.decode()
    assert "Nothing was recorded" not in refused.content.decode()
    # the card still opens: the team's page says how it ended, never that the link is dead
    late = CommittingClient()
    assert late.get(path).status_code == 302
    page = late.get(f"/keep/{match.pk}/")
    assert page.status_code == 200 and "no longer works" not in page.content.decode()
    assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()


def test_the_key_is_never_stored_and_only_directors_hand_links_out(
    desk: CommittingClient, django_user_model: Any
) -> None:
    t, round_ = published_evening(desk)
    team = Team.objects.filter(tournament=t).first()
    assert team is not None
    key = link_of(desk, t, team).split("/")[2]
    stored = TeamLink.objects.values_list("nonce", "key_hash").get(team=team)
    assert key not in stored
    stranger = CommittingClient()
    stranger.force_login(django_user_model.objects.create_user("stranger"))
    for path in (
        f"/desk/{t.slug}/teams/{team.pk}/link/",
        f"/desk/{t.slug}/cards/",
        f"/desk/{t.slug}/rounds/{round_.pk}/cards/",
    ):
        assert stranger.get(path).status_code == 404
    assert (
        stranger.post(
            f"/desk/{t.slug}/teams/{team.pk}/link/reissue/", {"confirmed": "yes"}
        ).status_code
        == 404
    )


def test_the_cards_of_a_round_carry_each_tables_teams_and_their_links(
    desk: CommittingClient,
) -> None:
    t, round_ = published_evening(desk)
    page = desk.get(f"/desk/{t.slug}/rounds/{round_.pk}/cards/")
    assert page.status_code == 200 and page["Cache-Control"] == "private, no-store"
    html = page.content.decode()
    check_html(html)
    assert html.count('class="team-card"') == 10
    assert html.count("data-table-card") == 5  # and a table card a table (its own test file)
    assert html.count('<svg viewBox="') == 15  # a QR code a team and a table, drawn here
    for fixture in round_.fixtures.select_related("team_a", "team_b"):
        assert f"Table {fixture.table}" in html
    keys = set(re.findall(r"/l/([A-Za-z0-9_-]{43})/", html))
    assert len(keys) == 10
    every = desk.get(f"/desk/{t.slug}/cards/").content.decode()
    assert set(re.findall(r"/l/([A-Za-z0-9_-]{43})/", every)) == keys


def test_a_phone_that_signs_in_later_keeps_acting_for_its_team(
    desk: CommittingClient, django_user_model: Any
) -> None:
    from .conftest import with_password

    t, _ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    tigers = phone(link_of(desk, t, match.team0))
    with_password(django_user_model.objects.create_user("ravi"), "a long pass phrase")
    signed = tigers.post("/login/", {"username": "ravi", "password": "a long pass phrase"})
    assert signed.status_code == 302
    index = tigers.get("/keep/").content.decode()
    assert f"/keep/{match.pk}/" in index and "Sign out ravi" in index
    assert enter(tigers, match, 52).status_code == 302
    entered = MatchEvent.objects.get(match=match, kind="deal_entered")
    assert entered.via.startswith("team-link:0:") and entered.actor_id is None


def test_a_link_holders_page_polls_with_its_own_version(desk: CommittingClient) -> None:
    t, _ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    tigers = phone(link_of(desk, t, match.team0))
    page = tigers.get(f"/keep/{match.pk}/").content.decode()
    found = re.search(r'data-etag="([^"]+)"', page)
    assert found is not None
    etag = html.unescape(found.group(1))
    assert "None" not in etag and "-l" in etag
    polled = tigers.get(f"/keep/{match.pk}/status/", HTTP_IF_NONE_MATCH=etag)
    assert polled.status_code == 304  # nothing new: the page's own version
    assert enter(tigers, match, 58).status_code == 302
    assert tigers.get(f"/keep/{match.pk}/status/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_a_link_holders_pages_are_kept_by_no_cache(desk: CommittingClient) -> None:
    t, _ = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    tigers = phone(link_of(desk, t, match.team0))
    for path in ("/keep/", f"/keep/{match.pk}/", f"/keep/{match.pk}/status/"):
        assert tigers.get(path)["Cache-Control"] == "private, no-store", path
