"""The append's locked read also returns whether the match's tournament is published.

With it an API append decides whether the caller may see the match from the row the service
locks, instead of a query of its own before the service's (api.views.MatchEvents.post). The
function is 0006's with one more column, ``t_published``. PostgreSQL cannot change a
function's result columns in place, so it is dropped and created again; going back restores
0006's. SQLite has no functions: nothing to do there (appendsql reads the column itself).
"""

import importlib

from django.db import migrations

SIGNATURE = "tournaments_append_read(bigint, integer, text, text)"

READ = """
CREATE FUNCTION tournaments_append_read(
    p_match bigint, p_actor integer, p_key text, p_known_digest text
) RETURNS TABLE (
    id bigint, tournament_id bigint, team0_id bigint, team1_id bigint, mode varchar,
    rules jsonb, match_format jsonb, first_dealer smallint, confirmation varchar,
    status varchar, last_seq integer, last_hash varchar,
    t_id bigint, t_slug varchar, t_organizer_id integer, t_published boolean,
    listed_director boolean,
    s_seq integer, s_head_hash varchar, s_digest varchar, s_state jsonb, keyed_seq integer
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    found_match boolean;
BEGIN
    SELECT m.id, m.tournament_id, m.team0_id, m.team1_id, m.mode, m.rules, m.match_format,
           m.first_dealer, m.confirmation, m.status, m.last_seq, m.last_hash,
           t.id, t.slug, t.organizer_id, t.published,
           EXISTS (SELECT 1 FROM tournaments_tournament_directors d
                   WHERE d.tournament_id = m.tournament_id AND d.user_id = p_actor)
      INTO id, tournament_id, team0_id, team1_id, mode, rules, match_format, first_dealer,
           confirmation, status, last_seq, last_hash, t_id, t_slug, t_organizer_id,
           t_published, listed_director
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


def _replace(schema_editor, sql):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}", params=None)
        # params=None: the SQL is run as written, with no %-placeholder processing.
        schema_editor.execute(sql, params=None)


def install(apps, schema_editor):
    _replace(schema_editor, READ)


def remove(apps, schema_editor):
    before = importlib.import_module("tournaments.migrations.0006_append_functions")
    _replace(schema_editor, before.READ)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_append_functions"),
    ]

    operations = [migrations.RunPython(install, remove)]
