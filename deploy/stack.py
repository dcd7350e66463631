"""``make stack``: the production processes on this machine, from deploy/Procfile through honcho.

Fills in what a local stack needs and the environment did not say, creates the PostgreSQL
database if it is missing, migrates, collects the static files, and then becomes
``honcho start`` with one web (gunicorn, ``WEB_CONCURRENCY`` workers), ``STACK_WORKERS``
Celery workers (default 2) for scoring, one Celery worker for the webhook deliveries (a queue
of its own), one beat, and one push (uvicorn, deploy/push.py: the live streams, in
``PUSH_PROCESSES`` processes, default 2, on the one port ``PUSH_PORT``, default ``PORT`` + 1;
the pages connect there, ``LIVE_PUSH_ORIGIN``, and may read them from ``PORT`` exactly,
``PUSH_CORS_ORIGINS``). Each has a concurrency setting of its own: ``WEB_CONCURRENCY``
reaches every process, and only gunicorn reads it. Ctrl-C
(or SIGTERM to honcho) stops them all gracefully: gunicorn finishes its requests, each worker
its tasks.

``python -m deploy.stack manage <command> ...`` runs one ``manage.py`` command with the same
settings (the first organizer: ``manage first_run``; README.md).

Defaults (each one only if the variable is unset or empty; honcho also reads ``.env``):

- ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/seep_stack``,
  ``REDIS_URL=redis://127.0.0.1:6379/0``: the local servers.
- ``SECRET_KEY_FILE=.stack-secret-key`` and ``RECEIPT_SIGNING_KEY_FILE=.receipt-signing-key``:
  keys of the checkout's own, made if missing, ignored by git, kept across restarts (the
  secret key also proves the snapshots: a new one would leave every snapshot unproven).
- ``ALLOWED_HOSTS=localhost,127.0.0.1``, ``PORT=8000``, ``WEB_CONCURRENCY=3``.
- Plain HTTP on localhost: ``SECURE_SSL_REDIRECT``, ``SECURE_HSTS_SECONDS``,
  ``SESSION_COOKIE_SECURE`` and ``CSRF_COOKIE_SECURE`` off. Behind a TLS proxy, set them
  (and ``SECURE_PROXY_SSL_HEADER``) as production does.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent

DEFAULTS = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/seep_stack",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "ALLOWED_HOSTS": "localhost,127.0.0.1",
    "PORT": "8000",
    "WEB_CONCURRENCY": "3",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_HSTS_SECONDS": "0",
    "SESSION_COOKIE_SECURE": "0",
    "CSRF_COOKIE_SECURE": "0",
    "PYTHONUNBUFFERED": "1",  # lines reach honcho as they are written
    # the pages listen to the push process (its own port here: no proxy routes /push/)
    "LIVE_PUSH": "1",
}


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    for name, value in DEFAULTS.items():
        if not env.get(name, "").strip() and not env.get(f"{name}_FILE", "").strip():
            env[name] = value
    local_keys(env, ".stack-secret-key")
    if not env.get("PUSH_PORT", "").strip():
        env["PUSH_PORT"] = str(int(env["PORT"]) + 1)
    if not env.get("LIVE_PUSH_ORIGIN", "").strip():
        env["LIVE_PUSH_ORIGIN"] = f"http://127.0.0.1:{env['PUSH_PORT']}"
    if not env.get("PUSH_CORS_ORIGINS", "").strip():  # the pages, on the web port exactly
        env["PUSH_CORS_ORIGINS"] = f"http://127.0.0.1:{env['PORT']},http://localhost:{env['PORT']}"
    # The venv's programs (gunicorn, celery, honcho) first, as the Procfile names them.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def local_keys(env: dict[str, str], secret_key_file: str) -> None:
    """Point ``env`` at the checkout's own key files where it names no key of its own.

    The secret key's file is ``secret_key_file``, the receipt signing key's
    ``.receipt-signing-key``; each is made first (readable by its owner) if missing.
    """
    if not any(env.get(n, "").strip() for n in ("SECRET_KEY", "SECRET_KEY_FILE")):
        env["SECRET_KEY_FILE"] = str(_local_key(secret_key_file, _new_secret_key))
    if not any(env.get(n, "").strip() for n in ("RECEIPT_SIGNING_KEY", "RECEIPT_SIGNING_KEY_FILE")):
        env["RECEIPT_SIGNING_KEY_FILE"] = str(_local_key(".receipt-signing-key", _new_receipt_key))


def _new_secret_key() -> str:
    return secrets.token_urlsafe(50)


def _new_receipt_key() -> str:
    from tournaments.receipts import generate_private_key_text

    return generate_private_key_text()


def _local_key(name: str, new: Callable[[], str]) -> Path:
    """Return the checkout's key file ``name``, made first (readable by its owner) if missing."""
    path = REPO / name
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(new() + "\n", encoding="utf-8")
    return path


def _create_database(url: str) -> None:
    """Create the PostgreSQL database ``url`` names, if it does not exist."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql", "psql"}:
        return
    import psycopg
    from psycopg import sql

    name = unquote(parts.path.lstrip("/"))
    with psycopg.connect(
        dbname="postgres",
        user=unquote(parts.username or "") or None,
        password=unquote(parts.password or "") or None,
        host=parts.hostname,
        port=parts.port,
        autocommit=True,
    ) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        print(f"stack: created database {name}", flush=True)


def manage(args: list[str]) -> int:
    """``python -m deploy.stack manage <command> ...``: a ``manage.py`` command with the
    stack's settings (its database, made and migrated first if new, its keys), which a plain
    shell does not have: ``make stack`` sets them for its own processes only. Returns the
    command's exit status."""
    env = _environment()
    if env.get("DATABASE_URL"):
        _create_database(env["DATABASE_URL"])
    command = [sys.executable, str(REPO / "manage.py")]
    subprocess.run(
        [*command, "migrate", "--noinput", "--verbosity", "0"], cwd=REPO, env=env, check=True
    )
    return subprocess.run([*command, *args], cwd=REPO, env=env, check=False).returncode


def main() -> None:
    if sys.argv[1:2] == ["manage"]:
        sys.exit(manage(sys.argv[2:]))
    env = _environment()
    if env.get("DATABASE_URL"):
        _create_database(env["DATABASE_URL"])
    manage_py = [sys.executable, str(REPO / "manage.py")]
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput", "--verbosity", "0"]):
        subprocess.run([*manage_py, *step], cwd=REPO, env=env, check=True)
    honcho = shutil.which("honcho", path=env["PATH"])
    if honcho is None:
        sys.exit("stack: honcho is not installed (make .venv/.installed installs it)")
    workers = env.get("STACK_WORKERS", "").strip() or "2"
    concurrency = f"web=1,worker={workers},webhooks=1,beat=1,push=1"
    print(f"stack: honcho start -c {concurrency} on http://127.0.0.1:{env['PORT']}/", flush=True)
    push = env.get("PUSH_PROCESSES", "").strip() or "2"
    print(
        f"stack: the live streams on {env['LIVE_PUSH_ORIGIN']}/push/, {push} processes", flush=True
    )
    os.chdir(REPO)
    os.execve(
        honcho,
        [
            honcho,
            "--procfile",
            "deploy/Procfile",
            "--app-root",
            str(REPO),
            "start",
            "-c",
            concurrency,
        ],
        env,
    )


if __name__ == "__main__":
    main()
