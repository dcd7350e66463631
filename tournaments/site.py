"""The address the players' phones reach this server by (docs/deploy.md, "A club night").

A team's card is printed on the organizer's laptop, but scanned by phones on the club's
network: its link must hold the address they reach, not the one the laptop used. With
``SITE_URL`` set (``make club`` sets the laptop's network address) every link handed to
someone else is built from it; without it, from the request (a deployment reached by its own
host name). :func:`unreachable_host` names a link's host that no other device can reach, so
the pages that print links can say so in words.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest

#: host names that mean "this machine" to whoever reads them
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def absolute_url(request: HttpRequest, path: str) -> str:
    """Return ``path`` (absolute, from ``reverse``) as a whole address others can open."""
    base = getattr(settings, "SITE_URL", "")
    if base:
        return base + path
    return request.build_absolute_uri(path)


def unreachable_host(url: str) -> str | None:
    """Return the host of ``url`` if no other device could reach it (this machine's own name
    for itself: loopback, ``localhost``, an unspecified address), else None."""
    host = (urlsplit(url).hostname or "").lower()
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        return host
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    return host if address.is_loopback or address.is_unspecified else None
