"""Reading several rows of a match as one consistent picture, while others append."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection, transaction


@contextlib.contextmanager
def consistent_read() -> Iterator[None]:
    """Run the block's queries against one snapshot of the database.

    On PostgreSQL a REPEATABLE READ, READ ONLY transaction: every statement sees the same
    committed data, and appends go on meanwhile (nothing is locked). On SQLite a transaction
    is one picture already. Inside an enclosing transaction the block simply joins it.
    """
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
