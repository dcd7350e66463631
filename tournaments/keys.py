"""The keys in private addresses (a team's link, a member's invitation): 256 bits, written in
URL-safe base64 (43 characters), found again by their SHA-256, which is all a row keeps."""

from __future__ import annotations

import hashlib

#: the length of a key: the URL-safe base64 of 32 bytes, unpadded
KEY_LENGTH = 43


def key_hash(key: object) -> str | None:
    """Return the SHA-256 (hex) a row keeps of ``key``, or None for what is no key at all
    (not text, or not a key's length): nothing is looked up for it."""
    if not isinstance(key, str) or len(key) != KEY_LENGTH:
        return None
    return hashlib.sha256(key.encode()).hexdigest()
