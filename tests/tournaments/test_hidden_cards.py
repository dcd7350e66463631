"""No card in a hand or the stock reaches anyone but the match's directors before its deal is over.

Every viewer (the public, anonymous, each seat, the score-keeper, an outsider, staff who may only
view, staff of another tournament) through every way out: admin lists and their filters, event
feeds, append results, retried requests and refusals; and whatever state the snapshot cache is in.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import AnonymousUser, Permission
from django.db import models
from django.test import Client

import seep_core as sc
from tests.matches import deal_in_play
from tournaments.access import SYSTEM
from tournaments.errors import AppendRefused, NotPermitted
from tournaments.matchlog import repeatable_decks
from tournaments.models import Match, MatchEvent, MatchSnapshot, Tournament
from tournaments.selectors import render_events
from tournaments.services import match_append_event

pytestmark = pytest.mark.django_db

OUTSIDERS = [
    "public", "anonymous", "seat0", "seat1", "seat2", "seat3", "scorekeeper", "outsider",
    "view_only_staff", "other_tournament_staff",
]  # fmt: skip
STAFF = ["view_only_staff", "other_tournament_staff"]


@pytest.fixture
def viewers(world: Any, django_user_model: Any) -> dict[str, Any]:
    """Everyone who may look at the digital match, by role (the directors last)."""
    users = django_user_model.objects
    match = world.digital_match
    people: dict[str, Any] = {"public": None, "anonymous": AnonymousUser()}
    for seat, player in enumerate(match.seat_players()):
        people[f"seat{seat}"] = player.user
    people["scorekeeper"] = world.scorekeeper
    people["outsider"] = users.create_user("outsider")
    clerk = users.create_user("clerk", is_staff=True)
    clerk.user_permissions.add(*Permission.objects.filter(codename__startswith="view_"))
    people["view_only_staff"] = clerk
    rival = users.create_user("rival", is_staff=True)
    rival.user_permissions.add(*Permission.objects.all())
    Tournament.objects.create(name="Rival cup", slug="rival-cup", organizer=rival)
    people["other_tournament_staff"] = rival
    world.organizer.is_staff = True  # directors work in the admin too
    world.organizer.save()
    people["organizer"] = world.organizer
    helper = users.create_user("helper", is_staff=True)
    world.tournament.directors.add(helper)
    people["added_director"] = helper
    return people


def append(match: Match, kind: str, payload: dict[str, Any], actor: Any, **kw: Any) -> Any:
    match.refresh_from_db()
    return match_append_event(
        match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=actor,
        shuffle=repeatable_decks(match.last_seq), **kw,
    )  # fmt: skip


def started(world: Any, moves: int = 6) -> Match:
    """The digital match, started and a few random legal moves into its first deal."""
    match = world.digital_match
    Match.objects.filter(pk=match.pk).update(match_format={"bazzis": 5})  # deals to spare
    match.refresh_from_db()
    append(match, "match_started", {"first_dealer": 3}, world.organizer)
    rng = random.Random(4)
    for _ in range(moves):
        append(match, "move_played", {"move": rng.choice(sc.legal_moves(deal_in_play(match)))},
               SYSTEM)  # fmt: skip
    return match


def last_move_of_the_deal(match: Match, rng: random.Random) -> dict[str, Any]:
    """Play (as the server) until the next move ends the deal; return that move."""
    while True:
        deal = deal_in_play(match)
        for move in sc.legal_moves(deal):
            if sc.apply(deal, move).phase == "over":
                match.refresh_from_db()
                return move
        append(match, "move_played", {"move": rng.choice(sc.legal_moves(deal))}, SYSTEM)


def unseen_cards(match: Match) -> set[str]:
    """The cards of the deal in play still in a hand or in the stock."""
    deal = deal_in_play(match)
    cards = {card for seat in range(4) for card in deal.hand(seat)}
    return cards | set(deal.to_dict()["stock"])


def assert_shows_none_of(cards: set[str], shown: Any) -> None:
    text = json.dumps(shown) if not isinstance(shown, str) else shown
    leaked = sorted(card for card in cards if f'"{card}"' in text or f"&quot;{card}&quot;" in text)
    assert not leaked, f"cards shown: {leaked}"


# --- feeds -------------------------------------------------------------------------------


@pytest.mark.parametrize("who", OUTSIDERS)
def test_a_feed_shows_no_unseen_card_to_anyone_but_a_director(
    world: Any, viewers: dict[str, Any], who: str
) -> None:
    match = started(world)
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    shown = render_events(match, events, viewers[who])
    assert shown[1]["kind"] == "deal_started" and shown[1]["payload"]["deck"] is None
    assert_shows_none_of(unseen_cards(match), shown)


@pytest.mark.parametrize("who", ["organizer", "added_director"])
def test_directors_see_the_deck_of_the_deal_in_play(
    world: Any, viewers: dict[str, Any], who: str
) -> None:
    match = started(world)
    shown = render_events(match, MatchEvent.objects.filter(match=match), viewers[who])
    assert len(shown[1]["payload"]["deck"]) == 52


def test_a_deck_is_shown_to_all_once_its_deal_is_over(world: Any, viewers: dict[str, Any]) -> None:
    match = started(world, moves=0)
    append(match, "move_played", {"move": last_move_of_the_deal(match, random.Random(2))}, SYSTEM)
    events = list(MatchEvent.objects.filter(match=match, kind="deal_started").order_by("seq"))
    assert len(events) == 2
    finished, in_play = render_events(match, events, None)
    assert len(finished["payload"]["deck"]) == 52 and in_play["payload"]["deck"] is None


# --- the snapshot is a cache: secrecy follows from the log --------------------------------


def test_with_no_snapshot_the_public_feed_still_hides_the_deck_in_play(world: Any) -> None:
    match = started(world)
    secret = unseen_cards(match)
    MatchSnapshot.objects.filter(match=match).delete()
    shown = render_events(match, MatchEvent.objects.filter(match=match), None)
    assert shown[1]["payload"]["deck"] is None
    assert_shows_none_of(secret, shown)


def test_with_a_snapshot_left_behind_a_later_deals_deck_stays_hidden(world: Any) -> None:
    match = started(world, moves=0)
    behind = MatchSnapshot.objects.filter(match=match).values("seq", "state").get()
    append(match, "move_played", {"move": last_move_of_the_deal(match, random.Random(3))}, SYSTEM)
    for _ in range(3):  # into the second deal
        append(match, "move_played", {"move": sc.legal_moves(deal_in_play(match))[0]}, SYSTEM)
    secret = unseen_cards(match)
    MatchSnapshot.objects.filter(match=match).update(**behind)  # the cache: still deal 1
    shown = render_events(match, MatchEvent.objects.filter(match=match), None)
    second = max(i for i, e in enumerate(shown) if e["kind"] == "deal_started")
    assert shown[second]["payload"]["deal"] == 2 and shown[second]["payload"]["deck"] is None
    assert_shows_none_of(secret, shown[second:])  # the first deal's deck is public by now


# --- append results and retries ----------------------------------------------------------


def test_the_player_whose_card_ends_a_deal_gets_no_look_at_the_next_deck(world: Any) -> None:
    match = started(world, moves=0)
    move = last_move_of_the_deal(match, random.Random(5))
    player = match.seat_players()[move["seat"]].user
    result = append(match, "move_played", {"move": move}, player, idempotency_key="last")
    assert [e["kind"] for e in result.events] == ["move_played", "deal_ended", "deal_started"]
    dealt = result.events[-1]
    assert dealt["payload"]["deck"] is None and dealt["hidden"] == ["deck"]
    assert_shows_none_of(unseen_cards(match), dealt)  # the rest are the last deal's cards


@pytest.mark.parametrize("who", ["public", "anonymous", "outsider", "scorekeeper", "opponent",
                                 "view_only_staff", "other_tournament_staff"])  # fmt: skip
def test_a_retry_by_someone_who_may_not_make_the_request_is_refused_not_answered(
    world: Any, viewers: dict[str, Any], who: str
) -> None:
    match = started(world, moves=0)
    move = last_move_of_the_deal(match, random.Random(6))
    player = match.seat_players()[move["seat"]].user
    request = {"match": match, "expected_seq": match.last_seq, "kind": "move_played",
               "payload": {"move": move}, "idempotency_key": "the-last-card",
               "shuffle": repeatable_decks(1)}  # fmt: skip
    match_append_event(**request, actor=player)
    actor = match.seat_players()[(move["seat"] + 1) % 4].user if who == "opponent" else viewers[who]
    with pytest.raises(NotPermitted) as refused:
        match_append_event(**request, actor=actor)
    assert_shows_none_of(unseen_cards(match), str(refused.value))
    retried = match_append_event(**request, actor=player)  # the player's own retry
    assert retried.replayed and retried.events[-1]["payload"]["deck"] is None


# --- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize("who", OUTSIDERS)
def test_no_refusal_names_a_card_the_viewer_may_not_see(
    world: Any, viewers: dict[str, Any], who: str
) -> None:
    match = started(world)
    deal = deal_in_play(match)
    secret = unseen_cards(match)
    messages = []
    for seat in range(4):
        for card in sorted(secret)[:6]:
            for action in ({"action": "throw"}, {"action": "capture", "take": []}):
                move = {"seat": seat, "card": card, **action}
                try:
                    append(match, "move_played", {"move": move}, viewers[who])
                except AppendRefused as exc:
                    messages.append((card, exc.message))
    assert messages
    own = set(deal.hand(int(who[-1]))) if who.startswith("seat") else set()
    for named, message in messages:
        assert_shows_none_of(secret - own - {named}, message)


# --- the admin's lists and filters -------------------------------------------------------


def staff_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("who", [*STAFF, "organizer", "superuser"])
@pytest.mark.parametrize(
    "url",
    [
        "/admin/tournaments/matchevent/?payload__deck__0__in=AS,2S,3S",
        "/admin/tournaments/matchevent/?payload__deck__icontains=AS",
        "/admin/tournaments/matchsnapshot/?state__deal__hands__2__icontains=KS",
        "/admin/tournaments/matchsnapshot/?state__deal__stock__0=AS",
        "/admin/auth/user/?password__startswith=pbkdf2",
    ],
)
def test_an_admin_list_applies_no_lookup_it_does_not_offer(
    world: Any, viewers: dict[str, Any], django_user_model: Any, who: str, url: str
) -> None:
    started(world)
    user = viewers.get(who) or django_user_model.objects.create_superuser("root")
    response = staff_client(user).get(url)
    # 400: the lookup is refused; 403: the whole page is not theirs. Never a filtered answer.
    assert response.status_code in (400, 403)
    if who == "superuser":
        assert response.status_code == 400
    if who == "organizer" and "/tournaments/" in url:
        assert response.status_code == 400  # their own tournament's page: the filter refused


@pytest.mark.parametrize("who", STAFF)
def test_staff_who_do_not_direct_the_tournament_list_none_of_its_history(
    world: Any, viewers: dict[str, Any], who: str
) -> None:
    match = started(world)
    client = staff_client(viewers[who])
    for page in ("matchevent", "matchsnapshot", "match", "team"):
        listing = client.get(f"/admin/tournaments/{page}/")
        assert listing.status_code in (200, 403)
        if listing.status_code == 200:
            assert listing.context["cl"].result_count == 0
    event = MatchEvent.objects.get(match=match, kind="deal_started")
    detail = client.get(f"/admin/tournaments/matchevent/{event.pk}/change/")
    assert detail.status_code in (302, 403)  # no such event for them, or no admin at all
    assert_shows_none_of(unseen_cards(match), detail.content.decode())


def test_every_admin_list_refuses_lookups_into_its_json_fields(
    world: Any, django_user_model: Any
) -> None:
    """Whatever admin is registered, now or later: no JSON field can be filtered from outside."""
    started(world)
    client = staff_client(django_user_model.objects.create_superuser("root"))
    checked = 0
    for model, model_admin in admin.site._registry.items():
        for field in model._meta.get_fields():
            if isinstance(field, models.JSONField):
                url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
                response = client.get(url, {f"{field.name}__0__isnull": "False"})
                assert response.status_code == 400, f"{model_admin} filtered by {field.name}"
                checked += 1
    assert checked >= 4  # events, snapshots, tournaments, matches at least
