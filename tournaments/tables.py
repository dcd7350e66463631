"""Table links: the link a round's table card prints for a table's match (docs/links.md, "One
phone a table"). A phone that opens it sees the match's table page and may send a deal's
entry or confirmation there only with a team's code: the link acts for no team by itself.

The key is ``<match id>.<mac>``: the mac is an HMAC-SHA256, under the deployment's
``SECRET_KEY`` with its own salt, of the match's id and the nonces of its two teams' live
links, in URL-safe base64 (43 characters). Nothing is stored: the key is made again from
the live links when the desk prints the card, and checked against them when a phone opens
it. It is unguessable as a team's key is (256 bits under the secret), and it stops when
either team is given a new link (a lost card's team is reissued: the table card is printed
again with its new card), when the match is over (and, on the web, when the tournament is).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from itertools import product
from typing import Any

from django.utils.crypto import constant_time_compare, salted_hmac

from .access import is_director
from .errors import ClubNotPermitted
from .models import Match, TeamLink

TABLE_SALT = "seep.tournaments.table-link"
#: the longest key a table link may have: a match id of 18 digits, a dot, the mac
MAX_KEY = 18 + 1 + 43


def _mac(match_id: int, nonce0: str, nonce1: str) -> str:
    digest = salted_hmac(TABLE_SALT, f"{match_id}:{nonce0}:{nonce1}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _live(match: Match) -> tuple[TeamLink, TeamLink] | None:
    """The two teams' live links of ``match`` (team0's first), or None if one has none."""
    live = {
        link.team_id: link
        for link in TeamLink.objects.filter(
            team_id__in=(match.team0_id, match.team1_id), revoked_at__isnull=True
        )
    }
    if match.team0_id not in live or match.team1_id not in live:
        return None
    return live[match.team0_id], live[match.team1_id]


def table_key(*, actor: Any, match: Match) -> str | None:
    """Return the key of ``match``'s table link (a director), or None while one of its teams
    has no link yet (the desk makes the teams' links first)."""
    if not is_director(actor, match.tournament_id):
        raise ClubNotPermitted("only a director of this tournament may print its table cards")
    live = _live(match)
    if live is None:
        return None
    return f"{match.pk}.{_mac(match.pk, live[0].nonce, live[1].nonce)}"


@dataclass(frozen=True)
class Opened:
    """What a table link opened: ``match`` and the two live links it was made from (a
    phone keeps their ids and checks them on every request), or why it opens nothing:
    ``stopped`` (a team was given a new link since), ``over`` (the match or the tournament
    is over), ``unknown`` (no table link at all)."""

    match: Match | None
    link_ids: tuple[int, int] = (0, 0)
    refused: str = ""


def open_key(key: str) -> Opened:
    """Return what the table link ``key`` opens (a score match the tournament still plays,
    through its teams' live links), or why it opens nothing."""
    head, dot, mac = key.partition(".") if len(key) <= MAX_KEY else ("", "", "")
    if not (dot and head.isascii() and head.isdigit() and len(mac) == 43):
        return Opened(None, refused="unknown")
    match = (
        Match.objects.select_related("tournament", "team0", "team1")
        .filter(pk=int(head), mode=Match.Mode.SCORE)
        .first()
    )
    if match is None:
        return Opened(None, refused="unknown")
    live = _live(match)
    if live is None or not constant_time_compare(mac, _mac(match.pk, live[0].nonce, live[1].nonce)):
        every = TeamLink.objects.filter(team_id__in=(match.team0_id, match.team1_id))
        first = [link.nonce for link in every if link.team_id == match.team0_id]
        second = [link.nonce for link in every if link.team_id == match.team1_id]
        was = any(
            constant_time_compare(mac, _mac(match.pk, a, b)) for a, b in product(first, second)
        )
        return Opened(None, refused="stopped" if was else "unknown")
    if not playing(match):
        return Opened(None, refused="over")
    return Opened(match, (live[0].pk, live[1].pk))


def playing(match: Match) -> bool:
    """Whether ``match`` is still to be played (not over, nor called off): a table link of a
    match that is not opens nothing (the web's view also refuses a tournament that is over)."""
    return match.status not in (Match.Status.FINISHED, Match.Status.CALLED_OFF)


def still_open(match_id: int, link_ids: tuple[int, int]) -> Match | None:
    """Return the match a phone holding a table link (``match_id``, the links it was made
    from) may still see, or None: either link reissued since, or another team's."""
    match = (
        Match.objects.select_related("tournament", "team0", "team1")
        .filter(pk=match_id, mode=Match.Mode.SCORE)
        .first()
    )
    if match is None:
        return None
    live = _live(match)
    if live is None or (live[0].pk, live[1].pk) != link_ids:
        return None
    return match
