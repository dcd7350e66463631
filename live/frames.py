"""A page's live part as a stream of server-sent events: its frames, and its stream's response.

A part (a page's HTML that changes as the evening goes) is sent whole once (``event: part``),
then as the lines that changed since the version the viewer holds (``event: patch``); a part
each viewer fetches for themselves (forms, a team's link) is only said to have changed
(``event: changed``). Every event's ``id`` is its version (a digest of the part): a
reconnecting EventSource sends it back (``Last-Event-ID``) and gets nothing until the part
changes again. The pages' streams (web.push) render the parts; this module knows no page.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse

from .feeds import Loader, hub
from .responses import FeedResponse, allow_own_origins, retry_field

#: a comment line this often keeps proxies and the client's own timeout from closing a quiet
#: stream, and finds a client that went away
HEARTBEAT_SECONDS = 20.0


@dataclass(frozen=True)
class Frames:
    """One version of a part, as the bytes every viewer of it is sent."""

    full: bytes  # event: part, the whole part
    base: str | None  # the version the patch applies to
    patch: bytes | None  # event: patch, the lines that changed since ``base``
    changed: bytes  # event: changed, for the parts each viewer fetches for themselves
    public: bool = True  # for everyone (its tournament published); else each viewer asked


def event(kind: str, version: str, data: str) -> bytes:
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {kind}\nid: {version}\n{lines}\n".encode()


def digest(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()[:20]


def line_patch(before: list[str], after: list[str]) -> list[list[Any]]:
    """Return the edits turning the lines ``before`` into ``after``: [start, end, lines] each,
    from the last to the first (applied in that order, each keeps the others' places)."""
    # autojunk (the default): lines as common as "</tr>" are not matched on, which keeps a
    # part of 6,000 lines at 2 ms instead of 400 (the edits are as correct, if larger)
    matcher = difflib.SequenceMatcher(None, before, after)
    edits = [
        [i1, i2, after[j1:j2]] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]
    return edits[::-1]


def apply_patch(lines: list[str], edits: list[list[Any]]) -> list[str]:
    """Apply :func:`line_patch`'s edits (what live.js does, for the tests and the bench)."""
    out = list(lines)
    for start, end, new in edits:
        out[start:end] = new
    return out


def part_frames(version: str, html: str, base: tuple[str, str] | None) -> Frames:
    """The part ``html`` (of ``version``) as the frames every viewer is sent: the whole part,
    that it changed, and the patch from ``base`` (the version and HTML a viewer may hold)."""
    patch = None
    if base is not None:
        edits = line_patch(base[1].split("\n"), html.split("\n"))
        patch = event("patch", version, json.dumps({"base": base[0], "edits": edits}))
    return Frames(
        full=event("part", version, html),
        base=None if base is None else base[0],
        patch=patch,
        changed=event("changed", version, version),
    )


Rendered = tuple[str, str, Frames | None]  # version, HTML, frames (None: the base's version)


def rendered(html: str | None, base: tuple[str, str] | None) -> Rendered | None:
    if html is None:
        return None
    version = digest(html)
    if base is not None and base[0] == version:
        return version, "", None  # as the viewers hold it: nothing to make again
    return version, html, part_frames(version, html, base)


class Renders:
    """A feed's last render (its version, HTML and frames): the next one is patched from it.
    The render, the digest and the patch are made where the hub renders (a process of its
    own), sent the last HTML as the base."""

    def __init__(self) -> None:
        self.version: str | None = None
        self.html = ""
        self.last: Frames | None = None

    async def next(
        self, render: Callable[..., Rendered | None], *args: int | str
    ) -> tuple[str, Frames] | None:
        """``render(*args, base)``'s part, and its frames (the last ones if it is unchanged)."""
        base = None if self.version is None else (self.version, self.html)
        got = await hub().render(render, *args, base)
        if got is None:
            return None
        version, html, frames = got
        if frames is None and self.last is not None:
            return version, self.last
        assert frames is not None
        self.version, self.html, self.last = version, html, frames
        return version, frames


def last_event_id(request: HttpRequest) -> str:
    """The version the viewer holds: the header a reconnecting EventSource sends, or
    ``?v=`` (the page's first connection cannot set a header)."""
    held = request.headers.get("Last-Event-ID") or request.GET.get("v", "")
    return held.strip()[:64]


def picker(mode: str, held: str) -> Callable[[tuple[str, Frames]], bytes | None]:
    """What one viewer is sent of each version (None: nothing, it holds it): ``mode`` "part"
    the patch from the version it holds when there is one, else the whole part; "changed"
    only that it changed."""

    def pick(item: tuple[str, Frames]) -> bytes | None:
        nonlocal held
        version, frames = item
        if version == held:
            return None
        if mode == "changed":
            chunk = frames.changed
        elif frames.patch is not None and frames.base == held:
            chunk = frames.patch
        else:
            chunk = frames.full
        held = version
        return chunk

    return pick


def _open_to_all(item: tuple[str, Frames]) -> bool:
    return item[1].public


def stream(
    request: HttpRequest,
    key: str,
    topics: list[str],
    loader: Loader,
    mode: str,
    may_see: Callable[[], bool] | None = None,
    heartbeat: float = HEARTBEAT_SECONDS,
) -> HttpResponse:
    """The event stream of the feed ``key``: ``mode`` "part" sends the part (and its
    patches), "changed" only that it changed; ``may_see`` asks the viewer's access again
    before any part that is not for everyone."""
    response = FeedResponse(
        key,
        topics,
        loader,
        picker(mode, last_event_id(request)),
        first=retry_field(),
        end=b"event: end\ndata: gone\n\n",
        heartbeat=heartbeat,
        may_see=may_see,
        open_to_all=_open_to_all,
    )
    allow_own_origins(request, response)
    return response
