"""A member's erasure (India's DPDP Rules, the GDPR): their name and contact gone from the
club, their history kept under a neutral label (docs/privacy.md).

What the store keeps of a member is their row (``Player``: name, contact, account), the teams
they played in, named by the desk from their players' names ("Anil & Bina") or by hand, and
their invitations. The match logs, their hash chains and the signed receipts hold ids only
(seats, team ids, results): never a name. So an erasure rewrites the row and the team names
and leaves every log, chain and receipt as it was: they verify as before, and every
projection rebuilt from them (standings, results, ratings) is what it was, its names joined
at read time.

``erase_member`` does it in one transaction, and sends ``member_erased`` inside it: the apps
above rewrite what they stored with the old names in it (the API's results log and webhook
bodies, the desk's notices) in the same transaction, and drop what they cached. The
``Erasure`` row records who asked and when, without the name or the contact.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

import live

from .access import SYSTEM, is_club_director
from .errors import ClubNotPermitted, InvalidClubData
from .models import Club, Erasure, MemberInvite, Player, Team
from .signals import member_erased

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Renamed:
    """What an erasure renamed: the member (old name, label) and each team whose name held
    theirs (team id: (old name, new name)), in the tournaments listed. Only in memory."""

    member_id: int
    club_id: int
    name: str
    label: str
    teams: Mapping[int, tuple[str, str]]
    tournaments: frozenset[int]
    retired_account: int | None = None

    def scrub(self, text: str) -> str:
        """Return ``text`` with every old team name and the member's name replaced (whole
        words, capitals ignored)."""
        # a function, not a template: a name's "\\1" is text, not a group
        for old, new in self.teams.values():
            text = name_pattern(old).sub(functools.partial(_as, new), text)
        return name_pattern(self.name).sub(functools.partial(_as, self.label), text)

    def scrub_json(self, value: Any) -> Any:
        """Return a JSON value with ``scrub`` applied to every string in it, keys included."""
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, list):
            return [self.scrub_json(item) for item in value]
        if isinstance(value, dict):
            return {self.scrub(k): self.scrub_json(v) for k, v in value.items()}
        return value

    def found_in_json(self, value: Any) -> bool:
        """Whether a JSON value holds a name to scrub (to rewrite only the rows that do): as
        ``scrub`` finds them, capitals ignored."""
        return bool(self.scrub_json(value) != value)


def _as(text: str, _: re.Match[str]) -> str:
    return text


def label_of(member: Player | int) -> str:
    """The neutral label an erased member is shown under: from their id, not their name."""
    return f"Erased member {member if isinstance(member, int) else member.pk}"


def name_pattern(name: str) -> re.Pattern[str]:
    """The member's name as a whole word (or words), capitals ignored: "Dev" is not in
    "Devika"."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)


def may_ask(actor: Any, member: Player) -> bool:
    """Whether ``actor`` may read or erase ``member``'s data: a director of the member's club,
    or the member themself (the account linked to them)."""
    if member.club_id is None:
        return False
    if is_club_director(actor, member.club_id):
        return True
    return own(actor, member)


def own(actor: Any, member: Player) -> bool:
    """Whether ``actor`` is the account linked to ``member``."""
    return (
        actor is not SYSTEM
        and bool(getattr(actor, "is_authenticated", False))
        and bool(actor.is_active)
        and member.user_id is not None
        and member.user_id == actor.pk
    )


def erase_member(*, actor: Any, member: Player) -> Erasure:
    """Erase ``member``'s personal data (a director of their club, or the member themself):
    their name becomes their label ("Erased member 17"), in their row and in every team name
    that held it; their contact, their account link and their invitations go. Their history
    stays, by id (docs/privacy.md). One transaction; the ``Erasure`` row says who asked, when.

    A member of no club, or one erased already, is refused (``ClubRefused``); anyone else
    than the club's directors and the member is refused (``ClubNotPermitted``)."""
    if member.club_id is None or not may_ask(actor, member):
        raise ClubNotPermitted(
            gettext("only a director of the club, or the member, may erase a member")
        )
    club = Club.objects.get(pk=member.club_id)
    by_member = own(actor, member) and not is_club_director(actor, club)
    with transaction.atomic():
        stored = Player.objects.select_for_update(no_key=True).get(pk=member.pk)
        if stored.club_id != club.pk:
            raise ClubNotPermitted(gettext("the member is no longer a member of that club"))
        if Erasure.objects.filter(member=stored).exists():
            raise InvalidClubData(
                gettext("member no. %(number)s is erased already") % {"number": stored.pk},
                code="already_erased",
            )
        label = label_of(stored)
        account = stored.user
        retired = account is not None and retire_account(account, stored)
        renamed = Renamed(
            member_id=stored.pk,
            club_id=club.pk,
            name=stored.name,
            label=label,
            teams=_rename_teams(stored, label),
            tournaments=frozenset(
                Team.objects.filter(Q(first_player=stored) | Q(second_player=stored))
                .values_list("tournament_id", flat=True)
                .distinct()
            ),
            retired_account=account.pk if retired and account is not None else None,
        )
        stored.name, stored.contact, stored.user = label, "", None
        stored.save(update_fields=["name", "contact", "user"])
        MemberInvite.objects.filter(member=stored).delete()
        erasure = Erasure.objects.create(
            club=club,
            member=stored,
            asked_by=None if actor is SYSTEM else actor,
            by_member=by_member,
        )
        member_erased.send(sender=Player, renamed=renamed)
    member.name, member.contact, member.user = stored.name, "", None
    log.info("member %s of club %s erased (erasure %s)", stored.pk, club.pk, erasure.pk)
    return erasure


def account_closes(account: Any, member: Player) -> bool:
    """Whether erasing ``member`` closes ``account`` (the account linked to them): yes when it
    was this membership alone; no when it has another part to play (staff, another club's
    member, a club's director, a tournament's organizer or director), which needs its name."""
    if account.is_staff or account.is_superuser:
        return False
    if Player.objects.filter(user=account).exclude(pk=member.pk).exists():
        return False
    if account.clubs_directed.exists() or account.directed_tournaments.exists():
        return False
    return not account.organized_tournaments.exists()


def retire_account(account: Any, member: Player) -> bool:
    """Close the account linked to ``member`` and clear what it holds of the person (its user
    name, which the demo and many clubs make from the name, its names and its e-mail), when
    ``account_closes`` says so. Return whether it was closed.

    Closed, it signs in no more (no usable password, inactive: its sessions and tokens are
    refused), and what named it by its user name (a match's history, to its directors) names
    it ``erased-member-N``. An account that stays keeps its own name, as its other parts
    need: docs/privacy.md says so."""
    if not account_closes(account, member):
        return False
    # what the sign-in's lock-outs recorded under the old user name (often the person's name)
    old = account.get_username()
    for record in (AccessAttempt, AccessFailureLog, AccessLog):
        record.objects.filter(username=old).delete()
    username, n = f"erased-member-{member.pk}", 1
    while type(account).objects.filter(username=username).exclude(pk=account.pk).exists():
        n += 1
        username = f"erased-member-{member.pk}-{n}"
    account.username, account.first_name, account.last_name, account.email = username, "", "", ""
    account.is_active = False
    account.set_unusable_password()
    account.save()
    return True


def _rename_teams(member: Player, label: str) -> dict[int, tuple[str, str]]:
    """Rewrite the name of each team of ``member`` that holds theirs; return the changes."""
    pattern = name_pattern(member.name)
    renamed: dict[int, tuple[str, str]] = {}
    # FOR UPDATE: a team's name is a key (unique in its tournament), rewritten below
    teams = Team.objects.select_for_update().filter(
        Q(first_player=member) | Q(second_player=member)
    )
    for team in teams.order_by("pk"):
        if not pattern.search(team.name):
            continue
        new = _free_name(team, pattern.sub(label, team.name))
        renamed[team.pk] = (team.name, new)
        team.name = new
        team.save(update_fields=["name"])
        live.publish(live.Topic.TOURNAMENT, team.tournament_id)  # its pages show the new name
    return renamed


def _free_name(team: Team, name: str) -> str:
    """``name``, or ``name (2)``… the first no other team of the tournament has (capitals
    ignored, as a team's names must differ)."""
    taken = {
        n.casefold()
        for n in Team.objects.filter(tournament_id=team.tournament_id)
        .exclude(pk=team.pk)
        .values_list("name", flat=True)
    }
    candidate, n = name[:200], 1
    while candidate.casefold() in taken:
        n += 1
        candidate = f"{name[:190]} ({n})"
    return candidate


__all__ = [
    "Renamed",
    "account_closes",
    "erase_member",
    "label_of",
    "may_ask",
    "name_pattern",
    "own",
    "retire_account",
]
