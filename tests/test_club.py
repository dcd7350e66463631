"""``make club`` (deploy/club.py): a club night served from a laptop to the players' phones,
its links built from the address they reach, and ``SITE_URL`` checked where it is read."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from deploy import club

from .test_settings import loaded, refused

REPO = Path(__file__).resolve().parent.parent

IP_SHOWN = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: wlan0    inet 169.254.3.4/16 brd 169.254.255.255 scope global wlan0\\       valid_lft forever
3: wlan0    inet 192.168.1.20/24 brd 192.168.1.255 scope global dynamic wlan0\\   valid_lft 8h
4: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\       valid_lft forever
"""


def shown(text: str) -> Any:
    def run(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 0, stdout=text, stderr="")

    return run


def test_the_network_addresses_are_the_ones_other_devices_reach() -> None:
    if not club.shutil.which("ip"):
        pytest.skip("no ip command here")
    found = club.network_addresses(shown(IP_SHOWN))
    assert found == ["192.168.1.20", "172.17.0.1"]  # no loopback, no link-local


def test_the_club_night_is_served_on_the_laptops_address() -> None:
    env = club.environment({"PATH": "/usr/bin"}, lambda: ["192.168.1.20"])
    assert env["SITE_URL"] == "http://192.168.1.20:8000"
    assert env["ALLOWED_HOSTS"] == "192.168.1.20,localhost,127.0.0.1"
    assert env["WEB_BIND"] == "0.0.0.0:8000"
    assert env["DATABASE_URL"] == "sqlite:///club.sqlite3"  # not the demo's database
    assert env["SECURE_SSL_REDIRECT"] == "0" and env["SESSION_COOKIE_SECURE"] == "0"
    assert "DEBUG" not in env
    assert Path(env["SECRET_KEY_FILE"]).name == ".club-secret-key"


def test_what_the_organizer_says_wins_over_what_it_finds() -> None:
    env = club.environment(
        {
            "CLUB_HOST": "10.0.0.7",
            "PORT": "8080",
            "DEBUG": "1",
            "DATABASE_URL": "sqlite:///x",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
        },
        lambda: ["192.168.1.20"],
    )
    assert env["SITE_URL"] == "http://10.0.0.7:8080"
    assert env["ALLOWED_HOSTS"].startswith("10.0.0.7,")
    assert env["DATABASE_URL"] == "sqlite:///x"
    assert "DEBUG" not in env  # never tracebacks on the room's network
    assert "REDIS_URL" not in env  # the tasks run in the one process: no worker to start


def test_a_laptop_on_no_network_is_told_what_to_do() -> None:
    with pytest.raises(SystemExit) as stopped:
        club.environment({}, lambda: [])
    assert "join the club's Wi-Fi" in str(stopped.value) and "CLUB_HOST" in str(stopped.value)


def test_the_banner_gives_the_desk_and_its_qr_code() -> None:
    text = club.banner({"SITE_URL": "http://192.168.1.20:8000"})
    assert "http://192.168.1.20:8000/desk/" in text
    assert "█" in text or "▀" in text  # the QR code, drawn in the terminal


@pytest.mark.parametrize(
    "value",
    [
        "192.168.1.20:8000",
        "ftp://192.168.1.20",
        "http://192.168.1.20:8000/club/",
        "http://192.168.1.20:99999",
        "http://user@192.168.1.20",
        "http://",
    ],
)
def test_a_site_url_that_is_not_an_address_is_refused_by_name(value: str) -> None:
    assert "SITE_URL must be the address phones reach" in refused({"DEBUG": "1", "SITE_URL": value})


def test_a_site_url_is_kept_as_scheme_host_and_port() -> None:
    report = loaded({"DEBUG": "1", "SITE_URL": "http://192.168.1.20:8000/"})
    assert report is not None


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@pytest.mark.process
@pytest.mark.slow
def test_make_club_serves_a_fresh_evening_to_another_address(tmp_path: Path) -> None:
    """The real thing: a new database, the organizer made from the environment, gunicorn
    bound to an address that is not the one the request comes from (a second loopback
    address stands in for the laptop's Wi-Fi address), the desk reached through it."""
    host = "127.0.0.2"
    try:
        port = _free_port(host)
    except OSError:
        pytest.skip("no second loopback address here")
    env = {
        "PATH": os.environ.get("PATH", ""),
        "CLUB_HOST": host,
        "CLUB_BIND": f"{host}:{port}",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "CLUB_ORGANIZER": "ravi",
        "CLUB_NAME": "Friday Seep",
        "CLUB_TIME_ZONE": "Asia/Kolkata",
        "FIRST_RUN_PASSWORD": "a-long-pass-phrase-77",
        "SECRET_KEY": "club-test-" + "k" * 50,
        "RECEIPT_SIGNING_KEY": os.environ["RECEIPT_SIGNING_KEY"],
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "deploy.club"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        answer = None
        while time.monotonic() < deadline:
            try:
                answer = urllib.request.urlopen(f"http://{host}:{port}/desk/", timeout=5)
                break
            except urllib.error.HTTPError as exc:
                answer = exc
                break
            except OSError:
                if server.poll() is not None:
                    break
                time.sleep(0.5)
        assert answer is not None, server.stdout.read() if server.stdout else ""
        assert answer.url == f"http://{host}:{port}/login/?next=/desk/"  # sign in first
        login = urllib.request.urlopen(f"http://{host}:{port}/", timeout=5).read().decode()
        assert "director's desk" in login
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert "Made the organizer 'ravi'" in output
    assert f"serving the evening on http://{host}:{port}/" in output
