"""What a process keeps of each match between requests (a state proved, plays described):
the most recently kept of them, bounded, shared by the threads of the process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

T = TypeVar("T")


class PerMatch(Generic[T]):
    """A bounded map from a match's id to what is kept of it: past ``SIZE`` matches, the one
    kept longest ago is dropped. Every read and write holds the lock."""

    SIZE = 512

    def __init__(self) -> None:
        self._kept: OrderedDict[int, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: int) -> T | None:
        with self._lock:
            return self._kept.get(match_id)

    def _put(self, match_id: int, kept: T) -> None:
        """Keep ``kept`` for the match, the lock held (each kind's own ``keep`` says when)."""
        self._kept[match_id] = kept
        self._kept.move_to_end(match_id)
        if len(self._kept) > self.SIZE:
            self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
