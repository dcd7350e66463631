from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """An event as ``tournaments.selectors.render_event`` shows it to the caller.

    Attributes:
        seq (int):
        kind (str):
        payload (Any):
        actor (int | None):
        recorded_at (str): When it was recorded, as the hash chain writes it: ISO 8601 in UTC with microseconds and
            +00:00 (2026-05-01T19:04:05.123456+00:00).
        idempotency_key (None | str): The command's Idempotency-Key (null: none, or derived).
        caused_by (int | None):
        request_digest (str): A keyed command's sha256 of its request (kind, payload, expected_seq), hashed with it; ""
            for an unkeyed or derived event.
        via (str): How the command came in, hashed with it when set: "token:<id>", "session", "admin", "team-
            link:<side>:<link id>" (followed by ":code-on:<link id>" when the team confirmed with its card's code on the
            other team's phone, or ":code-on:table-<match id>" when it spoke with its card's code on the phone of the
            match's table card), "unpublish"; "" for the server.
        hash_ (str): sha256 of the previous event's hash and this event's fields (docs/events.md).
        hidden (list[str] | Unset): Payload fields hidden from you (shown as null): this event's hash cannot be
            recomputed until they show (a deck, once its deal is over).
    """

    seq: int
    kind: str
    payload: Any
    actor: int | None
    recorded_at: str
    idempotency_key: None | str
    caused_by: int | None
    request_digest: str
    via: str
    hash_: str
    hidden: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        kind = self.kind

        payload = self.payload

        actor: int | None
        actor = self.actor

        recorded_at = self.recorded_at

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        caused_by: int | None
        caused_by = self.caused_by

        request_digest = self.request_digest

        via = self.via

        hash_ = self.hash_

        hidden: list[str] | Unset = UNSET
        if not isinstance(self.hidden, Unset):
            hidden = self.hidden

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "kind": kind,
                "payload": payload,
                "actor": actor,
                "recorded_at": recorded_at,
                "idempotency_key": idempotency_key,
                "caused_by": caused_by,
                "request_digest": request_digest,
                "via": via,
                "hash": hash_,
            }
        )
        if hidden is not UNSET:
            field_dict["hidden"] = hidden

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seq = d.pop("seq")

        kind = d.pop("kind")

        payload = d.pop("payload")

        def _parse_actor(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        actor = _parse_actor(d.pop("actor"))

        recorded_at = d.pop("recorded_at")

        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key"))

        def _parse_caused_by(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        caused_by = _parse_caused_by(d.pop("caused_by"))

        request_digest = d.pop("request_digest")

        via = d.pop("via")

        hash_ = d.pop("hash")

        hidden = cast(list[str], d.pop("hidden", UNSET))

        event = cls(
            seq=seq,
            kind=kind,
            payload=payload,
            actor=actor,
            recorded_at=recorded_at,
            idempotency_key=idempotency_key,
            caused_by=caused_by,
            request_digest=request_digest,
            via=via,
            hash_=hash_,
            hidden=hidden,
        )

        event.additional_properties = d
        return event

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
