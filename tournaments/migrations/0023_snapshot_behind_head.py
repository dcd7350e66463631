"""The snapshot written every few events, not at every append (``snapshots.SNAPSHOT_EVERY``).

Rewriting the whole state at every append was most of an append's WAL (about 2.5 KB of the
2.7 an append wrote, against 0.6 KB for an event store's insert). The snapshot is now left
as it is by most appends, so it may be behind the head of the log; the state at the head is
then its state with the events after it folded on.

On PostgreSQL:

- ``tournaments_append_write`` (and so ``tournaments_append_try``, which calls it) takes
  NULL for the digest and the state: it then leaves the snapshot as it is;
- ``tournaments_append_read`` returns one column more, ``tail``: when the snapshot is behind
  the head, the events from the snapshot's own seq to the head, as a JSON array of
  ``[seq, hash, kind, payload, actor_id, via]`` (read after the lock, with the snapshot), so
  an append folds them without a round trip more. A function's result columns cannot change
  in place: it is dropped and created again.

Existing snapshots are at their heads, and still prove; nothing to rewrite. SQLite has no
functions: nothing to do there. Going back restores 0009's functions (which write the
snapshot at every append again).
"""

import importlib

from django.db import migrations

STATE_TEXT = importlib.import_module("tournaments.migrations.0009_snapshot_state_text")
ONE_TRIP = importlib.import_module("tournaments.migrations.0008_append_in_one_trip")

_UPSERT = """    INSERT INTO tournaments_matchsnapshot (match_id, seq, head_hash, digest, state, updated_at)
    VALUES (p_match, p_last_seq, p_last_hash, p_digest, p_state, p_now)
    ON CONFLICT (match_id) DO UPDATE SET
        seq = excluded.seq, head_hash = excluded.head_hash, digest = excluded.digest,
        state = excluded.state, updated_at = excluded.updated_at;
"""

_TAIL = """    IF s_seq IS NOT NULL AND s_seq < last_seq THEN
        SELECT jsonb_agg(jsonb_build_array(e.seq, e.hash, e.kind, e.payload, e.actor_id, e.via)
                         ORDER BY e.seq)
          INTO tail
          FROM tournaments_matchevent e
         WHERE e.match_id = p_match AND e.seq >= s_seq;
    END IF;
    RETURN NEXT;
"""


def _replaced(sql: str, old: str, new: str) -> str:
    changed = sql.replace(old, new)
    assert changed != sql, old
    return changed


OLD_READ, OLD_WRITE, _ = STATE_TEXT._functions("text")
WRITE = _replaced(
    OLD_WRITE, _UPSERT, f"    IF p_state IS NOT NULL THEN\n    {_UPSERT.strip()}\n    END IF;\n"
)
READ = _replaced(
    _replaced(OLD_READ, "    row_digest text\n)", "    row_digest text, tail jsonb\n)"),
    "    RETURN NEXT;\n",
    _TAIL,
)


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in (f"DROP FUNCTION IF EXISTS {ONE_TRIP.READ_SIGNATURE}", READ, WRITE):
        schema_editor.execute(sql, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in (f"DROP FUNCTION IF EXISTS {ONE_TRIP.READ_SIGNATURE}", OLD_READ, OLD_WRITE):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0022_club_and_team_language"),
    ]

    operations = [migrations.RunPython(install, remove)]
