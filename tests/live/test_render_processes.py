"""The push process renders the live parts in processes of its own (``live.feeds``,
``PUSH_RENDER_PROCESSES``), off the event loop's interpreter lock: what they render is what
the pages render, and a render process that dies is replaced without losing a render."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import time
from typing import Any

import pytest

import live
from tests.web.conftest import make_club
from web import push

from .test_push import part_now

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_the_hub_renders_in_processes_of_its_own_and_replaces_one_that_died(settings: Any) -> None:
    settings.PUSH_RENDER_PROCESSES = 2
    club = make_club()
    pk = club.tournament.pk

    async def run() -> tuple[int, int, list[str | None]]:
        hub = live.hub()

        async def started() -> None:
            """Until a render process is up, the hub renders in a thread of its own."""
            deadline = time.monotonic() + 60
            while not hub._renderer_ready():
                assert time.monotonic() < deadline, "no render process started"
                await asyncio.sleep(0.05)

        try:
            assert hub.renderer is not None
            await started()
            where = await hub.render(os.getpid)
            # what it loaded is set aside from the collector's full passes
            frozen = await hub.render(gc.get_freeze_count)
            parts = [await hub.render(push.tournament_part, pk)]
            processes = hub.renderer._processes  # type: ignore[attr-defined]
            for pid in list(processes):
                os.kill(pid, signal.SIGKILL)
            parts.append(await hub.render(push.tournament_part, pk))  # in a thread this once
            parts.append(await hub.render(push.tournament_part, pk))  # new processes starting
            await started()
            assert await hub.render(os.getpid) not in {where, os.getpid()}
        finally:
            await hub.release()
        return where, frozen, parts

    where, frozen, parts = asyncio.run(run())
    assert where != os.getpid()
    assert frozen > 10_000  # Django and the apps, at least
    assert parts == [part_now(club.tournament)] * 3


def test_a_hub_just_made_renders_in_a_thread_until_a_render_process_is_up(settings: Any) -> None:
    """A push process started again (its viewers back at once) does not keep them waiting for
    an interpreter and Django to start: its render processes start at once, and until one is
    up the parts are rendered in a database thread."""
    settings.PUSH_RENDER_PROCESSES = 1

    async def run() -> tuple[int, int]:
        hub = live.hub()
        try:
            first = await hub.render(os.getpid)
            deadline = time.monotonic() + 60
            while not hub._renderer_ready():
                assert time.monotonic() < deadline, "no render process started"
                await asyncio.sleep(0.05)
            return first, await hub.render(os.getpid)
        finally:
            await hub.release()

    first, later = asyncio.run(run())
    assert first == os.getpid()
    assert later != os.getpid()
