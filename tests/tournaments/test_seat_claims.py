"""The seat claims of a digital match (``tournaments.seats``): one phone a seat and one seat a
phone, kept by the database itself, so two phones claiming a seat at the same moment cannot
both hold it; a director's release frees it (who, when kept); a link reissued since holds
nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import Club, make_club
from tournaments import links, seats
from tournaments.access import LinkActor
from tournaments.errors import ClubNotPermitted, SeatRefused
from tournaments.models import SeatClaim

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db: None, django_capture_on_commit_callbacks: Any) -> Club:
    """The web tests' club evening: its digital match has a deal in play."""
    with django_capture_on_commit_callbacks(execute=True):
        return make_club()


def actor(club: Club, side: int) -> LinkActor:
    match = club.digital
    team = (match.team0, match.team1)[side]
    return links.actor_for(links.team_link(actor=club.users["director"], team=team)[0])


def test_the_database_keeps_one_holder_a_seat_and_one_seat_a_phone(club: Club) -> None:
    """The constraints, not a check before the insert, keep the rules: a second live row for a
    seat, or a second seat of a phone, is refused by the database itself."""
    match, link = club.digital, actor(club, 0)
    first, second = seats.new_claim_id(), seats.new_claim_id()
    seats.seat_claim(actor=link, match=match, seat=0, claim_id=first)
    row = SeatClaim.objects.get(match=match)
    for seat, browser_hash in ((0, "b" * 64), (2, row.browser_hash)):
        with pytest.raises(IntegrityError), transaction.atomic():
            SeatClaim.objects.create(
                match=match, seat=seat, link_id=link.link_id, browser_hash=browser_hash
            )
    with pytest.raises(SeatRefused) as refused:
        seats.seat_claim(actor=link, match=match, seat=0, claim_id=second)
    assert refused.value.code == "seat_held"
    assert seats.holders(match)[0].pk == row.pk


# phones 0-3, each acting for the side its number's parity gives; a step claims a seat or
# releases one
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("claim"), st.integers(0, 3), st.integers(0, 3)),
        st.tuples(st.just("release"), st.integers(0, 3), st.just(0)),
    ),
    max_size=12,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS)
def test_claims_and_releases_keep_one_phone_a_seat_and_one_seat_a_phone(
    club: Club, steps: list[tuple[str, int, int]]
) -> None:
    match = club.digital
    SeatClaim.objects.filter(match=match).delete()  # each example starts with no claim
    links_ = [actor(club, 0), actor(club, 1)]
    phones = [seats.new_claim_id() for _ in range(4)]
    held: dict[int, int] = {}  # seat: phone, as the rules say it must be
    for step, a, b in steps:
        if step == "release":
            if a in held:
                seats.seat_release(actor=club.users["director"], match=match, seat=a)
                del held[a]
            else:
                with pytest.raises(SeatRefused):
                    seats.seat_release(actor=club.users["director"], match=match, seat=a)
            continue
        phone, seat = a, b
        mine = next((s for s, p in held.items() if p == phone), None)
        free = seat not in held and mine is None
        ours = seat % 2 == phone % 2
        try:
            seats.seat_claim(
                actor=links_[phone % 2], match=match, seat=seat, claim_id=phones[phone]
            )
        except SeatRefused as refused:
            assert not (ours and (free or mine == seat)), (step, refused.code)
        else:
            assert ours and (free or mine == seat)
            held[seat] = phone
        now = {s: c.browser_hash for s, c in seats.holders(match).items()}
        assert now.keys() == held.keys()
        for s, p in held.items():
            assert seats.held_by(match, phones[p]) is not None
            assert seats.held_by(match, phones[p]).seat == s  # type: ignore[union-attr]


def test_a_release_is_a_directors_and_is_kept(club: Club) -> None:
    match = club.digital
    seats.seat_claim(actor=actor(club, 1), match=match, seat=1, claim_id=seats.new_claim_id())
    for who in ("outsider", "scorekeeper", "north1"):
        with pytest.raises(ClubNotPermitted):
            seats.seat_release(actor=club.users[who], match=match, seat=1)
    assert 1 in seats.holders(match)
    released = seats.seat_release(actor=club.users["director"], match=match, seat=1)
    assert released.released_by == club.users["director"] and released.released_at is not None
    assert seats.holders(match) == {}
    assert SeatClaim.objects.get(pk=released.pk).released_at == released.released_at


def test_a_link_reissued_since_holds_no_seat(club: Club) -> None:
    match = club.digital
    old = seats.new_claim_id()
    seats.seat_claim(actor=actor(club, 0), match=match, seat=0, claim_id=old)
    links.team_link_reissue(actor=club.users["director"], team=match.team0)
    assert seats.held_by(match, old) is None
    new = seats.new_claim_id()
    assert seats.seat_claim(actor=actor(club, 0), match=match, seat=0, claim_id=new).seat == 0
    assert seats.held_by(match, new) is not None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_claiming_one_seat_at_the_same_moment_one_holds_it(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Many phones claim one seat on real connections released together: one holds it, every
    other is refused in words, and one row holds the seat."""
    with django_capture_on_commit_callbacks(execute=True):
        club = make_club(tag="race-")
    match, link = club.digital, actor(club, 1)
    phones = [seats.new_claim_id() for _ in range(6)]
    barrier = threading.Barrier(len(phones))
    won: list[str] = []
    refused: list[str] = []
    errors: list[BaseException] = []

    def claim(phone: str) -> None:
        try:
            barrier.wait(10)
            seats.seat_claim(actor=link, match=match, seat=3, claim_id=phone)
            won.append(phone)
        except SeatRefused as exc:
            refused.append(exc.code)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(p,)) for p in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    assert len(won) == 1 and refused == ["seat_held"] * (len(phones) - 1)
    assert SeatClaim.objects.filter(match=match, released_at__isnull=True).count() == 1
    assert seats.held_by(match, won[0]) is not None
