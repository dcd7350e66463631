"""What a rated member asks for: each match's rating before and after with the result the
model expected, provisional until settled, partnerships' own ratings, and a rating kept from
the club's public page and API."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from openskill.models import ThurstoneMostellerFull
from rest_framework.test import APIClient

from seasons import rating, selectors
from seasons.models import ClubSeasons, PartnershipRating
from seasons.services import update_club_ratings
from tournaments import matchlog
from tournaments.models import Match, MatchEvent

from .conftest import ClubWorld, ratings_of

pytestmark = pytest.mark.django_db


def api(user: object = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)  # type: ignore[arg-type]
    return client


def page(user: object = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)  # type: ignore[arg-type]
    return client


def _from_the_log(matches: list[tuple[Match, int]]) -> dict[int, dict[str, Any]]:
    """Recompute, from each match's log (its seats and when it ended) and its winner, what
    every match of one evening did to its members, with openskill itself: newcomers, no
    drift within an evening."""
    model = ThurstoneMostellerFull(mu=25.0, sigma=25.0 / 3.0, limit_sigma=True)
    ratings: dict[int, Any] = {}
    out: dict[int, dict[str, Any]] = {}
    ordered = []
    for match, winner in matches:
        events = MatchEvent.objects.filter(match=match)
        seats = events.get(kind=matchlog.MATCH_STARTED).payload["players"]
        ended = events.filter(kind=matchlog.MATCH_ENDED).order_by("seq").first()
        assert ended is not None
        ordered.append((ended.recorded_at, match.pk, seats, winner))
    for _at, match_id, seats, winner in sorted(ordered):
        teams = [[seats[0], seats[2]], [seats[1], seats[3]]]
        before = [[ratings.get(p, model.rating()) for p in team] for team in teams]
        chance = model.predict_win(before)
        after = model.rate(before, ranks=[0.0 if winner == t else 1.0 for t in (0, 1)])
        for t, team in enumerate(teams):
            for i, p in enumerate(team):
                out.setdefault(p, {})[match_id] = {
                    "before": (before[t][i].mu, before[t][i].sigma),
                    "after": (after[t][i].mu, after[t][i].sigma),
                    "expected": chance[t],
                }
                ratings[p] = after[t][i]
    return out


def test_a_members_evening_is_told_match_by_match_as_the_log_recomputes_it(
    club_world: ClubWorld,
) -> None:
    evening = club_world.evening()
    played = [
        (club_world.play(evening, (0, 1, 2, 3), winner=0), 0),
        (club_world.play(evening, (0, 1, 4, 5), winner=1), 1),
        (club_world.play(evening, (4, 5, 2, 3), winner=1), 1),
        (club_world.play(evening, (6, 7, 0, 1), winner=0), 0),
    ]
    a = club_world.members[0]
    body = api(club_world.director).get(f"/api/v1/members/{a.pk}/rating/").json()
    (told,) = body["story"]
    assert told["tournament"] == evening.pk and len(told["matches"]) == 3
    assert all(m["match"] != played[2][0].pk for m in told["matches"])
    expected = _from_the_log(played)[a.pk]
    for line in told["matches"]:
        mine = expected[line["match"]]
        assert (line["before"]["mu"], line["before"]["sigma"]) == pytest.approx(mine["before"])
        assert (line["after"]["mu"], line["after"]["sigma"]) == pytest.approx(mine["after"])
        assert line["expected"] == pytest.approx(mine["expected"])
        conservative = [m - 3 * s for m, s in (mine["before"], mine["after"])]
        assert line["moved"] == pytest.approx(conservative[1] - conservative[0])
    assert [m["actual"] for m in told["matches"]] == [1.0, 0.0, 0.0]
    assert told["actual"] == 1.0
    assert told["expected"] == pytest.approx(sum(m["expected"] for m in told["matches"]))
    assert told["before"] == told["matches"][0]["before"]
    assert told["after"] == told["matches"][-1]["after"]
    # the partner and the opponents, with their ratings before the match (E and F had
    # played C and D in between)
    last = told["matches"][2]
    assert last["partner"]["member"]["name"] == "Member B"
    assert [o["member"]["name"] for o in last["opponents"]] == ["Member G", "Member H"]
    recomputed = _from_the_log(played)
    b = club_world.members[1].pk
    assert (last["partner"]["rating"]["mu"], last["partner"]["rating"]["sigma"]) == (
        pytest.approx(recomputed[b][last["match"]]["before"])
    )
    fourth = told["matches"][1]
    e = club_world.members[4].pk
    assert fourth["opponents"][0]["rating"]["mu"] == pytest.approx(
        recomputed[e][fourth["match"]]["before"][0]
    )


def test_a_rating_is_provisional_until_the_settled_count_then_settled(
    club_world: ClubWorld,
) -> None:
    a = club_world.members[0]
    evening = club_world.evening()
    for n in range(1, rating.SETTLED_AFTER + 1):
        club_world.play(evening, (0, 1, 2, 3), winner=n % 2)
        body = api(club_world.director).get(f"/api/v1/members/{a.pk}/rating/").json()
        assert body["rating"]["matches"] == n
        assert body["rating"]["provisional"] is (n < rating.SETTLED_AFTER)
    assert body["settled_after"] == rating.SETTLED_AFTER
    last = body["story"][0]["matches"][-1]
    assert last["before"]["provisional"] and not last["after"]["provisional"]
    assert (
        "Settled"
        in page(club_world.director).get(f"/c/{club_world.club.slug}/m/{a.pk}/").content.decode()
    )


def test_a_partnership_is_rated_after_enough_matches_together_and_rebuilds_alike(
    club_world: ClubWorld,
) -> None:
    a, b = club_world.members[0], club_world.members[1]
    evening = club_world.evening()
    url = f"/api/v1/members/{a.pk}/rating/"
    for n in range(rating.PARTNERSHIP_AFTER):
        assert api(club_world.director).get(url).json()["partnerships"] == []
        club_world.play(evening, (0, 1, *((2, 3) if n % 2 else (4, 5))), winner=n % 2)
    apart = club_world.evening()
    club_world.play(apart, (0, 2, 1, 3), winner=0)  # not together: moves no pair of theirs
    pairs = api(club_world.director).get(f"/api/v1/members/{a.pk}/rating/").json()["partnerships"]
    assert [p["member"]["name"] for p in pairs] == ["Member B"]
    assert pairs[0]["rating"]["matches"] == rating.PARTNERSHIP_AFTER
    row = PartnershipRating.objects.get(first=a, second=b)
    # the pair's rating is the pure fold of the games they played, one pair against the other
    stored = list(PartnershipRating.objects.order_by("first", "second").values_list())
    incremental = ratings_of(club_world.club)
    update_club_ratings(club_id=club_world.club.pk, rebuild=True)
    assert list(PartnershipRating.objects.order_by("first", "second").values_list()) != []
    assert [r[1:] for r in stored] == [
        r[1:] for r in PartnershipRating.objects.order_by("first", "second").values_list()
    ]
    assert ratings_of(club_world.club) == incremental
    assert (row.mu, row.sigma) != (rating.MU, rating.SIGMA)


def test_a_hidden_rating_is_kept_from_the_public_and_shown_to_directors(
    club_world: ClubWorld,
) -> None:
    club = club_world.club
    evening = club_world.evening()
    club_world.play(evening, (0, 1, 2, 3), winner=0)
    ClubSeasons.objects.create(club=club, public=True)
    a, b = club_world.members[0], club_world.members[1]
    account = get_user_model().objects.create_user("member-a")
    a.user = account
    a.save()
    # the member hides it themself; another member may not
    other = get_user_model().objects.create_user("member-b")
    b.user = other
    b.save()
    refused = api(other).patch(f"/api/v1/members/{a.pk}/rating/privacy/", {"hidden": True})
    assert refused.status_code == 403
    bad = api(account).patch(f"/api/v1/members/{a.pk}/rating/privacy/", {"hidden": "maybe"})
    assert bad.status_code == 400 and bad["Content-Type"].startswith("application/problem+json")
    done = api(account).patch(
        f"/api/v1/members/{a.pk}/rating/privacy/", {"hidden": True}, format="json"
    )
    assert done.status_code == 200 and done.json() == {"hidden": True}

    ratings_url = f"/api/v1/clubs/{club.pk}/ratings/"
    public_names = [r["member"]["name"] for r in api().get(ratings_url).json()["results"]]
    assert "Member A" not in public_names and "Member B" in public_names
    body = api().get(f"/api/v1/members/{a.pk}/rating/").json()
    assert body["rating"] is None and body["rating_hidden"] is True
    assert body["story"] == [] and body["history"] == []
    # on the partner's own story, A's figures are null too
    partner = api().get(f"/api/v1/members/{b.pk}/rating/").json()
    assert partner["story"][0]["matches"][0]["partner"]["rating"] is None
    assert partner["story"][0]["matches"][0]["opponents"][0]["rating"] is not None
    # nor the chance to win: with the three other ratings shown it would give A's away
    assert partner["story"][0]["matches"][0]["expected"] is None
    assert partner["story"][0]["expected"] is None
    partner_page = page().get(f"/c/{club.slug}/m/{b.pk}/").content.decode()
    assert "Chance to win" not in partner_page
    # the public ranks are counted without A: no gap tells where A stands
    shown = api().get(ratings_url).json()["results"]
    figures = [r["rating"]["conservative"] for r in shown]
    assert [r["rank"] for r in shown] == [1 + sum(f > mine for f in figures) for mine in figures]
    public_page = page().get(f"/c/{club.slug}/m/{a.pk}/").content.decode()
    assert "keeps their rating private" in public_page and "Rating <strong>" not in public_page

    for viewer in (club_world.director, account):
        assert api(viewer).get(f"/api/v1/members/{a.pk}/rating/").json()["rating"] is not None
        seen = page(viewer).get(f"/c/{club.slug}/m/{a.pk}/").content.decode()
        assert "Rating <strong>" in seen
    director_names = [
        r["member"]["name"] for r in api(club_world.director).get(ratings_url).json()["results"]
    ]
    assert "Member A" in director_names
    # a director sets it back
    back = api(club_world.director).patch(
        f"/api/v1/members/{a.pk}/rating/privacy/", {"hidden": False}, format="json"
    )
    assert back.status_code == 200
    assert api().get(f"/api/v1/members/{a.pk}/rating/").json()["rating"] is not None


def test_a_corrections_preview_shows_the_ratings_and_ladder_it_would_change(
    club_world: ClubWorld,
) -> None:
    from datetime import date

    from competition.corrections import preview_correction
    from seasons.models import MemberRating, Season

    from .conftest import WIN

    evening = club_world.evening()
    Season.objects.create(
        club=club_world.club, name="Winter", starts_on=date(2026, 1, 1),
        ends_on=date(2026, 3, 31), rule=Season.Rule.WINS, points=[3],
    )  # fmt: skip
    first = club_world.play(evening, (0, 1, 2, 3), winner=0)
    second = club_world.play(evening, (0, 1, 4, 5), winner=1)
    before = ratings_of(club_world.club)
    first.refresh_from_db()
    preview = preview_correction(
        actor=club_world.director, match=first, kind="deal_corrected",
        payload={"deal": 1, **WIN[1], "reason": "columns swapped"},
    )  # fmt: skip
    assert ratings_of(club_world.club) == before  # nothing written
    lines = {line["name"]: line for line in preview.as_dict()["ratings"]}
    # A and B played both matches, C and D the first, E and F the second: all six move
    assert set(lines) == {f"Member {x}" for x in "ABCDEF"}
    stored = {r.player.name: r for r in MemberRating.objects.select_related("player")}
    assert lines["Member A"]["before"]["mu"] == pytest.approx(stored["Member A"].mu, abs=1e-3)
    # after: the pure fold of the two games with the first one's winner corrected
    t = [
        MatchEvent.objects.filter(match=m, kind=matchlog.MATCH_ENDED).earliest("seq")
        for m in (first, second)
    ]
    ids = [m.pk for m in club_world.members]
    ab, cd, ef = (ids[0], ids[1]), (ids[2], ids[3]), (ids[4], ids[5])
    games = [
        rating.Game(first.pk, evening.date, t[0].recorded_at, (ab, cd), winner=1),
        rating.Game(second.pk, evening.date, t[1].recorded_at, (ab, ef), winner=1),
    ]
    after, _ = rating.fold(games)
    for n, name in enumerate("ABCDEF"):
        line = lines[f"Member {name}"]["after"]
        assert (line["mu"], line["sigma"]) == pytest.approx(
            (after[ids[n]].mu, after[ids[n]].sigma), abs=1e-3
        )
    ladder = {line["name"]: line for line in preview.as_dict()["ladder"]}
    # A and B: their one win (the first match) is gone; C and D win it
    assert ladder["Member A"]["before"]["points"] == 3
    assert ladder["Member A"]["after"]["points"] == 0
    assert ladder["Member C"]["after"]["points"] == 3
    assert "Member E" not in ladder


def test_the_desks_correction_preview_lists_the_ratings_that_change(
    club_world: ClubWorld,
) -> None:
    evening = club_world.evening()
    first = club_world.play(evening, (0, 1, 2, 3), winner=0)
    first.refresh_from_db()
    before = ratings_of(club_world.club)
    url = f"/desk/{evening.slug}/matches/{first.pk}/correct/"
    data = {
        "fix-kind": "deal_corrected", "fix-deal": 1, "fix-points_a": 9, "fix-points_b": 91,
        "fix-sweeps_a": "", "fix-sweeps_b": "50", "fix-reason": "columns swapped",
        "fix-expected_seq": first.last_seq, "fix-client_id": "correct-0001",
        "fix-step": "preview", "step": "preview",
    }  # fmt: skip
    answer = page(club_world.director).post(url, data)
    assert answer.status_code == 200
    text = " ".join(answer.content.decode().split())
    assert "Ratings that change" in text
    table = text[text.index("Ratings that change") :]
    assert all(f"Member {x}" in table for x in "ABCD")
    assert ratings_of(club_world.club) == before


def test_an_erasure_leaves_every_rating_and_partnership_as_it_was(club_world: ClubWorld) -> None:
    from seasons.privacy import erase_member

    evening = club_world.evening()
    for n in range(rating.PARTNERSHIP_AFTER):
        club_world.play(evening, (0, 1, *((2, 3) if n % 2 else (4, 5))), winner=n % 2)

    def pairs() -> list[tuple[Any, ...]]:
        rows = PartnershipRating.objects.order_by("first", "second")
        return list(rows.values_list("first", "second", "mu", "sigma", "matches"))

    before, pairs_before = ratings_of(club_world.club), pairs()
    erase_member(actor=club_world.director, member=club_world.members[0])
    assert (ratings_of(club_world.club), pairs()) == (before, pairs_before)
    update_club_ratings(club_id=club_world.club.pk, rebuild=True)
    assert (ratings_of(club_world.club), pairs()) == (before, pairs_before)
    b = club_world.members[1]
    body = api(club_world.director).get(f"/api/v1/members/{b.pk}/rating/").json()
    assert body["partnerships"][0]["member"]["name"].startswith("Erased member")


def test_a_member_hides_their_rating_from_their_own_page_and_nobody_else_may(
    club_world: ClubWorld,
) -> None:
    club = club_world.club
    club_world.play(club_world.evening(), (0, 1, 2, 3), winner=0)
    ClubSeasons.objects.create(club=club, public=True)
    a, b = club_world.members[0], club_world.members[1]
    a.user = get_user_model().objects.create_user("member-a")
    a.save()
    b.user = get_user_model().objects.create_user("member-b")
    b.save()
    own_page = f"/c/{club.slug}/m/{a.pk}/"
    url = own_page + "rating-privacy/"
    assert "Hide the rating from the public" in page(a.user).get(own_page).content.decode()
    assert "Hide the rating" not in page(b.user).get(own_page).content.decode()
    assert page(b.user).post(url, {"hidden": "1"}).status_code == 403
    assert page().post(url, {"hidden": "1"}).status_code == 302  # to sign in
    refused = page(a.user).post(url, {"hidden": "yes"}, follow=True)
    assert "Choose whether to hide the rating or show it." in refused.content.decode()
    assert not selectors.rating_hidden(player=a)
    done = page(a.user).post(url, {"hidden": "1"}, follow=True)
    assert "The rating is now hidden" in done.content.decode()
    assert selectors.rating_hidden(player=a)
    public = page().get(f"/c/{club.slug}/").content.decode()
    ratings = public[public.index('id="ratings-heading"') :]
    assert "Member B" in ratings and "Member A" not in ratings
    assert page(club_world.director).post(url, {"hidden": "0"}).status_code == 302
    assert not selectors.rating_hidden(player=a)


def test_a_club_chooses_after_how_many_matches_a_rating_is_settled(
    club_world: ClubWorld,
) -> None:
    club, a = club_world.club, club_world.members[0]
    url = f"/api/v1/clubs/{club.pk}/seasons-settings/"
    director = api(club_world.director)
    for bad in (0, 1001):
        refused = director.patch(url, {"settled_after": bad, "public": True}, format="json")
        assert refused.status_code == 422 and refused.json()["code"] == "bad_season"
    assert not ClubSeasons.objects.filter(public=True).exists()  # all or nothing
    assert director.patch(url, {"settled_after": "x"}, format="json").status_code == 400
    chosen = director.patch(url, {"settled_after": 2}, format="json")
    assert chosen.json() == {"public": False, "settled_after": 2}
    evening = club_world.evening()
    club_world.play(evening, (0, 1, 2, 3), winner=0)
    body = director.get(f"/api/v1/members/{a.pk}/rating/").json()
    assert body["settled_after"] == 2 and body["rating"]["provisional"]
    club_world.play(evening, (0, 1, 2, 3), winner=1)
    body = director.get(f"/api/v1/members/{a.pk}/rating/").json()
    assert not body["rating"]["provisional"]
    assert body["story"][0]["matches"][-1]["before"]["provisional"]
    text = page(club_world.director).get(f"/c/{club.slug}/m/{a.pk}/").content.decode()
    assert "Settled" in text and "now settled" in text


def test_the_desk_sets_the_count_that_settles_a_rating_and_refuses_a_bad_one(
    club_world: ClubWorld,
) -> None:
    url = f"/clubs/{club_world.club.slug}/seasons/public/"
    desk = page(club_world.director)
    bad = desk.post(url, {"public": "on", "settled_after": "0"}, follow=True)
    assert "Rated matches before a rating is settled: 1 to 1000." in bad.content.decode()
    assert not ClubSeasons.objects.filter(club=club_world.club).exists()  # nothing changed
    desk.post(url, {"public": "on", "settled_after": "4"})
    chosen = ClubSeasons.objects.get(club=club_world.club)
    assert (chosen.public, chosen.settled_after) == (True, 4)
    desk.post(url, {"public": "on"})  # the count left blank: as it was
    assert ClubSeasons.objects.get(club=club_world.club).settled_after == 4
    shown = desk.get(f"/clubs/{club_world.club.slug}/seasons/").content.decode()
    assert 'name="settled_after"' in shown and 'value="4"' in shown


def test_a_partnership_with_a_hidden_member_is_shown_to_directors_alone(
    club_world: ClubWorld,
) -> None:
    from seasons.services import member_rating_privacy_update

    evening = club_world.evening()
    for n in range(rating.PARTNERSHIP_AFTER):
        club_world.play(evening, (0, 1, *((2, 3) if n % 2 else (4, 5))), winner=n % 2)
    ClubSeasons.objects.create(club=club_world.club, public=True)
    a, b = club_world.members[0], club_world.members[1]
    url = f"/api/v1/members/{a.pk}/rating/"
    assert [p["member"]["name"] for p in api().get(url).json()["partnerships"]] == ["Member B"]
    member_rating_privacy_update(actor=club_world.director, member=b, hidden=True)
    assert api().get(url).json()["partnerships"] == []
    assert "Partnerships" not in page().get(f"/c/{club_world.club.slug}/m/{a.pk}/").content.decode()
    assert len(api(club_world.director).get(url).json()["partnerships"]) == 1
