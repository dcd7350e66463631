"""The phones at a match's table (docs/links.md, "One phone a table"): when each team's
phone was last heard from, what it holds unsent, and the other team's confirmation code typed
on one phone.

**One phone a table.** A table may play on one phone, opened from either team's link: it
enters a deal for its own team, and the other team confirms on the same phone with the
six-digit code printed on its own team card (``links.link_code``). The right code makes the
other team's live link the confirmer (``code_confirmer``): the log records the entry as the
phone's team's and the confirmation as the code's team's, with the phone's link beside it
(``matchlog.link_via``), so the two-person rule holds as with two phones. A team's own code
confirms nothing on its own phone. A wrong code is counted against the table's match, not
the phone's address: after ``CODE_TRIES`` wrong codes since the last right one the table is
locked out of codes until a director lets it try again on the board (``codes_unlock``).

**Last heard.** Every request of a team's phone about its match says it is there
(``heard``): at most one write every ``HEARD_EVERY`` a team, the cache keeping the time in
between, unless the phone says it holds another number of unsent entries (the installable
phone app's queue), which is written at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

import live

from .access import LinkActor, is_director
from .errors import ClubNotPermitted, NotPermitted
from .links import code_matches
from .models import Match, TablePhones, TeamLink

#: the most wrong codes a table's phone may type (since the last right one) before it is
#: locked out of codes until a director lets it try again
CODE_TRIES = 5
#: a team's phone is written down as heard at most this often (the cache keeps when it was)
HEARD_EVERY = timedelta(seconds=20)
#: how long the cache keeps a phone's last write (a miss writes again and redraws the board)
SAID_SECONDS = 6 * 3600
#: a table whose match is being played and from whose phones nothing was heard for this long
#: is flagged on the board as silent
SILENT_AFTER = timedelta(minutes=3)
#: the most unsent entries a phone is taken to hold (a bigger number is kept as this)
MOST_UNSENT = 999


class CodeRefused(NotPermitted):
    """A confirmation code that confirmed nothing: not the other team's (``wrong_code``,
    counted), the phone's own team's (``own_code``), or typed on a table locked out of codes
    (``codes_locked``). ``tries_left``: the wrong codes the phone may still type (0: this
    one locked it out), None when the code was not counted."""

    def __init__(self, message: str, *, code: str, tries_left: int | None = None) -> None:
        super().__init__(message, code=code)
        self.tries_left = tries_left


def _row(match_id: int) -> TablePhones:
    """Return the match's row, locked for this transaction (made if it has none)."""
    TablePhones.objects.get_or_create(match_id=match_id)
    return TablePhones.objects.select_for_update(no_key=True).get(match_id=match_id)


def heard(
    *,
    match_id: int,
    side: int,
    tournament_id: int,
    unsent: int | None = None,
    now: datetime | None = None,
) -> None:
    """Write down that ``side``'s phone at ``match_id``'s table was heard from, and the
    entries it holds unsent if it said (``unsent``): at most once every ``HEARD_EVERY`` a
    team, unless the number of unsent entries changed. Safe to call on every request: in
    between it reads the cache only.

    A write that changes what the director's board says of the table (a phone heard for the
    first time, or again after a minute or more, or a new number of unsent entries) changes
    the tag of what the board says of phones (``heard_tag``; not ``board_tag``, which the
    phones' own pages follow too): the board's part is kept per version. A phone heard
    every few seconds changes nothing the board says, and leaves the board's kept part be."""
    if unsent is not None:
        unsent = max(0, min(unsent, MOST_UNSENT))
    key = f"seep-table-heard:{match_id}:{side}"
    kept = cache.get(key)  # (when, unsent) of the last write
    when, unsent_before = kept if isinstance(kept, tuple) else (None, None)
    now = now or timezone.now()
    unsent_now = unsent if unsent is not None else (unsent_before or 0)
    since = None if when is None else now.timestamp() - when
    if since is not None and since < HEARD_EVERY.total_seconds() and unsent_now == unsent_before:
        return
    fields: dict[str, Any] = {f"heard{side}": now}
    if unsent is not None:
        fields[f"unsent{side}"] = unsent
    written = TablePhones.objects.filter(match_id=match_id).update(**fields)
    if not written:
        with transaction.atomic():
            _row(match_id)
            TablePhones.objects.filter(match_id=match_id).update(**fields)
    if since is None or since >= 60 or unsent_now != unsent_before:
        changed = timezone.now().timestamp()  # when it changed, not when the phone was heard
        cache.set(f"seep-table-heard-tag:{tournament_id}", changed, SAID_SECONDS)
        live.publish(live.Topic.BOARD, tournament_id)
    cache.set(key, (now.timestamp(), unsent_now), SAID_SECONDS)


def _board_key(tournament_id: int) -> str:
    return f"seep-board-phones:{tournament_id}"


def board_tag(tournament_id: int) -> str:
    """Return what changes the director's board when a table is locked out of codes, let try
    again, or starts playing on one phone (read from the cache: no query; with the cache
    down the board shows it at its next minute)."""
    return str(cache.get(_board_key(tournament_id), 0))


def heard_tag(tournament_id: int) -> str:
    """Return what changes when the board's words about a table's phones change (heard for
    the first time, again after a minute, unsent entries): a cache read, no query."""
    return str(cache.get(f"seep-table-heard-tag:{tournament_id}", 0))


def _board_changed(tournament_id: int) -> None:
    cache.set(_board_key(tournament_id), timezone.now().timestamp(), None)
    live.publish(live.Topic.BOARD, tournament_id)


def table_of(match_id: int) -> TablePhones | None:
    """Return what is known of ``match_id``'s phones, or None when nothing is yet."""
    return TablePhones.objects.filter(match_id=match_id).first()


def locked(match_id: int) -> bool:
    """Whether ``match_id``'s table is locked out of codes now."""
    return TablePhones.objects.filter(match_id=match_id, locked_at__isnull=False).exists()


def code_confirmer(*, phone: LinkActor, match: Match, code: str) -> LinkActor:
    """Return the actor that confirms on ``phone`` (a team's link at ``match``) with ``code``:
    the other team's live link, on this phone. Refused (``CodeRefused``, nothing confirmed)
    for a table locked out of codes, for the phone's own team's code, and for any other code,
    which is counted (the last try locks the table out).

    The table's row is locked while its lock-out is read, the code judged and a wrong one
    counted: tries sent at the same moment are judged one after another, so a phone sending
    many at once gets no more than ``CODE_TRIES`` guesses, and none once it is locked out."""
    side = phone.side_in(match)
    if side is None:
        raise NotPermitted("this team's link does not play in this match", code="not_your_match")
    found = _judge(match=match, code=code, phone_side=side, own_side=side)
    return LinkActor(found.pk, found.team_id, match.tournament_id, on_phone=phone.link_id)


def code_author(*, match: Match, code: str, refused_side: int | None = None) -> LinkActor:
    """Return the actor that speaks with ``code`` on the phone of ``match``'s table card (a
    table link, which acts for no team): the live link of the team whose card prints the
    code, on the table's phone. ``refused_side``: the team whose code may not speak here (the
    team that entered the deal being confirmed), refused as ``own_code`` and not counted.
    Judged as ``code_confirmer`` judges: the same row lock, count and lock-out, on the same
    table (a wrong code on the table card's phone counts with those on a team's phone)."""
    found = _judge(match=match, code=code, phone_side=None, own_side=refused_side)
    return LinkActor(found.pk, found.team_id, match.tournament_id, on_table=match.pk)


def _judge(*, match: Match, code: str, phone_side: int | None, own_side: int | None) -> TeamLink:
    """Return the live link of ``match``'s team whose card prints ``code``, or refuse it
    (``CodeRefused``): the table locked out of codes; ``own_side``'s code (not counted); any
    other code (counted, the last try locks the table out). ``phone_side``: the team whose
    phone it was typed on (None: the table card's phone), which the board names."""
    teams = {match.team0_id: 0, match.team1_id: 1}
    live = TeamLink.objects.filter(team_id__in=teams, revoked_at__isnull=True)
    found = next((link for link in live if code_matches(link, code)), None)
    now = timezone.now()
    with transaction.atomic():
        row = _row(match.pk)
        if row.locked_at is not None:
            judged = "locked"
        elif found is not None and teams[found.team_id] == own_side:
            judged = "own"  # not counted: the phone's own card, not a guess
        else:
            judged = "right" if found is not None else "wrong"
            row.one_phone_at = row.one_phone_at or now
            row.one_phone_side = phone_side
            if found is not None:  # the wrong ones before it forgiven
                row.code_failures = 0
            else:
                row.code_failures += 1
                if row.code_failures >= CODE_TRIES:
                    row.locked_at = now
            row.save()
    if judged in ("right", "wrong"):
        _board_changed(match.tournament_id)
    if judged == "locked":
        raise CodeRefused(
            "This table's phone typed too many wrong codes: ask the director to let it try "
            "again, or confirm on the other team's own phone.",
            code="codes_locked",
        )
    if judged == "own":
        raise CodeRefused(
            "That is your own team's code: the other team types the code on its own card.",
            code="own_code",
        )
    if found is not None:
        return found
    left = max(0, CODE_TRIES - row.code_failures)
    if left == 0:
        raise CodeRefused(
            "That is not the other team's code. This phone has typed too many wrong codes: "
            "it takes none now until the director lets it try again.",
            code="codes_locked",
            tries_left=0,
        )
    tries = "1 more try" if left == 1 else f"{left} more tries"
    raise CodeRefused(
        f"That is not the other team's code: nothing was confirmed. Check the code on their "
        f"card ({tries} before this phone is locked out of codes).",
        code="wrong_code",
        tries_left=left,
    )


def codes_unlock(*, actor: Any, match: Match) -> None:
    """Let ``match``'s table type codes again (a director): its wrong codes forgotten."""
    if not is_director(actor, match.tournament_id):
        raise ClubNotPermitted("only a director of this tournament may let a table try again")
    TablePhones.objects.filter(match=match).update(code_failures=0, locked_at=None)
    _board_changed(match.tournament_id)
