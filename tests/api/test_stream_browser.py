"""The API's two streams read by a browser's own EventSource (Debian's Chromium), from a page
of the same origin: the push process's (``make stack``) and the web process's (``make run``).
An EventSource sends ``Accept: text/event-stream`` and cannot send another; it names each
event by its kind (``event:``) and remembers its seq (``id:``)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.live.server import push_server, web_server
from tests.web.browser import launched

from .test_results import results_head, some_results

pytestmark = pytest.mark.django_db(transaction=True)

#: the first event of the stream at ``url`` whose kind is ``kind``, as an EventSource gives it
FIRST_EVENT = """([url, kind]) => new Promise((resolve, reject) => {
  const source = new EventSource(url);
  source.addEventListener(kind, (event) => {
    source.close();
    resolve({id: event.lastEventId, data: event.data});
  });
  source.onerror = () => { source.close(); reject(new Error("refused: " + url)); };
})"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


@pytest.fixture(autouse=True)
def _local_host(settings: Any) -> None:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]


@contextlib.contextmanager
def serving(which: str) -> Iterator[str]:
    if which == "push process":
        with push_server() as server:
            yield server.url
    else:
        with web_server() as url:
            yield url


@pytest.mark.parametrize("which", ["push process", "web process"])
def test_an_event_source_reads_both_streams(league: Any, browser: Browser, which: str) -> None:
    before = results_head(league.a.pk)  # its teams' registrations
    some_results(league.a.pk, 1)
    context = browser.new_context()
    try:
        with serving(which) as base:
            page = context.new_page()
            page.goto(f"{base}/healthz")  # a page of the streams' own origin
            match = page.evaluate(
                FIRST_EVENT, [f"/api/v1/matches/{league.digital.pk}/stream/", "match_started"]
            )
            assert match["id"] == "1"
            assert json.loads(match["data"])["kind"] == "match_started"
            results = page.evaluate(
                FIRST_EVENT,
                [f"/api/v1/tournaments/{league.a.pk}/results/stream/", "round.published"],
            )
            assert results["id"] == str(before + 1)
            assert json.loads(results["data"])["round"] == 0
            page.close()
    finally:
        context.close()
