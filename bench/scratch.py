"""Scratch databases for the benchmarks: PostgreSQL ones created fresh and dropped afterwards,
SQLite ones in a temporary folder removed afterwards."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit


def is_postgres(url: str) -> bool:
    """Whether the database URL ``url`` names a PostgreSQL server."""
    return urlsplit(url).scheme in {"postgres", "postgresql"}


def postgres_and_redis(bench: str, redis_for: str) -> tuple[str, str]:
    """Return DATABASE_URL and REDIS_URL, or exit saying that ``bench`` needs them: PostgreSQL,
    and Redis for ``redis_for``."""
    database_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not database_url or not is_postgres(database_url):
        sys.exit(f"{bench} needs DATABASE_URL=postgres://... (PostgreSQL)")
    if not redis_url:
        sys.exit(f"{bench} needs REDIS_URL=redis://... ({redis_for})")
    return database_url, redis_url


@contextmanager
def sqlite_django(name: str, *, static: bool = False) -> Iterator[None]:
    """Set Django up on a scratch SQLite database of its own, in a temporary folder removed
    after; ``static``: the static files are collected there too (as production serves them).

    DEBUG is on (the settings' development defaults, and seed_demo refuses to run otherwise):
    a benchmark measures with it off. Tasks run in this process, so projections are current.
    """
    scratch = tempfile.mkdtemp(prefix=f"seep-bench-{name}-")
    try:
        os.environ.update(
            DEBUG="1",
            DATABASE_URL=f"sqlite:///{scratch}/bench.sqlite3",
            DJANGO_SETTINGS_MODULE="deploy.settings",
            LOG_LEVEL="WARNING",
        )
        if static:
            os.environ["STATIC_ROOT"] = f"{scratch}/static"
        os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        yield
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def bench_environment(database_url: str) -> None:
    """Set what deploy.settings needs to start with DEBUG off, for a benchmark process.

    Production settings refuse to start without a secret key and a receipt signing key: a
    benchmark gets throwaway ones of its own (unless the environment names some).
    """
    import uuid

    from tournaments.receipts import generate_private_key_text

    os.environ["DATABASE_URL"] = database_url
    os.environ["DEBUG"] = "0"  # DEBUG keeps every query in memory: no benchmark runs with it
    # a key given in a file (SECRET_KEY_FILE...) stands: settings refuse both at once
    if not os.environ.get("SECRET_KEY_FILE"):
        os.environ.setdefault("SECRET_KEY", "bench-only-" + uuid.uuid4().hex)
    if not os.environ.get("RECEIPT_SIGNING_KEY_FILE"):
        os.environ.setdefault("RECEIPT_SIGNING_KEY", generate_private_key_text())
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")


def _admin_connection(database_url: str) -> object:
    """Return an autocommit connection to the server's ``postgres`` database."""
    import psycopg

    parts = urlsplit(database_url)
    admin = urlunsplit(parts._replace(path="/postgres", scheme="postgresql"))
    return psycopg.connect(admin, autocommit=True)


def recreate_database(database_url: str, name: str, *, template: str | None = None) -> str:
    """(Re)create database ``name`` on the server ``database_url`` names; return its URL.

    ``template``: a copy of that database (nobody may be connected to it). Refuses to touch
    the database ``database_url`` itself names.
    """
    from psycopg import sql

    if urlsplit(database_url).path.lstrip("/") == name:
        sys.exit(f"DATABASE_URL names {name}, the benchmark's scratch database: name another")
    with _admin_connection(database_url) as conn:  # type: ignore[attr-defined]
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template is not None:
            create += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
        conn.execute(create)
    return urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))


def drop_database(database_url: str, name: str) -> None:
    """Drop database ``name`` (if it exists) on the server ``database_url`` names."""
    from psycopg import sql

    with _admin_connection(database_url) as conn:  # type: ignore[attr-defined]
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
