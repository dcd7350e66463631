"""Posting to a URL someone else chose (a webhook): one resolution, checked, connected to,
bounded by one deadline, never redirected.

The host is resolved once; every address it has must be globally routable
(:func:`address_refusal`); the connection goes to a checked address, with the URL's host in
the ``Host`` header and, over HTTPS, as the TLS server name (SNI, and the certificate is
checked against it). So a name that answers a public address to the check and a private one
afterwards (DNS rebinding) cannot reach the private one: there is no afterwards.

The whole attempt (resolving, connecting, the TLS handshake, sending, reading the answer's
head and up to ``BODY_CAP`` bytes of its body) ends at one deadline: each socket operation
waits at most what is left of it, so a receiver that trickles a byte at a time is cut off at
the deadline, not at a timeout per read. A redirect is an answer like any other (a 3xx is
not a 2xx): it is never followed. The status is all the caller learns; the body is read only
so that a receiver that answers and then closes is not cut off, and is dropped.

Tests inject the resolver (``resolve``) and watch ``socket.create_connection``; nothing here
caches an answer.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

#: the most of an answer's head (status line and headers) read; more is a failed attempt
HEAD_CAP = 16 * 1024
#: the most of an answer's body read (and dropped)
BODY_CAP = 4 * 1024

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
#: ``resolve(host, port)``: the addresses of ``host`` (raises OSError when it has none)
Resolver = Callable[[str, int], list[str]]

#: IPv6's global unicast space (RFC 4291): anything outside it (site-local ``fec0::/10``,
#: unique-local, link-local, the reserved ``::/8`` with its IPv4 spellings) reaches no
#: receiver on the Internet
_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")
#: IETF protocol assignments (RFC 6890), of which ``is_global`` passes all but the first
#: few: no receiver lives there
_IETF_V4 = ipaddress.ip_network("192.0.0.0/24")
#: the forms that carry an IPv4 address at a known place, and say where it is
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_TEREDO = ipaddress.ip_network("2001::/32")
_MAPPED = ipaddress.ip_network("::ffff:0:0/96")
_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")
_COMPATIBLE = ipaddress.ip_network("::/96")
#: local-use NAT64 (RFC 8215): a network's own translator, whose prefix length (and so where
#: the IPv4 address sits in the address) only that network knows
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
#: the wrapping forms refused whatever they wrap: second spellings of an IPv4 address that a
#: receiver never needs (mapped, translated, the deprecated compatible form), a tunnel that
#: is not globally routable (Teredo), and a translator that is local by definition
_NEVER = (
    (_MAPPED, "an IPv4-mapped IPv6 address"),
    (_TRANSLATED, "an IPv4-translated IPv6 address"),
    (_COMPATIBLE, "an IPv4-compatible IPv6 address"),
    (_TEREDO, "a Teredo address"),
    (_NAT64_LOCAL, "a local-use NAT64 address"),
)


class Refused(ValueError):
    """The URL may not be posted to: not http(s), malformed, or an address not allowed."""


class Failed(Exception):
    """The attempt failed before an answer came: resolving, connecting, TLS, the deadline."""


@dataclass(frozen=True, slots=True)
class Target:
    """Where a URL points, as checked: the host, the port, the path, the addresses."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[Address, ...]

    def host_header(self) -> str:
        """Return the ``Host`` header: the URL's host, with its port unless the default."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


@dataclass(frozen=True, slots=True)
class Answer:
    """What the receiver answered: its status (the body is read up to a cap and dropped)."""

    status: int
    address: str


def embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """Return the IPv4 addresses an IPv6 address carries, in every form that carries one at
    a known place: mapped (``::ffff:a.b.c.d``), translated (``::ffff:0:a.b.c.d``),
    compatible (``::a.b.c.d``), NAT64 (``64:ff9b::a.b.c.d`` and the local-use
    ``64:ff9b:1::/48`` read as the same /96 layout), 6to4 (``2002:AABB:CCDD::``) and Teredo
    (its server and its client); none for any other address.

    >>> embedded_ipv4(ipaddress.IPv6Address("64:ff9b:1::a00:1"))
    (IPv4Address('10.0.0.1'),)
    """
    last32 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _SIX_TO_FOUR:
        return (ipaddress.IPv4Address((int(address) >> 80) & 0xFFFFFFFF),)
    if address.teredo is not None:
        return address.teredo
    if any(address in net for net in (_MAPPED, _TRANSLATED, _COMPATIBLE, _NAT64, _NAT64_LOCAL)):
        return (last32,)
    return ()


def address_refusal(address: Address, *, allow_private: bool) -> str | None:
    """Return why a webhook may not be posted to ``address``, or None if it may.

    An IPv6 address that carries an IPv4 address (:func:`embedded_ipv4`) is unwrapped first:
    it is refused if what it carries would be, whatever the wrapping, so no spelling of a
    private address reaches one. Then only globally routable addresses are allowed:
    ``ipaddress``'s ``is_global`` (for IPv4, less ``192.0.0.0/24``), and for IPv6 the
    global unicast space ``2000::/3`` (so site-local ``fec0::/10``, which ``is_global``
    passes, is refused), with NAT64's well-known ``64:ff9b::/96`` and 6to4 judged by the
    IPv4 address they carry. Refused whatever they carry: the forms in ``_NEVER`` (mapped,
    translated, compatible, Teredo, local-use NAT64). Multicast and unspecified addresses
    are always refused; with ``allow_private`` (WEBHOOKS_ALLOW_PRIVATE_NETWORKS:
    development) any other address is allowed, loopback and private networks included.

    >>> address_refusal(ipaddress.ip_address("100.100.100.200"), allow_private=False)
    'an address that is not globally routable (100.100.100.200)'
    >>> address_refusal(ipaddress.ip_address("::7f00:1"), allow_private=False)
    'an address that is not globally routable (::7f00:1, for 127.0.0.1)'
    >>> address_refusal(ipaddress.ip_address("8.8.8.8"), allow_private=False) is None
    True
    """
    if address.is_multicast or address.is_unspecified:
        return f"a multicast or unspecified address ({address})"
    if allow_private:
        return None
    if isinstance(address, ipaddress.IPv4Address):
        if _routable_v4(address):
            return None
        return f"an address that is not globally routable ({address})"
    for carried in embedded_ipv4(address):
        if not _routable_v4(carried):
            return f"an address that is not globally routable ({address}, for {carried})"
    for network, form in _NEVER:
        if address in network:
            return f"{form} ({address})"
    if address in _NAT64 or address in _SIX_TO_FOUR:
        return None  # judged by the public IPv4 address it carries, above
    if address not in _GLOBAL_UNICAST or not address.is_global:
        return f"an address that is not globally routable ({address})"
    return None


def _routable_v4(address: ipaddress.IPv4Address) -> bool:
    """Whether an IPv4 address (given, or carried in an IPv6 one) may be posted to."""
    return (
        address.is_global
        and not (address.is_multicast or address.is_unspecified)
        and address not in _IETF_V4
    )


def system_resolve(host: str, port: int) -> list[str]:
    """Return the addresses of ``host`` from the system's resolver (raises OSError)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def target(
    url: str,
    *,
    allow_private: bool,
    resolve: Resolver | None = None,
    timeout: float | None = None,
) -> Target:
    """Return where ``url`` points, resolved once and checked; raise Refused (or Failed, when
    the host does not resolve within ``timeout`` seconds)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Refused(f"a malformed URL ({exc})") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused("a webhook URL is http:// or https:// with a host")
    if parts.username is not None or parts.password is not None:
        raise Refused("a webhook URL carries no user name or password")
    host = parts.hostname
    port = port or (443 if parts.scheme == "https" else 80)
    found = _resolve_within(resolve or system_resolve, host, port, timeout)
    addresses: list[Address] = []
    for text in found:
        try:
            address = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError as exc:
            raise Refused(f"the host answered a malformed address ({text!r})") from exc
        refusal = address_refusal(address, allow_private=allow_private)
        if refusal is not None:
            raise Refused(f"the host {host} has {refusal}")
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise Failed(f"the host {host} has no address")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, host, port, path, tuple(addresses))


def _resolve_within(resolve: Resolver, host: str, port: int, timeout: float | None) -> list[str]:
    """Return ``resolve(host, port)``, or raise Failed if it takes longer than ``timeout``.

    The system resolver takes no timeout: it runs in a thread that is abandoned (it ends by
    itself) when the deadline passes first.
    """
    if timeout is None:
        try:
            return list(resolve(host, port))
        except OSError as exc:
            raise Failed(f"the host {host} does not resolve ({exc})") from exc
    result: list[list[str] | BaseException] = []

    def run() -> None:
        try:
            result.append(list(resolve(host, port)))
        except BaseException as exc:  # handed to the waiting thread
            result.append(exc)

    worker = threading.Thread(target=run, daemon=True, name="webhook-resolve")
    worker.start()
    worker.join(max(timeout, 0))
    if not result:
        raise Failed(f"the host {host} did not resolve in time")
    if isinstance(result[0], OSError):
        raise Failed(f"the host {host} does not resolve ({result[0]})") from result[0]
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]


def post(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    deadline_seconds: float,
    allow_private: bool,
    resolve: Resolver | None = None,
) -> Answer:
    """POST ``body`` to ``url`` as the module says; return the answer's status.

    Raises Refused (the URL or an address of its host is not allowed) or Failed (no answer
    by the deadline, a network or TLS error, an answer that is not HTTP).
    """
    deadline = time.monotonic() + deadline_seconds
    checked = target(url, allow_private=allow_private, resolve=resolve, timeout=deadline_seconds)
    sock = _connect(checked, deadline)
    try:
        if checked.scheme == "https":
            sock.settimeout(_left(deadline))
            context = ssl.create_default_context()  # verifies the chain and the host name
            try:
                sock = context.wrap_socket(sock, server_hostname=checked.host)
            except ssl.SSLError as exc:
                raise Failed(f"TLS: {exc}") from exc
        address = str(sock.getpeername()[0])
        lines = [
            f"POST {checked.path} HTTP/1.1",
            f"Host: {checked.host_header()}",
            f"Content-Length: {len(body)}",
            "Connection: close",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        sock.settimeout(_left(deadline))
        sock.sendall(request)  # one timeout for the whole send (socket.sendall)
        status = _read_answer(sock, deadline)
        return Answer(status, address)
    except TimeoutError as exc:
        raise Failed(f"no answer within {deadline_seconds:g} s") from exc
    except OSError as exc:
        raise Failed(f"{type(exc).__name__}: {exc}") from exc
    finally:
        sock.close()


def _left(deadline: float) -> float:
    """Return the seconds left until ``deadline``; raise TimeoutError when none are."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the deadline passed")
    return left


def _connect(checked: Target, deadline: float) -> socket.socket:
    """Return a socket connected to the first checked address that answers by the deadline."""
    errors = []
    for address in checked.addresses:
        try:
            left = _left(deadline)
        except TimeoutError as exc:
            raise Failed(f"could not connect to {checked.host} in time") from exc
        try:
            return socket.create_connection((str(address), checked.port), timeout=left)
        except OSError as exc:
            errors.append(f"{address}: {exc}")
    raise Failed(f"could not connect to {checked.host} ({'; '.join(errors)})")


def _read_answer(sock: socket.socket, deadline: float) -> int:
    """Return the status of the answer on ``sock``, reading at most the caps by the deadline."""
    buffer = b""
    while True:
        while b"\r\n\r\n" not in buffer:
            if len(buffer) > HEAD_CAP:
                raise Failed(f"the answer's head is longer than {HEAD_CAP} bytes")
            sock.settimeout(_left(deadline))
            chunk = sock.recv(4096)
            if not chunk:
                raise Failed("the connection closed before a whole answer came")
            buffer += chunk
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = status_line.split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            raise Failed(f"not an HTTP answer ({status_line[:60]!r})")
        status = int(parts[1])
        if 100 <= status < 200:
            continue  # an interim answer (100 Continue): the real one follows
        break
    _drain(sock, buffer, _body_length(status, head), deadline)
    return status


def _body_length(status: int, head: bytes) -> int | None:
    """Return how long the answer's body is (None: until the connection closes, or chunked)."""
    if status in (204, 304):
        return 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            return int(value.strip())
    return None


def _drain(sock: socket.socket, already: bytes, length: int | None, deadline: float) -> None:
    """Read the body up to ``BODY_CAP`` bytes (or its ``length``), by the deadline at most,
    and drop it."""
    wanted = BODY_CAP if length is None else min(length, BODY_CAP)
    read = len(already)
    try:
        while read < wanted and not already.endswith(b"0\r\n\r\n"):
            sock.settimeout(_left(deadline))
            chunk = sock.recv(wanted - read)
            if not chunk:
                return
            read += len(chunk)
            already = already[-8:] + chunk
    except OSError:
        return  # the status came: a body cut short changes nothing
