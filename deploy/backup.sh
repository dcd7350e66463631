#!/bin/sh
# deploy/backup.sh FILE: dump the PostgreSQL database DATABASE_URL (or DATABASE_URL_FILE) names.
#
# pg_dump reads one consistent snapshot while the site runs: no need to stop anything. The
# custom format is compressed and restores with deploy/restore.sh (pg_restore). The dump is
# written beside FILE first and renamed when complete, so FILE is never half a backup.
set -eu
file="${1:?usage: deploy/backup.sh FILE}"
url="${DATABASE_URL:-}"
if [ -n "${DATABASE_URL_FILE:-}" ]; then url="$(cat "$DATABASE_URL_FILE")"; fi
if [ -z "$url" ]; then echo "backup: set DATABASE_URL (or DATABASE_URL_FILE)" >&2; exit 2; fi
pg_dump --format=custom --no-owner --no-privileges --file="$file.partial" --dbname="$url"
mv "$file.partial" "$file"
echo "backup: wrote $file ($(wc -c < "$file") bytes)"
