"""Every IPv6 spelling of a private IPv4 address is refused to a webhook (issue 40, finding 6).

``api.outbound.address_refusal`` is the one check: the subscription's (``api.webhooks``) and
each delivery's (``api.outbound.post``, on the one resolution it connects with) both go
through ``api.outbound.target``, which applies it to every address of the host. Hypothesis
draws IPv4 addresses that are not globally routable and wraps each in every form that
carries an IPv4 address; public ones wrapped in NAT64 or 6to4 are judged by their IPv4 part,
and the other wrappings (never needed, or not globally routable) are refused as such.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from api import outbound

V4 = ipaddress.IPv4Address
V6 = ipaddress.IPv6Address

#: IPv4 space that is not globally routable: private, loopback, link-local, shared,
#: "this network", benchmarking, documentation, reserved
NOT_GLOBAL = [
    ipaddress.ip_network(net)
    for net in (
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16",
        "100.64.0.0/10", "0.0.0.0/8", "192.0.0.0/24", "198.18.0.0/15", "192.0.2.0/24",
        "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4",
    )
]  # fmt: skip


def within(network: ipaddress.IPv4Network) -> st.SearchStrategy[V4]:
    return st.integers(0, network.num_addresses - 1).map(lambda i: network[i])


not_global_v4 = st.sampled_from(NOT_GLOBAL).flatmap(within)
#: public addresses: any host of a few /8s allocated to the Internet's registries
public_v4 = st.builds(
    lambda first, rest: V4(first << 24 | rest),
    st.sampled_from([1, 8, 23, 45, 66, 93, 104, 151, 185, 212]),
    st.integers(0, 2**24 - 1),
).filter(lambda a: a.is_global)
any_v4 = st.integers(0, 2**32 - 1).map(V4)
bits = st.integers  # for the parts of a wrapping that carry no address


def wrapped(v4: V4, form: str, filler: int, other: V4) -> V6:
    """``v4`` in IPv6 ``form``; ``filler`` fills the bits the form leaves free, ``other`` is
    Teredo's second IPv4 address."""
    x = int(v4)
    free = {
        "mapped": 0xFFFF << 32,
        "translated": 0xFFFF << 48,
        "compatible": 0,
        "nat64": int(V6("64:ff9b::")),
        "nat64-local": int(V6("64:ff9b:1::")) | (filler % 2**48) << 32,
        "6to4": 0x2002 << 112 | filler % 2**80,
    }
    if form in free:
        return V6(free[form] | (x << 80 if form == "6to4" else x))
    teredo = 0x20010000 << 96 | (filler % 2**32) << 32  # flags and port
    if form == "teredo-server":
        return V6(teredo | x << 64 | (~int(other) & 0xFFFFFFFF))
    return V6(teredo | int(other) << 64 | (~x & 0xFFFFFFFF))  # the client, obfuscated


FORMS = ["mapped", "translated", "compatible", "nat64", "nat64-local", "6to4"]
FORMS += ["teredo-server", "teredo-client"]


def refusal(address: ipaddress.IPv4Address | V6) -> str | None:
    return outbound.address_refusal(address, allow_private=False)


@given(not_global_v4, st.sampled_from(FORMS), bits(0, 2**80), public_v4)
@example(V4("0.0.0.0"), "compatible", 0, V4("1.0.0.0"))  # "::" (hypothesis found it in CI)
def test_a_private_ipv4_address_is_refused_in_every_wrapping(
    v4: V4, form: str, filler: int, other: V4
) -> None:
    address = wrapped(v4, form, filler, other)
    assert outbound.embedded_ipv4(address)  # the form is one that is unwrapped
    assert refusal(v4) is not None
    if address.is_unspecified:  # 0.0.0.0 in the compatible form is "::", refused as itself
        assert refusal(address) == "a multicast or unspecified address (::)"
    else:
        assert refusal(address) == f"an address that is not globally routable ({address}, for {v4})"


@given(any_v4, st.sampled_from(["nat64", "6to4"]), bits(0, 2**80))
def test_nat64_and_6to4_are_judged_by_the_ipv4_address_they_carry(
    v4: V4, form: str, filler: int
) -> None:
    address = wrapped(v4, form, filler, v4)
    assert (refusal(address) is None) == (refusal(v4) is None)


@given(
    public_v4, st.sampled_from(sorted(set(FORMS) - {"nat64", "6to4"})), bits(0, 2**80), public_v4
)
def test_the_other_wrappings_of_a_public_address_are_refused_for_their_form(
    v4: V4, form: str, filler: int, other: V4
) -> None:
    """Mapped, translated and compatible are second spellings a receiver never needs,
    Teredo is not globally routable, a local-use NAT64 prefix is a network's own: refused
    as such, never as the public address they carry."""
    address = wrapped(v4, form, filler, other)
    reason = refusal(address)
    assert reason is not None and "not globally routable" not in reason


@given(st.integers(int(V6("fec0::")), int(V6("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"))))
def test_site_local_is_refused(number: int) -> None:
    assert refusal(V6(number)) is not None


@pytest.mark.parametrize(
    "address", ["::7f00:1", "::a00:1", "::ffff:0:7f00:1", "64:ff9b:1::a00:1", "fec0::1"]
)
def test_the_spellings_of_issue_40_are_refused_when_a_delivery_resolves_them(
    address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The delivery's own check, on the resolution it would connect with (a name that
    answered a public address when the webhook was saved answers this one now)."""
    connected: list[Any] = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connected.append(a))
    with pytest.raises(outbound.Refused, match="not globally routable"):
        outbound.post(
            "https://hooks.example.org/in", b"{}", {},
            deadline_seconds=5, allow_private=False, resolve=lambda host, port: [address],
        )  # fmt: skip
    assert connected == []


def test_public_ipv6_stays_allowed() -> None:
    for text in ("2606:4700::1111", "2a00:1450:4001::1", "2002:808:808::", "64:ff9b::808:808"):
        assert refusal(ipaddress.ip_address(text)) is None, text
