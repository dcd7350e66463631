"""A team link's and an invitation's key leave no trace (issue 40, findings 3 to 5): no log
line carries one, opening one gives the browser a new session id, their answers send no
referrer, and the invitation's key is out of the address after its first request."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import logging
import logging.config
from collections.abc import Iterator
from importlib import import_module
from typing import Any

import pytest
from django.conf import settings

from deploy import logs
from tournaments import clubs, invites, links

from .conftest import Club, CommittingClient

pytestmark = pytest.mark.django_db

GOOD = "a long and quiet river"


def link_key(club: Club) -> str:
    return links.team_link(actor=club.users["director"], team=club.matches[0].team0)[1]


def invite_key(club: Club) -> str:
    director = club.users["director"]
    made = clubs.club_create(actor=director, name="Friday Seep Club")
    member = clubs.member_add(actor=director, club=made, name="Asha")
    return invites.member_invite(actor=director, member=member)[1]


# --- 3: no key in a log line ------------------------------------------------------------------


def formatter(name: str) -> logging.Formatter:
    """The formatter ``name`` of the settings' LOGGING, made as dictConfig makes it."""
    config = copy.deepcopy(settings.LOGGING)
    made: logging.Formatter = logging.config.DictConfigurator(config).configure_formatter(
        config["formatters"][name]
    )
    return made


@contextlib.contextmanager
def the_log(form: str) -> Iterator[io.StringIO]:
    """What the settings' own handler writes meanwhile (its filters as configured), in the
    format ``form``, every level included."""
    handler = next(h for h in logging.getLogger("django").handlers if h.name == "stdout")
    stream = io.StringIO()
    old_stream, old_formatter = handler.setStream(stream), handler.formatter
    handler.setFormatter(formatter(form))
    loggers = [logging.getLogger(), logging.getLogger("django")]
    levels = [one.level for one in loggers]
    for one in loggers:
        one.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        handler.setStream(old_stream)  # type: ignore[arg-type]
        handler.setFormatter(old_formatter)
        for one, level in zip(loggers, levels, strict=True):
            one.setLevel(level)


@pytest.mark.parametrize("form", ["json", "plain"])
def test_no_log_line_carries_a_link_s_or_an_invitation_s_key(club: Club, form: str) -> None:
    link, invitation = link_key(club), invite_key(club)
    unknown = "u" * 43
    with the_log(form) as log:
        assert CommittingClient().get(f"/l/{link}/").status_code == 302
        assert CommittingClient().get(f"/l/{unknown}/").status_code == 404  # django.request
        assert CommittingClient().get(f"/invite/{invitation}/").status_code == 302
        assert CommittingClient().get(f"/invite/{unknown}/").status_code == 410
        # the development server's line, as runserver writes it
        logging.getLogger("django.server").info(
            '"%s" %s %s', f"GET /l/{link}/ HTTP/1.1", "302", "0"
        )
    written = log.getvalue()
    for key in (link, invitation, unknown):
        assert key not in written
    assert "GET /l/[redacted]/ 302" in written and "GET /invite/[redacted]/ 302" in written
    assert "Not Found: /l/[redacted]/" in written and "Gone: /invite/[redacted]/" in written
    assert "GET /l/[redacted]/ HTTP/1.1" in written
    if form == "json":
        lines = [json.loads(line) for line in written.splitlines()]
        paths = {line.get("path") for line in lines if line["logger"] == "deploy.request"}
        assert paths == {"/l/[redacted]/", "/invite/[redacted]/"}


def test_a_key_in_a_record_s_arguments_and_fields_is_redacted_for_every_handler() -> None:
    """The filter rewrites the record itself, so a handler with any formatter (one added
    by a library, say) writes no key either."""
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, "opened %s", ("https://s.org/l/KEY1/",), None
    )
    record.path = "/invite/KEY2/"
    assert logs.KeyRedaction().filter(record)
    assert record.getMessage() == "opened https://s.org/l/[redacted]/"
    assert record.path == "/invite/[redacted]/"


# --- 4: a new session when a link or an invitation is opened ----------------------------------


def planted(client: CommittingClient) -> str:
    """Give ``client`` a session id made elsewhere (an attacker's), as a fixation would."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["planted"] = True
    store.save()
    assert store.session_key is not None
    client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    return store.session_key


def test_opening_a_team_link_gives_the_browser_a_new_session_id(club: Club) -> None:
    phone = CommittingClient()
    fixed = planted(phone)
    assert phone.get(f"/l/{link_key(club)}/").status_code == 302
    assert phone.cookies[settings.SESSION_COOKIE_NAME].value != fixed
    assert phone.get("/keep/").status_code == 200  # the phone holds the link
    attacker = CommittingClient()
    attacker.cookies[settings.SESSION_COOKIE_NAME] = fixed
    assert attacker.get("/keep/").status_code == 302  # to sign in: the planted id holds nothing


def test_opening_an_invitation_gives_the_browser_a_new_session_id(club: Club) -> None:
    phone = CommittingClient()
    fixed = planted(phone)
    assert phone.get(f"/invite/{invite_key(club)}/").status_code == 302
    assert phone.cookies[settings.SESSION_COOKIE_NAME].value != fixed
    assert phone.get("/invite/").status_code == 200
    attacker = CommittingClient()
    attacker.cookies[settings.SESSION_COOKIE_NAME] = fixed
    assert attacker.get("/invite/").status_code == 410


# --- 5: no referrer, and the invitation's key out of the address --------------------------


def assert_sends_no_referrer(answer: Any) -> None:
    assert answer["Referrer-Policy"] == "no-referrer"
    assert answer["Cache-Control"] == "private, no-store"


def test_every_answer_of_a_team_link_s_address_sends_no_referrer(club: Club) -> None:
    key = link_key(club)
    opened = CommittingClient().get(f"/l/{key}/")
    assert opened.status_code == 302
    links.team_link_reissue(actor=club.users["director"], team=club.matches[0].team0)
    stopped = CommittingClient().get(f"/l/{key}/")
    unknown = CommittingClient().get("/l/" + "u" * 43 + "/")
    posted = CommittingClient().post(f"/l/{key}/")
    assert (stopped.status_code, unknown.status_code, posted.status_code) == (403, 404, 405)
    for answer in (opened, stopped, unknown, posted):
        assert_sends_no_referrer(answer)


def test_the_invitation_s_key_leaves_the_address_after_its_first_request(club: Club) -> None:
    key = invite_key(club)
    phone = CommittingClient()
    opened = phone.get(f"/invite/{key}/")
    assert opened.status_code == 302 and opened["Location"] == "/invite/"
    closed = CommittingClient().get("/invite/" + "u" * 43 + "/")
    posted = CommittingClient().post(f"/invite/{key}/")
    assert (closed.status_code, posted.status_code) == (410, 405)
    for answer in (opened, closed, posted):
        assert_sends_no_referrer(answer)

    form = phone.get("/invite/")
    assert form.status_code == 200 and key not in form.content.decode()
    assert form["Cache-Control"] == "private, no-store"
    # The form's page keeps the site's referrer policy: under no-referrer a browser sends the
    # form's Origin as "null", which the CSRF check refuses; its address holds no key.
    assert form["Referrer-Policy"] == "same-origin"
    made = phone.post("/invite/", {"username": "asha", "password": GOOD, "again": GOOD})
    assert made.status_code == 302 and made["Location"] == "/keep/"
    assert phone.get("/invite/").status_code == 410  # used, and gone from the session
