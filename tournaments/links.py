"""Team links: a team's private link, made, printed again and reissued by a director, and
found again from the key a phone opens (docs/links.md).

The key is 256 bits: an HMAC-SHA256, under the deployment's ``SECRET_KEY``, of the link
row's nonce (32 bytes from ``secrets``), written in URL-safe base64 (43 characters). The row
keeps the nonce and the key's SHA-256, never the key: a copy of the database alone opens no
link, and the desk can print a team's card again without changing its link. A new
``SECRET_KEY`` changes every key: the cards are printed again.
"""

from __future__ import annotations

import base64
import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext

from .access import LinkActor, is_director
from .errors import ClubNotPermitted
from .keys import key_hash
from .models import Team, TeamLink, Tournament

KEY_SALT = "seep.tournaments.team-link"
CODE_SALT = "seep.tournaments.team-code"
#: the digits of a team's confirmation code (docs/links.md, "One phone a table")
CODE_DIGITS = 6


def link_key(link: TeamLink) -> str:
    """Return the key of ``link`` (the secret part of its address)."""
    digest = salted_hmac(KEY_SALT, link.nonce, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def link_code(link: TeamLink) -> str:
    """Return the confirmation code printed on ``link``'s card (six digits): the other team's
    phone takes it as this team's confirmation. Like the key, an HMAC of the link's nonce
    under the deployment's secret (another salt), kept nowhere: a new link, a new code."""
    digest = salted_hmac(CODE_SALT, link.nonce, algorithm="sha256").digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**CODE_DIGITS:0{CODE_DIGITS}d}"


def code_matches(link: TeamLink, code: str) -> bool:
    """Whether ``code`` (its spaces left out) is ``link``'s confirmation code, compared in
    constant time."""
    typed = "".join(code.split())
    return constant_time_compare(typed, link_code(link))


def _require_director(actor: Any, tournament: Tournament | int) -> None:
    if not is_director(actor, tournament):
        raise ClubNotPermitted(
            gettext("only a director of this tournament may hand out its team links")
        )


def _issue(team: Team, actor: Any) -> TeamLink:
    link = TeamLink(team=team, nonce=secrets.token_urlsafe(32))
    hashed = key_hash(link_key(link))
    assert hashed is not None  # link_key makes a key of KEY_LENGTH
    link.key_hash = hashed
    link.created_by = actor if getattr(actor, "pk", None) is not None else None
    link.save()
    return link


def team_link(*, actor: Any, team: Team) -> tuple[TeamLink, str]:
    """Return the team's live link and its key, making it if the team has none (a director)."""
    _require_director(actor, team.tournament_id)
    live = TeamLink.objects.filter(team=team, revoked_at__isnull=True).first()
    if live is None:
        try:
            with transaction.atomic():
                live = _issue(team, actor)
        except IntegrityError:  # made at the same moment by another request: that one
            live = TeamLink.objects.get(team=team, revoked_at__isnull=True)
    return live, link_key(live)


def team_links(*, actor: Any, tournament: Tournament) -> dict[int, str]:
    """Return every team's live link key by team id, making the missing ones (a director)."""
    _require_director(actor, tournament)
    teams = list(Team.objects.filter(tournament=tournament))
    live = {
        link.team_id: link
        for link in TeamLink.objects.filter(team__tournament=tournament, revoked_at__isnull=True)
    }
    with transaction.atomic():
        for team in teams:
            if team.pk not in live:
                live[team.pk] = _issue(team, actor)
    return {team_id: link_key(link) for team_id, link in live.items()}


def team_codes(*, actor: Any, tournament: Tournament) -> dict[int, str]:
    """Return the confirmation code of every team's live link by team id (a director): what
    its card prints for confirming on the other team's phone."""
    _require_director(actor, tournament)
    live = TeamLink.objects.filter(team__tournament=tournament, revoked_at__isnull=True)
    return {link.team_id: link_code(link) for link in live}


def team_link_reissue(*, actor: Any, team: Team) -> tuple[TeamLink, str]:
    """Revoke the team's live link (its cards stop working at once) and make a new one."""
    _require_director(actor, team.tournament_id)
    with transaction.atomic():
        Team.objects.select_for_update(no_key=True).filter(
            pk=team.pk
        ).first()  # one reissue at a time
        TeamLink.objects.filter(team=team, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        link = _issue(team, actor)
    return link, link_key(link)


def link_for_key(key: str) -> TeamLink | None:
    """Return the live link whose key is ``key`` (its team and tournament with it), or None."""
    hashed = key_hash(key)
    if hashed is None:
        return None
    return (
        TeamLink.objects.select_related("team__tournament")
        .filter(key_hash=hashed, revoked_at__isnull=True)
        .first()
    )


def was_reissued(key: str) -> bool:
    """Whether ``key`` is a link's that was reissued since (so its card is out of date)."""
    hashed = key_hash(key)
    return hashed is not None and (
        TeamLink.objects.filter(key_hash=hashed, revoked_at__isnull=False).exists()
    )


def live_links(link_ids: list[int]) -> list[TeamLink]:
    """Return those of ``link_ids`` still live (not revoked), with their teams."""
    if not link_ids:
        return []
    return list(
        TeamLink.objects.select_related("team__tournament").filter(
            pk__in=link_ids, revoked_at__isnull=True
        )
    )


def actor_for(link: TeamLink) -> LinkActor:
    """Return the actor a live link appends as."""
    return LinkActor(link.pk, link.team_id, link.team.tournament_id)
