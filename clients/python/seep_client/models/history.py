from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="History")


@_attrs_define
class History:
    """One event of a match's whole history, for its directors: who, when, through what.

    Attributes:
        seq (int):
        kind (str):
        payload (Any):
        actor (int | None):
        actor_name (None | str):
        via (str): How the command came in, hashed with it when set: "token:<id>", "session", "admin", "team-
            link:<side>:<link id>" (followed by ":code-on:<link id>" when the team confirmed with its card's code on the
            other team's phone, or ":code-on:table-<match id>" when it spoke with its card's code on the phone of the
            match's table card), "unpublish"; "" for the server.
        recorded_at (str): When it was recorded, as the hash chain writes it: ISO 8601 in UTC with microseconds and
            +00:00 (2026-05-01T19:04:05.123456+00:00).
        caused_by (int | None):
        idempotency_key (None | str):
        request_digest (str): A keyed command's sha256 of its request (kind, payload, expected_seq), hashed with it; ""
            for an unkeyed or derived event.
        hash_ (str): sha256 of the previous event's hash and this event's fields (docs/events.md).
    """

    seq: int
    kind: str
    payload: Any
    actor: int | None
    actor_name: None | str
    via: str
    recorded_at: str
    caused_by: int | None
    idempotency_key: None | str
    request_digest: str
    hash_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        kind = self.kind

        payload = self.payload

        actor: int | None
        actor = self.actor

        actor_name: None | str
        actor_name = self.actor_name

        via = self.via

        recorded_at = self.recorded_at

        caused_by: int | None
        caused_by = self.caused_by

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        request_digest = self.request_digest

        hash_ = self.hash_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "kind": kind,
                "payload": payload,
                "actor": actor,
                "actor_name": actor_name,
                "via": via,
                "recorded_at": recorded_at,
                "caused_by": caused_by,
                "idempotency_key": idempotency_key,
                "request_digest": request_digest,
                "hash": hash_,
            }
        )

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

        def _parse_actor_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_name = _parse_actor_name(d.pop("actor_name"))

        via = d.pop("via")

        recorded_at = d.pop("recorded_at")

        def _parse_caused_by(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        caused_by = _parse_caused_by(d.pop("caused_by"))

        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key"))

        request_digest = d.pop("request_digest")

        hash_ = d.pop("hash")

        history = cls(
            seq=seq,
            kind=kind,
            payload=payload,
            actor=actor,
            actor_name=actor_name,
            via=via,
            recorded_at=recorded_at,
            caused_by=caused_by,
            idempotency_key=idempotency_key,
            request_digest=request_digest,
            hash_=hash_,
        )

        history.additional_properties = d
        return history

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
