"""The append's two steps as PostgreSQL functions, and a snapshot column that is cheap to write.

``tournaments.appendsql`` runs the append in two round trips. Sent as plain statements, each
step was parsed and planned again by the server on every append (about 0.4 ms of the
server's time per append, more than executing them). PL/pgSQL keeps the plans of a
function's statements for the life of the connection, so each step is one call of a
function here:

- ``tournaments_append_read(match, actor, key, known_digest)``: locks the match's row
  (``FOR UPDATE OF`` it alone), and returns it with its tournament's slug and organizer,
  whether the actor is among the added directors, the snapshot's seq, head hash and digest,
  and the seq of the event holding the idempotency key. The snapshot's state comes only when
  its digest is not ``known_digest`` (the state the calling process already holds). The
  statements after the lock read what the last append committed: a VOLATILE function takes
  a fresh snapshot for each statement, as separate statements of the simple protocol do.
- ``tournaments_append_write(match, events, status, head, snapshot digest, state, time)``:
  inserts the events (a JSON array of their columns), moves the head of the log, upserts
  the snapshot.

Both are plain storage: no rule of Seep, no check the application does not also make. The
database's own guarantees stay where they are (the append-only triggers, the unique
(match, seq), the foreign keys). Functions, not server-side prepared statements: PgBouncer
in transaction mode (before 1.21, as Debian ships it) cannot route prepared statements; a
function's plans live in whichever server connection runs it. SQLite has no functions: it
runs the same steps as separate statements (appendsql), and this migration does nothing
there but drop the index below.

The column list of the read is the Match model's (tests/tournaments/test_appendsql.py fails
if the model gains a field the function does not return). A migration that changes these
tables' columns replaces the functions.

Two schema changes make each write cheaper:
- the snapshot's state (a few KB of JSON, rewritten by every append) is compressed with lz4
  rather than pglz where the server has lz4 (pglz cost about 0.15 ms an append);
- the index Django made for ``MatchEvent.match`` goes: the unique (match, seq) serves every
  lookup by match, and each insert updated both.
"""

from django.db import migrations, models

READ = """
CREATE OR REPLACE FUNCTION tournaments_append_read(
    p_match bigint, p_actor integer, p_key text, p_known_digest text
) RETURNS TABLE (
    id bigint, tournament_id bigint, team0_id bigint, team1_id bigint, mode varchar,
    rules jsonb, match_format jsonb, first_dealer smallint, confirmation varchar,
    status varchar, last_seq integer, last_hash varchar,
    t_id bigint, t_slug varchar, t_organizer_id integer, listed_director boolean,
    s_seq integer, s_head_hash varchar, s_digest varchar, s_state jsonb, keyed_seq integer
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    found_match boolean;
BEGIN
    SELECT m.id, m.tournament_id, m.team0_id, m.team1_id, m.mode, m.rules, m.match_format,
           m.first_dealer, m.confirmation, m.status, m.last_seq, m.last_hash,
           t.id, t.slug, t.organizer_id,
           EXISTS (SELECT 1 FROM tournaments_tournament_directors d
                   WHERE d.tournament_id = m.tournament_id AND d.user_id = p_actor)
      INTO id, tournament_id, team0_id, team1_id, mode, rules, match_format, first_dealer,
           confirmation, status, last_seq, last_hash, t_id, t_slug, t_organizer_id,
           listed_director
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

WRITE = """
CREATE OR REPLACE FUNCTION tournaments_append_write(
    p_match bigint, p_events jsonb, p_status varchar, p_last_seq integer, p_last_hash varchar,
    p_digest varchar, p_state jsonb, p_now timestamptz
) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    INSERT INTO tournaments_matchevent
        (match_id, seq, kind, payload, actor_id, recorded_at, idempotency_key,
         request_digest, caused_by, via, hash)
    SELECT p_match, e.seq, e.kind, e.payload, e.actor_id, e.recorded_at, e.idempotency_key,
           e.request_digest, e.caused_by, e.via, e.hash
      FROM jsonb_to_recordset(p_events) AS e(
           seq integer, kind varchar, payload jsonb, actor_id integer,
           recorded_at timestamptz, idempotency_key varchar, request_digest varchar,
           caused_by integer, via varchar, hash varchar)
     ORDER BY e.seq;
    UPDATE tournaments_match
       SET last_seq = p_last_seq, last_hash = p_last_hash, status = p_status
     WHERE tournaments_match.id = p_match;
    INSERT INTO tournaments_matchsnapshot (match_id, seq, head_hash, digest, state, updated_at)
    VALUES (p_match, p_last_seq, p_last_hash, p_digest, p_state, p_now)
    ON CONFLICT (match_id) DO UPDATE SET
        seq = excluded.seq, head_hash = excluded.head_hash, digest = excluded.digest,
        state = excluded.state, updated_at = excluded.updated_at;
END
$$
"""

# lz4 where the server was built with it (PostgreSQL 14 and later; Debian's is); else as is.
LZ4 = """
DO $$
BEGIN
    ALTER TABLE tournaments_matchsnapshot ALTER COLUMN state SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    NULL;
END
$$
"""

REMOVE = [
    "DROP FUNCTION IF EXISTS tournaments_append_read(bigint, integer, text, text)",
    "DROP FUNCTION IF EXISTS tournaments_append_write("
    "bigint, jsonb, varchar, integer, varchar, varchar, jsonb, timestamptz)",
    "ALTER TABLE tournaments_matchsnapshot ALTER COLUMN state SET COMPRESSION DEFAULT",
]
#: Django's name for the index of MatchEvent.match (0001_initial), on both backends
MATCH_INDEX = "tournaments_matchevent_match_id_b84f919d"


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in (READ, WRITE, LZ4):
            # params=None: the SQL is run as written, with no %-placeholder processing.
            schema_editor.execute(sql, params=None)
    schema_editor.execute(f"DROP INDEX IF EXISTS {MATCH_INDEX}", params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in REMOVE:
            schema_editor.execute(sql, params=None)
    schema_editor.execute(
        f"CREATE INDEX {MATCH_INDEX} ON tournaments_matchevent (match_id)", params=None
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_in_person"),
    ]

    operations = [
        # The index is dropped by hand, not by AlterField: on SQLite, Django alters a field
        # by copying the table, which would drop the append-only triggers (0002's doc).
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="matchevent",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=models.deletion.PROTECT,
                        related_name="events",
                        to="tournaments.match",
                    ),
                ),
            ],
            database_operations=[migrations.RunPython(install, remove)],
        ),
    ]
