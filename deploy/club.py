"""``make club``: a club night served from a laptop to the players' phones (docs/deploy.md,
"A club night on a laptop").

It finds the laptop's address on the club's network (or takes ``CLUB_HOST``), keeps the
evening in a database of its own (``club.sqlite3``, not the demo's; ``DATABASE_URL``
overrides), makes the first organizer and their club on the spot when the database has none
(``manage.py first_run``'s path: asked on the terminal, or ``CLUB_ORGANIZER``, ``CLUB_NAME``,
``FIRST_RUN_PASSWORD`` and ``CLUB_TIME_ZONE`` from the environment), prints the address with
a QR code of the desk for the phones, and serves with gunicorn (one process, tasks run in it,
plain HTTP on the room's network).

Every team's link and card is built from ``SITE_URL``, set here to the address the phones
reach: a card printed on the laptop holds ``http://192.168.1.20:8000/l/…``, never
``127.0.0.1``. When the laptop's address changes (another network, a phone's hotspot), stop
it and run ``make club`` again, then print the round's cards again: the links are the same,
only the address in front of them changes.

Defaults, each one only if the variable is unset or empty:

- ``CLUB_HOST``: the first global IPv4 address of the machine (``ip``, else the host name's).
- ``PORT=8000``; ``CLUB_BIND=0.0.0.0:$PORT`` (every address of the laptop, so a browser on it
  can use ``localhost`` too); ``SITE_URL=http://$CLUB_HOST:$PORT``.
- ``ALLOWED_HOSTS=$CLUB_HOST,localhost,127.0.0.1``.
- ``SECRET_KEY_FILE=.club-secret-key`` and ``RECEIPT_SIGNING_KEY_FILE=.receipt-signing-key``:
  made if missing, ignored by git, kept across restarts.
- Plain HTTP (a room's network has no certificate): the HTTPS redirect, HSTS and the secure
  cookie flags off.
- HTTPS when the club has a certificate for the name the phones use (``CLUB_CERTFILE`` and
  ``CLUB_KEYFILE``, PEM files; ``CLUB_HOST`` then that name, e.g. ``seep.myclub.in`` pointed
  at the laptop's address): gunicorn serves TLS itself, ``SITE_URL=https://$CLUB_HOST:$PORT``,
  the cookies secure. Browsers keep a page's offline copy (its service worker) only over
  HTTPS or on ``localhost``: with plain HTTP a phone that closes the page offline cannot
  reopen it until the network is back (its unsent entries wait in it all the same).
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from deploy.stack import REPO, local_keys

DEFAULTS = {
    "DATABASE_URL": "sqlite:///club.sqlite3",
    "PORT": "8000",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_HSTS_SECONDS": "0",
    "SESSION_COOKIE_SECURE": "0",
    "CSRF_COOKIE_SECURE": "0",
    "LOG_FORMAT": "PLAIN",
    "WEB_CONCURRENCY": "1",  # one process: the tasks run in it, beside SQLite's one writer
    "WEB_THREADS": "8",
    "PYTHONUNBUFFERED": "1",
}


def _usable(text: str) -> bool:
    """Whether ``text`` is an IPv4 address another device on the network could reach."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    return (
        address.version == 4
        and not address.is_loopback
        and not address.is_link_local
        and not address.is_unspecified
        and not address.is_multicast
    )


def network_addresses(
    run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
) -> list[str]:
    """Return this machine's IPv4 addresses that other devices could reach, best first:
    from ``ip -4 -o addr show scope global`` where there is ``ip``, else the host name's."""
    found: list[str] = []
    if shutil.which("ip"):
        try:
            shown = run(
                ["ip", "-4", "-o", "addr", "show", "scope", "global"],
                capture_output=True,
                text=True,
                timeout=5,
                check=False,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            shown = ""
        for line in shown.splitlines():
            words = line.split()
            if "inet" in words and words.index("inet") + 1 < len(words):
                found.append(words[words.index("inet") + 1].split("/")[0])
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        except OSError:
            infos = []
        found = [str(info[4][0]) for info in infos]
    return list(dict.fromkeys(a for a in found if _usable(a)))


def environment(env: Mapping[str, str], addresses: Callable[[], list[str]]) -> dict[str, str]:
    """Return the environment the club night is served with (``env`` plus the defaults)."""
    out = dict(env)
    for name, value in DEFAULTS.items():
        if not out.get(name, "").strip() and not out.get(f"{name}_FILE", "").strip():
            out[name] = value
    host = out.get("CLUB_HOST", "").strip()
    if not host:
        found = addresses()
        if not found:
            raise SystemExit(
                "club: this computer has no address on a network: join the club's Wi-Fi (or "
                "turn on a phone's hotspot and join it), then run make club again; or say "
                "the address with CLUB_HOST=192.168.1.20 make club"
            )
        host = found[0]
    out["CLUB_HOST"] = host
    port = out["PORT"]
    named = f"[{host}]" if ":" in host else host
    tls = _certificate(out)
    if tls:  # the cookies go over HTTPS only (gunicorn serves TLS: no proxy, no redirect)
        out["SESSION_COOKIE_SECURE"] = out["CSRF_COOKIE_SECURE"] = "1"
    if not out.get("SITE_URL", "").strip():
        out["SITE_URL"] = f"{'https' if tls else 'http'}://{named}:{port}"
    if not out.get("CLUB_BIND", "").strip():
        out["CLUB_BIND"] = f"0.0.0.0:{port}"
    out["WEB_BIND"] = out["CLUB_BIND"]
    if not out.get("ALLOWED_HOSTS", "").strip():
        out["ALLOWED_HOSTS"] = f"{host},localhost,127.0.0.1"
    local_keys(out, ".club-secret-key")
    out.pop("DEBUG", None)  # never on a network: no tracebacks for the room
    # the tasks run in the one process (no broker, no worker to start), the pages poll
    out.pop("REDIS_URL", None)
    out.pop("LIVE_PUSH", None)
    out["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{out.get('PATH', '')}"
    return out


def _certificate(env: Mapping[str, str]) -> bool:
    """Whether the club night is served over HTTPS: both ``CLUB_CERTFILE`` and
    ``CLUB_KEYFILE`` name readable files (one without the other, or a missing file, is
    refused in words before anything starts)."""
    cert, key = env.get("CLUB_CERTFILE", "").strip(), env.get("CLUB_KEYFILE", "").strip()
    if not cert and not key:
        return False
    if not (cert and key):
        raise SystemExit(
            "club: HTTPS needs both CLUB_CERTFILE (the certificate, PEM) and CLUB_KEYFILE (its "
            "private key, PEM); set both, or neither for plain HTTP"
        )
    for name, path in (("CLUB_CERTFILE", cert), ("CLUB_KEYFILE", key)):
        if not os.access(path, os.R_OK):
            raise SystemExit(f"club: {name}={path} is not a file this user can read")
    return True


def gunicorn_arguments(env: Mapping[str, str]) -> list[str]:
    """gunicorn's arguments: the deployment's configuration, and TLS with the club's
    certificate when it has one."""
    tls = _certificate(env)
    extra = ["--certfile", env["CLUB_CERTFILE"], "--keyfile", env["CLUB_KEYFILE"]] if tls else []
    return ["-c", "python:deploy.gunicorn", *extra, "deploy.wsgi"]


def _has_organizer(manage: list[str], env: dict[str, str]) -> bool:
    check = (
        "from django.contrib.auth import get_user_model;"
        "print(get_user_model()._default_manager.filter(is_superuser=True).exists())"
    )
    shown = subprocess.run(
        [*manage, "shell", "-c", check],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return shown.strip().endswith("True")


def _ask(env: dict[str, str], name: str, question: str, default: str = "") -> str:
    given = env.get(name, "").strip()
    if given:
        return given
    if not sys.stdin.isatty():
        raise SystemExit(f"club: {question}? Set {name} (no terminal to ask on)")
    suffix = f" [{default}]" if default else ""
    while True:
        answer = input(f"{question}{suffix}: ").strip() or default
        if answer:
            return answer


def _machine_zone() -> str:
    """The laptop's own time zone (the club's, most likely), or UTC."""
    zone = os.environ.get("TZ", "").strip().lstrip(":")
    if zone:
        return zone
    try:
        target = os.readlink("/etc/localtime")
    except OSError:
        return "UTC"
    return target.split("zoneinfo/", 1)[1] if "zoneinfo/" in target else "UTC"


def first_organizer(manage: list[str], env: dict[str, str]) -> None:
    """Make the evening's organizer and club (first_run), asking on the terminal."""
    print("club: a new evening database. The organizer signs in at the desk with these.")
    username = _ask(env, "CLUB_ORGANIZER", "The organizer's user name")
    club = _ask(env, "CLUB_NAME", "The club's name")
    zone = _ask(env, "CLUB_TIME_ZONE", "The club's time zone", _machine_zone())
    subprocess.run(
        [*manage, "first_run", "--username", username, "--club", club, "--time-zone", zone],
        cwd=REPO,
        env=env,
        check=True,
    )


def banner(env: Mapping[str, str]) -> str:
    """What the organizer reads before the evening: where the desk is, for the laptop and
    for the phones, and a QR code of it to scan."""
    import segno

    desk = f"{env['SITE_URL']}/desk/"
    code = segno.make(desk, error="m", micro=False)
    lines = [
        "",
        f"club: serving the evening on {env['SITE_URL']}/ (the club's network)",
        f"  the desk:   {desk}   (sign in as the organizer)",
        "  the phones: scan their team's card (the desk prints them); every card holds "
        f"{env['SITE_URL']}",
        "  this QR code opens the desk on a phone on the same Wi-Fi:",
    ]
    import io

    drawn = io.StringIO()
    code.terminal(out=drawn, compact=True, border=2)
    lines.append(drawn.getvalue())
    lines.append(
        "  A phone that cannot open it is on another network: join the club's Wi-Fi (or the "
        "laptop's hotspot). If this computer's address changes, stop (Ctrl-C), run make club "
        "again and print the cards again."
    )
    return "\n".join(lines)


def main() -> None:
    env = environment(os.environ, network_addresses)
    manage = [sys.executable, str(REPO / "manage.py")]
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput", "--verbosity", "0"]):
        subprocess.run([*manage, *step], cwd=REPO, env=env, check=True, stdout=subprocess.DEVNULL)
    if not _has_organizer(manage, env):
        first_organizer(manage, env)
    print(banner(env), flush=True)
    gunicorn = shutil.which("gunicorn", path=env["PATH"])
    if gunicorn is None:
        sys.exit("club: gunicorn is not installed (make .venv/.installed installs it)")
    os.chdir(REPO)
    os.execve(gunicorn, [gunicorn, *gunicorn_arguments(env)], env)


if __name__ == "__main__":
    main()
