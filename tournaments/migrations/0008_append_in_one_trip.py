"""An append in one round trip when the process already holds the match's row and state.

The append's locked read (0006, 0007) returns everything the append decides on: the match
row with its tournament's columns, the snapshot, the idempotency key's seq. A process that
made the match's last append already holds all of it, unless something changed since. This
migration lets it decide on what it holds and send the writes at once, with the checks that
it held the truth made by the server under the lock:

- The row's digest (``ROW_DIGEST``): an MD5 of the columns the read returns of the match and
  its tournament but the head (``last_seq``, ``last_hash``, ``status``, which the append
  itself moves), in the same order. Any change to them (a team reassigned, the tournament
  unpublished or renamed, the rules changed) changes it.
- ``tournaments_append_read`` returns it as one more column, ``row_digest``, computed in
  its locked select (so of the values it returns).
- ``tournaments_append_try(match, actor, key, row digest, snapshot digest, listed, head,
  ...the write's arguments)``: locks the match's row, as the read does, and checks that its
  head is the one named (another process's append moves it); then, in statements after the
  lock, that the row's digest and the snapshot's are the ones named, that the actor is
  among the added directors exactly when ``listed`` says so, and that no event holds the
  idempotency key (one statement: a PL/pgSQL statement is a plan and a call of its own). If
  all hold, it writes as ``tournaments_append_write`` (0006) does and
  returns true; else it writes nothing and returns false (the caller then appends the
  two-trip way, deciding again on what the read returns). Its checks after the lock each
  read what the last append committed (a VOLATILE function's statements each take a fresh
  snapshot).

PostgreSQL cannot change a function's result columns in place, so the read is dropped and
created again; going back restores 0007's. SQLite has no functions and no round trips:
nothing to do there.
"""

import importlib

from django.db import migrations

READ_SIGNATURE = "tournaments_append_read(bigint, integer, text, text)"

#: the row's digest: every column the read returns of the match and its tournament but the
#: head, in the read's order (of ``m`` and ``t``, the match and its tournament, joined)
ROW_DIGEST = (
    "md5(ROW(m.id, m.tournament_id, m.team0_id, m.team1_id, m.mode, m.rules, m.match_format, "
    "m.first_dealer, m.confirmation, t.id, t.slug, t.organizer_id, t.published)::text)"
)

READ = """
CREATE FUNCTION tournaments_append_read(
    p_match bigint, p_actor integer, p_key text, p_known_digest text
) RETURNS TABLE (
    id bigint, tournament_id bigint, team0_id bigint, team1_id bigint, mode varchar,
    rules jsonb, match_format jsonb, first_dealer smallint, confirmation varchar,
    status varchar, last_seq integer, last_hash varchar,
    t_id bigint, t_slug varchar, t_organizer_id integer, t_published boolean,
    listed_director boolean,
    s_seq integer, s_head_hash varchar, s_digest varchar, s_state jsonb, keyed_seq integer,
    row_digest text
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    found_match boolean;
BEGIN
    SELECT m.id, m.tournament_id, m.team0_id, m.team1_id, m.mode, m.rules, m.match_format,
           m.first_dealer, m.confirmation, m.status, m.last_seq, m.last_hash,
           t.id, t.slug, t.organizer_id, t.published,
           EXISTS (SELECT 1 FROM tournaments_tournament_directors d
                   WHERE d.tournament_id = m.tournament_id AND d.user_id = p_actor),
           ROW_DIGEST
      INTO id, tournament_id, team0_id, team1_id, mode, rules, match_format, first_dealer,
           confirmation, status, last_seq, last_hash, t_id, t_slug, t_organizer_id,
           t_published, listed_director, row_digest
      FROM tournaments_match m JOIN tournaments_tournament t ON t.id = m.tournament_id
     WHERE m.id = p_match
       FOR UPDATE OF m;
    found_match := FOUND;
    IF NOT found_match THEN
        RETURN;
    END IF;
    -- After the lock, in statements of their own: they see the last append's commit.
    SELECT s.seq, s.head_hash, s.digest,
           CASE WHEN s.digest = p_known_digest THEN NULL ELSE s.state END
      INTO s_seq, s_head_hash, s_digest, s_state
      FROM tournaments_matchsnapshot s
     WHERE s.match_id = p_match;
    IF p_key IS NOT NULL THEN
        SELECT e.seq INTO keyed_seq
          FROM tournaments_matchevent e
         WHERE e.match_id = p_match AND e.idempotency_key = p_key;
    END IF;
    RETURN NEXT;
END
$$
"""

TRY = """
CREATE FUNCTION tournaments_append_try(
    p_match bigint, p_actor integer, p_key text, p_row_digest text, p_snapshot_digest text,
    p_listed boolean, p_head_seq integer, p_head_hash varchar, p_head_status varchar,
    p_events jsonb, p_status varchar, p_last_seq integer, p_last_hash varchar,
    p_digest varchar, p_state jsonb, p_now timestamptz
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    head_seq integer;
    head_hash varchar;
    head_status varchar;
BEGIN
    SELECT m.last_seq, m.last_hash, m.status INTO head_seq, head_hash, head_status
      FROM tournaments_match m WHERE m.id = p_match FOR UPDATE;
    IF NOT FOUND OR head_seq IS DISTINCT FROM p_head_seq
       OR head_hash IS DISTINCT FROM p_head_hash OR head_status IS DISTINCT FROM p_head_status
    THEN
        RETURN false;
    END IF;
    -- After the lock, in a statement of its own (one, so one plan): it sees the last
    -- append's commit.
    IF (SELECT ROW_DIGEST = p_row_digest
               AND EXISTS (SELECT 1 FROM tournaments_matchsnapshot s
                            WHERE s.match_id = p_match AND s.digest = p_snapshot_digest)
               AND EXISTS (SELECT 1 FROM tournaments_tournament_directors d
                            WHERE d.tournament_id = m.tournament_id AND d.user_id = p_actor)
                   = p_listed
               AND NOT (p_key IS NOT NULL
                        AND EXISTS (SELECT 1 FROM tournaments_matchevent e
                                     WHERE e.match_id = p_match
                                       AND e.idempotency_key = p_key))
          FROM tournaments_match m JOIN tournaments_tournament t ON t.id = m.tournament_id
         WHERE m.id = p_match) IS NOT TRUE THEN
        RETURN false;
    END IF;
    PERFORM tournaments_append_write(
        p_match, p_events, p_status, p_last_seq, p_last_hash, p_digest, p_state, p_now
    );
    RETURN true;
END
$$
"""

READ = READ.replace("ROW_DIGEST", ROW_DIGEST)
TRY = TRY.replace("ROW_DIGEST", ROW_DIGEST)

TRY_SIGNATURE = (
    "tournaments_append_try(bigint, integer, text, text, text, boolean, integer, varchar, "
    "varchar, jsonb, varchar, integer, varchar, varchar, jsonb, timestamptz)"
)


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in (f"DROP FUNCTION IF EXISTS {READ_SIGNATURE}", READ, TRY):
        # params=None: the SQL is run as written, with no %-placeholder processing.
        schema_editor.execute(sql, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    before = importlib.import_module("tournaments.migrations.0007_append_read_published")
    for sql in (
        f"DROP FUNCTION IF EXISTS {TRY_SIGNATURE}",
        f"DROP FUNCTION IF EXISTS {READ_SIGNATURE}",
        before.READ,
    ):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_append_read_published"),
    ]

    operations = [migrations.RunPython(install, remove)]
