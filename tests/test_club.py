"""``make club`` (deploy/club.py): a club night served from a laptop to the players' phones,
its links built from the address they reach, and ``SITE_URL`` checked where it is read."""

from __future__ import annotations

import os
import shutil
import socket
import ssl
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


def test_a_club_with_a_certificate_is_served_over_https(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_text("certificate")
    key.write_text("key")
    env = club.environment(
        {"CLUB_HOST": "seep.myclub.in", "CLUB_CERTFILE": str(cert), "CLUB_KEYFILE": str(key)},
        lambda: ["192.168.1.20"],
    )
    assert env["SITE_URL"] == "https://seep.myclub.in:8000"  # the name the certificate is for
    assert env["SESSION_COOKIE_SECURE"] == env["CSRF_COOKIE_SECURE"] == "1"
    arguments = club.gunicorn_arguments(env)
    assert arguments[-1] == "deploy.wsgi"
    assert arguments[arguments.index("--certfile") + 1] == str(cert)
    assert arguments[arguments.index("--keyfile") + 1] == str(key)
    assert "--certfile" not in club.gunicorn_arguments({})  # plain HTTP without one


@pytest.mark.parametrize("missing", ["CLUB_KEYFILE", "a file"])
def test_half_a_certificate_is_refused_in_words_before_anything_starts(
    tmp_path: Path, missing: str
) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_text("certificate")
    given = {"CLUB_HOST": "10.0.0.7", "CLUB_CERTFILE": str(cert)}
    if missing == "a file":
        given["CLUB_KEYFILE"] = str(tmp_path / "nowhere.pem")
    with pytest.raises(SystemExit) as stopped:
        club.environment(given, lambda: [])
    said = str(stopped.value)
    assert ("needs both" in said) if missing == "CLUB_KEYFILE" else ("nowhere.pem" in said)


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


def _club_server(tmp_path: Path, host: str, port: int, **more: str) -> subprocess.Popen[str]:
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
        **more,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "deploy.club"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )


def _first_answer(
    server: subprocess.Popen[str], url: str, context: ssl.SSLContext | None = None
) -> Any:
    """The server's first answer to ``url`` (an HTTP error is an answer), once it listens."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            return urllib.request.urlopen(url, timeout=5, context=context)
        except urllib.error.HTTPError as exc:
            return exc
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.5)
    return None


@pytest.mark.process
@pytest.mark.slow
def test_make_club_serves_https_with_the_clubs_certificate(tmp_path: Path) -> None:
    """With a certificate for the address the phones use, the pages, the cookies and the
    phone app's service worker (which browsers take only over HTTPS on another machine) are
    served over TLS by gunicorn itself; a phone that trusts the certificate verifies it."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl here to make a certificate")
    host = "127.0.0.2"
    try:
        port = _free_port(host)
    except OSError:
        pytest.skip("no second loopback address here")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", f"/CN={host}", "-addext", f"subjectAltName=IP:{host}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    server = _club_server(tmp_path, host, port, CLUB_CERTFILE=str(cert), CLUB_KEYFILE=str(key))
    trusted = ssl.create_default_context(cafile=str(cert))  # the phone trusts it: verified
    try:
        answer = _first_answer(server, f"https://{host}:{port}/login/", trusted)
        assert answer is not None and answer.status == 200, server.poll()
        cookies = answer.headers.get_all("Set-Cookie") or []
        assert cookies and all("Secure" in c for c in cookies), cookies
        worker = urllib.request.urlopen(f"https://{host}:{port}/keep/sw.js", context=trusted)
        assert worker.status == 200 and "javascript" in worker.headers["Content-Type"]
        with pytest.raises(OSError):  # plain HTTP is not served on that port
            urllib.request.urlopen(f"http://{host}:{port}/login/", timeout=5)
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert f"serving the evening on https://{host}:{port}/" in output


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
    server = _club_server(tmp_path, host, port)
    try:
        answer = _first_answer(server, f"http://{host}:{port}/desk/")
        assert answer is not None, server.poll()
        assert answer.url == f"http://{host}:{port}/login/?next=/desk/"  # sign in first
        login = urllib.request.urlopen(f"http://{host}:{port}/", timeout=5).read().decode()
        assert "director's desk" in login
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert "Made the organizer 'ravi'" in output
    assert f"serving the evening on http://{host}:{port}/" in output
