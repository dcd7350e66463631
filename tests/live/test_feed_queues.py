"""How a push process shares its work out when a room is busy (live.feeds): the most watched
feed's read and render first, a tournament's visibility read once for all its match sheets,
and a feed loaded again at most every ``SPACING_SECONDS`` however often it is poked."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import live
from live import feeds
from live.frames import Frames

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet_hub(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hub that hears no channel (whose every reconnection loads all feeds again) and
    looks again at no feed by itself while a test counts its loads."""
    settings.REDIS_URL = ""
    monkeypatch.setattr(feeds, "RECHECK_SECONDS", 1000.0)


def test_a_gate_runs_its_slots_jobs_and_then_the_most_watched_first() -> None:
    async def run() -> tuple[list[str], int]:
        gate = feeds.Gate(1)
        order: list[str] = []
        release = asyncio.Event()

        async def job(name: str, wait: bool = False) -> str:
            order.append(name)
            if wait:
                await release.wait()
            return name

        first = asyncio.create_task(gate.run(1, lambda: job("first", wait=True)))
        await asyncio.sleep(0)
        # queued while the slot is taken: a sheet of 3 viewers, a page of 2,000, then one of 5
        sheet = asyncio.create_task(gate.run(3, lambda: job("sheet")))
        page = asyncio.create_task(gate.run(2000, lambda: job("page")))
        gone = asyncio.create_task(gate.run(9000, lambda: job("gone")))
        other = asyncio.create_task(gate.run(5, lambda: job("other")))
        await asyncio.sleep(0)
        gone.cancel()  # its viewers left while it waited: passed over
        await asyncio.sleep(0)
        release.set()
        got = await asyncio.gather(first, sheet, page, other)
        assert got == ["first", "sheet", "page", "other"]  # each gets its own answer
        return order, gate.free

    order, free = asyncio.run(run())
    assert order == ["first", "page", "other", "sheet"]
    assert free == 1  # every slot given back


def test_a_job_handed_the_slot_but_cancelled_gives_it_back() -> None:
    async def run() -> int:
        gate = feeds.Gate(1)
        release = asyncio.Event()
        holder = asyncio.create_task(gate.run(1, release.wait))
        await asyncio.sleep(0)
        waiter = asyncio.create_task(gate.run(1, lambda: asyncio.sleep(0)))
        await asyncio.sleep(0)
        release.set()
        await holder  # the slot is handed to the waiter ...
        waiter.cancel()  # ... which is cancelled before it runs
        await asyncio.gather(waiter, return_exceptions=True)
        return gate.free

    assert asyncio.run(run()) == 1


def frames(version: str) -> tuple[str, Frames]:
    said = version.encode()
    return version, Frames(full=said, base=None, patch=None, changed=said)


def test_a_tournaments_change_is_read_once_for_all_its_sheets_which_load_only_when_it_shows() -> (
    None
):
    """Three match sheets follow their tournament's visibility through one relayed feed: a
    change of the tournament that leaves it published loads the visibility once and no sheet;
    made private, every sheet is loaded again (and asks its viewers again)."""

    async def run() -> tuple[dict[str, int], list[str]]:
        hub = live.hub()
        loads: dict[str, int] = {"visibility": 0}
        published = ["yes"]

        async def visibility() -> tuple[str, Frames]:
            loads["visibility"] += 1
            return frames(published[0])

        def sheet(name: str) -> live.Loader:
            loads[name] = 0

            async def load() -> tuple[str, Frames]:
                loads[name] += 1
                topic = await hub.relay("visible:1", ["t1"], visibility)
                assert topic == "visible:1"
                return frames(f"{name}-{published[0]}")

            return load

        subs = []
        for name in ("a", "b", "c"):
            feed, sub = await hub.subscribe(name, [f"m{name}", "visible:1"], sheet(name))
            subs.append((feed, sub))
        before = dict(loads)
        hub.heard_message(live.Message(live.Topic.TOURNAMENT, 1).encode())
        await asyncio.sleep(0.1)
        after_change = dict(loads)
        published[0] = "no"
        hub.heard_message(live.Message(live.Topic.TOURNAMENT, 1).encode())
        await asyncio.sleep(0.1)
        offered = [sub.item[0] for _, sub in subs if sub.has_item]
        for feed, sub in subs:
            hub.unsubscribe(feed, sub)
        left = sorted(hub.feeds)
        await hub.release()
        assert before == {"visibility": 1, "a": 1, "b": 1, "c": 1}
        assert after_change == {"visibility": 2, "a": 1, "b": 1, "c": 1}
        return loads, offered + left

    loads, seen = asyncio.run(run())
    assert loads == {"visibility": 3, "a": 2, "b": 2, "c": 2}
    assert seen[:3] == ["a-no", "b-no", "c-no"]
    assert seen[3:] == []  # the sheets gone, the visibility's feed was let go with them


def test_a_feed_poked_while_it_loads_loads_once_more_after_the_spacing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(feeds, "SPACING_SECONDS", 0.3)

    async def run() -> list[float]:
        hub = live.hub()
        loop = asyncio.get_running_loop()
        starts: list[float] = []

        async def load() -> tuple[str, Frames]:
            starts.append(loop.time())
            await asyncio.sleep(0.05)
            return frames(str(len(starts)))

        feed, sub = await hub.subscribe("page", ["t9"], load)
        for _ in range(5):  # five changes while it loads: one load more, not five
            feed.poke()
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.8)
        hub.unsubscribe(feed, sub)
        await hub.release()
        return starts

    starts = asyncio.run(run())
    assert len(starts) == 3, starts  # the first, the one the pokes asked for, no more
    assert starts[2] - starts[1] >= 0.3 - 0.01
