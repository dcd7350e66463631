"""Signed receipts of finished matches: an anchor for a match's history outside the database.

When a match ends, the append service signs a receipt: the match, its result, the seq of the
event that ended it and the hash of that event (the head of the hash chain then), with an
Ed25519 key that lives outside the database (``RECEIPT_SIGNING_KEY`` or
``RECEIPT_SIGNING_KEY_FILE``). Anyone holding a receipt and the public key can check it
offline, without this project's database or Django:

    python -m tournaments.receipts verify --public-key KEY receipts.json

and ``manage.py verify_match --receipts receipts.json`` checks a database's logs against
receipts handed out earlier (``manage.py export_receipts``). What that proves, and what it
does not, is in docs/events.md ("Receipts").

This module imports nothing from Django at the top, so the offline check runs anywhere the
``cryptography`` package does.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

#: the version of the signed body; a verifier refuses bodies of versions it does not know
RECEIPT_VERSION = 1


class ReceiptInvalid(ValueError):
    """A receipt whose signature, key or shape does not check out."""


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key_text(key: Ed25519PublicKey) -> str:
    """Return the public key as text: base64url of its 32 raw bytes."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return _b64(raw)


def key_id(key: Ed25519PublicKey) -> str:
    """Return a short, stable name of a public key (the first 16 hex digits of its sha256)."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def load_private_key(text: str) -> Ed25519PrivateKey:
    """Return the Ed25519 private key in ``text``: PEM, or base64url of its 32-byte seed."""
    key = _load_key(
        text,
        lambda pem: serialization.load_pem_private_key(pem, password=None),
        Ed25519PrivateKey.from_private_bytes,
        "private",
    )
    if not isinstance(key, Ed25519PrivateKey):
        raise ReceiptInvalid("the receipt signing key must be an Ed25519 key")
    return key


def load_public_key(text: str) -> Ed25519PublicKey:
    """Return the Ed25519 public key in ``text`` (base64url of its 32 raw bytes, or PEM)."""
    key = _load_key(
        text, serialization.load_pem_public_key, Ed25519PublicKey.from_public_bytes, "public"
    )
    if not isinstance(key, Ed25519PublicKey):
        raise ReceiptInvalid("a receipt public key must be an Ed25519 key")
    return key


def _load_key(
    text: str, from_pem: Callable[[bytes], object], from_raw: Callable[[bytes], object], half: str
) -> object:
    """Return the key in ``text``: PEM (a key of any kind), or base64url of its raw bytes."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            return from_pem(text.encode())
        return from_raw(_unb64(text))
    except (ValueError, TypeError) as exc:
        raise ReceiptInvalid(f"not an Ed25519 {half} key: {type(exc).__name__}") from exc


def generate_private_key_text() -> str:
    """Return a new private key as base64url of its seed (for ``RECEIPT_SIGNING_KEY``)."""
    raw = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    return _b64(raw)


@dataclass(frozen=True)
class Receipt:
    """A signed receipt: the body that was signed, its signature, and the key's name."""

    body: dict[str, Any]
    signature: str

    def to_dict(self) -> dict[str, Any]:
        """Return the receipt as JSON-ready data (what is handed out and exported)."""
        return {"receipt": self.body, "signature": self.signature}

    @classmethod
    def from_dict(cls, data: Any) -> Receipt:
        """Return the receipt ``to_dict`` wrote; raise ReceiptInvalid for any other shape."""
        if (
            not isinstance(data, Mapping)
            or not isinstance(data.get("receipt"), dict)
            or not isinstance(data.get("signature"), str)
        ):
            raise ReceiptInvalid('a receipt is {"receipt": {...}, "signature": "..."}')
        return cls(dict(data["receipt"]), data["signature"])


def sign(body: Mapping[str, Any], key: Ed25519PrivateKey) -> Receipt:
    """Return ``body`` signed with ``key`` (its key id and the version added to the body)."""
    signed = {**body, "version": RECEIPT_VERSION, "key_id": key_id(key.public_key())}
    return Receipt(signed, _b64(key.sign(_canonical(signed))))


def verify(receipt: Receipt, public_keys: Iterable[Ed25519PublicKey]) -> dict[str, Any]:
    """Return the receipt's body if one of ``public_keys`` signed it, else raise ReceiptInvalid."""
    body = receipt.body
    if body.get("version") != RECEIPT_VERSION:
        raise ReceiptInvalid(f"receipt version {body.get('version')!r} is not known")
    keys = {key_id(k): k for k in public_keys}
    key = keys.get(body.get("key_id"))  # type: ignore[arg-type]
    if key is None:
        raise ReceiptInvalid(f"the receipt is signed with key {body.get('key_id')!r}, not known")
    try:
        key.verify(_unb64(receipt.signature), _canonical(body))
    except (InvalidSignature, ValueError) as exc:
        raise ReceiptInvalid("the signature does not match the receipt") from exc
    for name, kind in (("match", int), ("seq", int), ("head_hash", str), ("result", dict)):
        if not isinstance(body.get(name), kind):
            raise ReceiptInvalid(f"the receipt has no {name}")
    return body


def read_receipts(path: Path) -> list[Receipt]:
    """Return the receipts in a JSON file: a list of receipts, or ``{"receipts": [...]}``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ReceiptInvalid(f"cannot read receipts from {path}: {exc}") from exc
    if isinstance(data, dict) and "receipts" in data:
        data = data["receipts"]
    if not isinstance(data, list):
        raise ReceiptInvalid("a receipts file holds a list of receipts")
    return [Receipt.from_dict(item) for item in data]


# --- with Django: the server's own key ----------------------------------------------------


def signing_key() -> Ed25519PrivateKey:
    """Return the server's receipt signing key, from the settings (``RECEIPT_SIGNING_KEY``)."""
    from django.conf import settings

    return load_private_key(settings.RECEIPT_SIGNING_KEY)


def trusted_public_keys() -> list[Ed25519PublicKey]:
    """Return the public keys whose receipts this server accepts: its own and older ones."""
    from django.conf import settings

    keys = [signing_key().public_key()]
    keys += [load_public_key(text) for text in settings.RECEIPT_PUBLIC_KEYS]
    return keys


def _keys_joined(argv: list[str]) -> list[str]:
    """``--public-key KEY`` as ``--public-key=KEY``: a key is URL-safe base64, which may
    begin with "-", and argparse would take such a key for an option of its own."""
    out: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--public-key":
            following = next(words, None)
            out.append(word if following is None else f"{word}={following}")
        else:
            out.append(word)
    return out


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.receipts",
        description="Check signed match receipts offline, with the server's public key.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="check a file of receipts")
    check.add_argument(
        "--public-key", action="append", required=True, help="a trusted public key (repeatable)"
    )
    check.add_argument("file", type=Path, help="a JSON file of receipts")
    commands.add_parser("new-key", help="print a new private key and its public key")
    args = parser.parse_args(_keys_joined(sys.argv[1:] if argv is None else argv))
    if args.command == "new-key":
        private = generate_private_key_text()
        print(f"RECEIPT_SIGNING_KEY={private}")
        print(f"# public key: {public_key_text(load_private_key(private).public_key())}")
        return 0
    try:
        keys = [load_public_key(text) for text in args.public_key]
        receipts = read_receipts(args.file)
    except ReceiptInvalid as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bad = 0
    for n, receipt in enumerate(receipts, 1):
        try:
            body = verify(receipt, keys)
        except ReceiptInvalid as exc:
            bad += 1
            print(f"receipt {n}: INVALID: {exc}")
            continue
        result = body["result"]
        print(
            f"receipt {n}: ok: match {body['match']} ended at event {body['seq']} "
            f"(head {body['head_hash'][:16]}...), winner {result.get('winner')}, "
            f"bazzis {result.get('bazzis')}"
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(_main())
