"""Seats of a digital match held by phones acting through their team's link (docs/links.md,
"Playing a digital match").

A team's link acts for the team, and a team is two seats: each player plays on their own
phone, which says once which player holds it ("I am Anil"). That claim is the server's, not
the phone's word alone: the first phone to claim a seat holds it, until a director releases
it, and a phone holds one seat of a match, never its partner's as well. The database keeps
both rules (``SeatClaim``'s two unique constraints), so two phones claiming the same seat at
the same moment cannot both win: the second is refused in words (``SeatRefused``).

A phone is known by a random claim id kept in its session (``new_claim_id``); the row keeps
its SHA-256 only. A team's token bound to one of its players (a bot) is known by a claim id
the server derives from the team's link and the player (``bound_claim_id``): a keyed hash no
phone can send, the same for every token bound to that player through that link, so a token
made again for the same bot goes on holding its seat. A claim made through a link reissued
since holds nothing: its phone (or bot) acts no more, and the seat is free for the team's new
link.
"""

from __future__ import annotations

import base64
import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

import live

from .access import LinkActor, is_director
from .errors import ClubNotPermitted, SeatRefused
from .keys import key_hash
from .models import Match, SeatClaim
from .selectors import match_state

#: what a match's seat players are read through
_PLAYERS = tuple(f"team{t}__{n}_player" for t in (0, 1) for n in ("first", "second"))


def new_claim_id() -> str:
    """Return a new phone's claim id: 256 random bits, as a key is written (43 characters)."""
    return secrets.token_urlsafe(32)


def bound_claim_id(link_id: int, player: int) -> str:
    """Return the claim id of the team's tokens bound to ``player`` (0: first, 1: second)
    through the link ``link_id``: an HMAC under the site's secret key, as a key is written."""
    digest = salted_hmac("seep.seats.bound", f"{link_id}:{player}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def claim_id_or_new(kept: object) -> str:
    """Return the claim id a browser kept, or a new one if it kept none (or not a claim id)."""
    return kept if isinstance(kept, str) and key_hash(kept) is not None else new_claim_id()


def _holding(match: Match | int) -> QuerySet[SeatClaim]:
    """The claims of ``match`` that hold a seat now: not released, their link still live."""
    return SeatClaim.objects.filter(
        match=match, released_at__isnull=True, link__revoked_at__isnull=True
    )


def held_by(match: Match | int, claim_id: object) -> SeatClaim | None:
    """Return the claim through which the phone with ``claim_id`` holds a seat of ``match``."""
    hashed = key_hash(claim_id)
    return None if hashed is None else _holding(match).filter(browser_hash=hashed).first()


def holders(match: Match | int) -> dict[int, SeatClaim]:
    """Return the claims holding ``match``'s seats, by seat."""
    return {claim.seat: claim for claim in _holding(match)}


def held_in(match_ids: list[int]) -> dict[int, list[tuple[int, str]]]:
    """Return the seats phones hold in each of the matches ``match_ids`` (seat and player's
    name, in seat order), in one query (none for no match)."""
    if not match_ids:
        return {}
    found: dict[int, list[tuple[int, str]]] = {}
    claims = (
        SeatClaim.objects.filter(
            match_id__in=match_ids, released_at__isnull=True, link__revoked_at__isnull=True
        )
        .select_related(
            *(f"match__team{t}__{n}_player" for t in (0, 1) for n in ("first", "second"))
        )
        .order_by("match_id", "seat")
    )
    for claim in claims:
        found.setdefault(claim.match_id, []).append(
            (claim.seat, player_name(claim.match, claim.seat))
        )
    return found


def held_to_play(match_id: int, side: int | None) -> str | None:
    """Return the name of the player whose turn it is in ``match_id``'s deal in play if they
    sit on ``side`` and a phone holds their seat (that phone plays it, and no one else through
    the team's link), else None."""
    deal = match_state(match_id).deal
    seat = None if deal is None else deal.to_play
    if seat is None or seat % 2 != side or not _holding(match_id).filter(seat=seat).exists():
        return None
    return player_name(Match.objects.select_related(*_PLAYERS).get(pk=match_id), seat)


def claims_tag(tournament_id: int) -> str:
    """A tag that changes whenever a seat of the tournament is claimed or released."""
    counts = SeatClaim.objects.filter(match__tournament_id=tournament_id).aggregate(
        n=Count("pk"), released=Count("released_at")
    )
    return f"{counts['n']}.{counts['released']}"


def player_name(match: Match, seat: int) -> str:
    """The name of the player at ``seat`` (as the seat page's question names them)."""
    return str(match.seat_players()[seat].name)


def seat_claim(*, actor: LinkActor, match: Match, seat: int, claim_id: str) -> SeatClaim:
    """Let the phone with ``claim_id``, acting through ``actor`` (its team's link), hold
    ``seat`` of ``match``; claimed again by the same phone, the same claim.

    Refuses (``SeatRefused``) a seat of the other team (``not_your_seat``), a seat another
    phone holds (``seat_held``) and a second seat of the same phone (``one_seat_a_phone``):
    the insert decides, under the table's unique constraints, so of two phones racing for a
    seat exactly one holds it."""
    side = actor.side_in(match)
    if side is None or seat not in (side, side + 2):
        raise SeatRefused(gettext("Choose one of your team's two players."), code="not_your_seat")
    hashed = key_hash(claim_id)
    if hashed is None:
        raise ValueError("a claim id is new_claim_id()'s")
    try:
        with transaction.atomic():
            # what was held through a link reissued since holds nothing: free it for the new
            SeatClaim.objects.filter(
                match=match, released_at__isnull=True, link__revoked_at__isnull=False
            ).update(released_at=timezone.now())
            mine = _holding(match).filter(browser_hash=hashed).first()
            if mine is not None and mine.seat == seat:
                return mine
            if mine is None:
                live.publish(live.Topic.BOARD, match.tournament_id)  # the board shows who sits
                return SeatClaim.objects.create(
                    match=match, seat=seat, link_id=actor.link_id, browser_hash=hashed
                )
    except IntegrityError:
        mine = held_by(match, claim_id)  # another request of this phone may have won
        if mine is not None and mine.seat == seat:
            return mine
    if mine is not None:
        raise SeatRefused(
            gettext(
                "This phone holds %(player)s's seat at this match: one phone plays for one player."
            )
            % {"player": player_name(match, mine.seat)},
            code="one_seat_a_phone",
        )
    raise SeatRefused(
        gettext(
            "%(player)s's seat is already held by another phone; ask the director to release it."
        )
        % {"player": player_name(match, seat)},
        code="seat_held",
    )


def seat_release(*, actor: Any, match: Match, seat: int) -> SeatClaim:
    """Release ``seat`` of ``match`` (a director): the phone holding it holds it no more, and
    the next phone to claim it holds it. The release is kept on the claim: who, when."""
    if not is_director(actor, match.tournament_id):
        raise ClubNotPermitted(gettext("only a director of this tournament may release a seat"))
    with transaction.atomic():
        claim = _holding(match).filter(seat=seat).select_for_update(no_key=True).first()
        if claim is None:
            raise SeatRefused(
                gettext("%(player)s's seat is held by no phone: nothing to release.")
                % {"player": player_name(match, seat)},
                code="seat_not_held",
            )
        claim.released_at = timezone.now()
        claim.released_by = actor
        claim.save(update_fields=["released_at", "released_by"])
        live.publish(live.Topic.BOARD, match.tournament_id)  # the board shows who sits
    return claim


def last_claim(match: Match | int, claim_id: object) -> SeatClaim | None:
    """Return the newest seat claim the phone with ``claim_id`` made at ``match`` (its link
    with it), whether it holds its seat now (``holds``), was released, or was not: a phone
    holds one seat at most, so its newest claim says all the seat page asks, in one read."""
    hashed = key_hash(claim_id)
    if hashed is None:
        return None
    return (
        SeatClaim.objects.filter(match=match, browser_hash=hashed)
        .select_related("link")
        .order_by("-claimed_at", "-pk")
        .first()
    )


def holds(claim: SeatClaim) -> bool:
    """Whether ``claim`` holds its seat now: not released, its link still live."""
    return claim.released_at is None and claim.link.revoked_at is None
