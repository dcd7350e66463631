"""A table's phone that sends many codes at the same moment gets no more guesses than one
sending them one by one (``tournaments.phones.code_confirmer`` judges a table's codes one
after another under its row's lock). On PostgreSQL only: SQLite takes one writer at a time."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from tournaments import phones
from tournaments.access import LinkActor
from tournaments.models import TablePhones, TeamLink

from .test_one_phone import table
from .test_team_links import desk  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SENDERS = 12


def test_codes_sent_at_the_same_moment_get_no_more_guesses_than_the_limit(
    desk: Any,  # noqa: F811 (the fixture)
) -> None:
    _t, match, _one, own, theirs = table(desk)
    link = TeamLink.objects.get(team=match.team0, revoked_at__isnull=True)
    phone = LinkActor(link.pk, link.team_id, match.tournament_id)
    wrongs = [f"{n:06d}" for n in range(1000) if f"{n:06d}" not in (own, theirs)][:SENDERS]
    judged: list[str] = []
    start = threading.Barrier(SENDERS)

    def guess(code: str) -> None:
        try:
            start.wait()
            phones.code_confirmer(phone=phone, match=match, code=code)
        except phones.CodeRefused as refused:
            judged.append(refused.code if refused.tries_left is None else "counted")
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(code,)) for code in wrongs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(judged) == SENDERS
    assert judged.count("counted") == phones.CODE_TRIES  # the rest: locked out, not judged
    row = TablePhones.objects.get(match=match)
    assert row.code_failures == phones.CODE_TRIES and row.locked_at is not None
    # locked: the right code confirms nothing either
    with pytest.raises(phones.CodeRefused):
        phones.code_confirmer(phone=phone, match=match, code=theirs)
