"""The phone app's icons, drawn here as PNG (no image file to keep, no image library): a
playing card on the table's green, a red diamond on it, inside the middle 80 % a launcher
may crop to a circle ("maskable")."""

from __future__ import annotations

import functools
import struct
import zlib

#: the sizes the manifest lists (a launcher's and a splash screen's)
SIZES = (192, 512)

GREEN = b"\x1b\x5e\x20"
WHITE = b"\xff\xff\xff"
RED = b"\xc6\x28\x28"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def _pixel(x: int, y: int, size: int) -> bytes:
    """The colour at (x, y): the card (a white upright rectangle in the middle half), on it
    a diamond (|dx| + |dy| within a fifth of the size), the green elsewhere."""
    half = size / 2
    dx, dy = abs(x + 0.5 - half), abs(y + 0.5 - half)
    if dx > size * 0.22 or dy > size * 0.3:
        return GREEN
    if dx + dy * 0.8 <= size * 0.16:
        return RED
    return WHITE


@functools.cache
def app_icon(size: int) -> bytes:
    """Return the app's icon as a PNG of ``size`` by ``size`` pixels (8-bit RGB).

    >>> app_icon(16)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    if not 16 <= size <= 1024:
        raise ValueError(f"an icon of {size} pixels: between 16 and 1024")
    rows = b"".join(
        b"\x00" + b"".join(_pixel(x, y, size) for x in range(size)) for y in range(size)
    )
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, 9))
        + _chunk(b"IEND", b"")
    )
