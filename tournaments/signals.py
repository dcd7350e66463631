"""What the event store tells the apps above it, without importing them (arrows point down).

``log_appended`` is sent after the commit of every append (``match_id``): scoring subscribes
to it and schedules its projection. Receivers must be quick and must not fail the sender: the
append has committed already.

``verifying`` is sent by ``verify.verify_match`` (``match_id``): a receiver returns the heads
of this match's log recorded elsewhere (``verify.Anchor``, and ``receipts.Receipt`` copies),
for example the competition's record of each completed round, which the log must still reach.

``member_erased`` is sent inside a member's erasure's transaction (``renamed``, a
``privacy.Renamed``): a receiver rewrites what its app stored with the member's or their teams'
old names, in that transaction (docs/privacy.md).

``Receivers`` is how the apps wire their receivers, in their ``ready``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.dispatch import Signal

R = TypeVar("R", bound=Callable[..., Any])

#: sent with ``match_id`` after an append to that match's log has committed
log_appended = Signal()

#: sent with ``match_id`` by verify_match; receivers return anchors the log must still reach
verifying = Signal()

#: sent with ``renamed`` inside a member's erasure; receivers scrub what they stored
member_erased = Signal()


class Receivers:
    """An app's receivers, each declared where it is defined (``@receivers.on(signal, name)``)
    and connected once, by the app's ``ready``, as ``app.name``: the uid to disconnect it by."""

    def __init__(self, app: str) -> None:
        self.app = app
        self._wiring: list[tuple[Signal, Callable[..., Any], str]] = []

    def on(self, signal: Signal, name: str) -> Callable[[R], R]:
        """Return a decorator that marks its function as the app's receiver of ``signal``."""

        def mark(receiver: R) -> R:
            self._wiring.append((signal, receiver, name))
            return receiver

        return mark

    def connect(self) -> None:
        """Connect every receiver declared (again: a second call changes nothing)."""
        for signal, receiver, name in self._wiring:
            signal.connect(receiver, dispatch_uid=f"{self.app}.{name}")
