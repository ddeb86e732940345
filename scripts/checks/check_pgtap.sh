#!/usr/bin/env bash
# The apps' SQL promises, tested the way Supabase projects test theirs (`supabase test db`):
# pgTAP test files run by pg_prove against a database built from the migration files themselves
# (no build, no dist/ needed):
#
#   - a throwaway server (scripts/checks/lib/pg.sh), its database set up as a Supabase project is
#     (scripts/checks/supabase_like.sql: the client roles anon, authenticated, service_role,
#     auth.uid(), the extensions in `extensions`, and Supabase's default privileges: every new
#     table and function in public granted to all three, so the migrations' revokes and
#     policies are what protects);
#   - the three apps in that one database, as the nightly's live database holds them: the game's
#     tables (territory_schema.sql) and migrations; the cities' migrations; the quiz app's own
#     daily_challenges table (daily_challenges_app.sql) and the quiz's migration: every
#     Sources/*/Migrations folder, each in name order, every migration applied twice;
#   - pg_prove over Tests/SQL/, a folder per target that owns migrations (TerritoryGame,
#     CitiesSchema, DailyChallenges); each test file runs in a transaction it rolls back.
# pg_prove's summary (`Files=…, Tests=…`, `Result: PASS`) closes the output.
set -euo pipefail
cd "$(dirname "$0")/../.."

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
TESTS=${PGTAP_TESTS:-Tests/SQL}
if [ ! -x "$PGBIN/postgres" ] || ! command -v pg_prove >/dev/null || [ ! -f /usr/share/postgresql/15/extension/pgtap.control ]; then
  bash scripts/setup.sh --test
fi
command -v pg_prove >/dev/null || { echo "check_pgtap: pg_prove is missing (libtap-parser-sourcehandler-pgtap-perl)"; exit 1; }

source scripts/checks/lib/pg.sh
pg_start check_pgtap C timezone=UTC

# A database set up as a Supabase project is (scripts/checks/supabase_like.sql: the API's roles,
# auth.uid(), the extensions in `extensions`, Supabase's default privileges).
pg_sql postgres "create database apps"
APPS=("${PSQL[@]}" -d apps)
"${APPS[@]}" -f scripts/checks/supabase_like.sql >/dev/null

# The apps, from their migration files.
"${APPS[@]}" -f scripts/checks/territory_schema.sql -f scripts/checks/daily_challenges_app.sql
migrations=()
for dir in Sources/*/Migrations; do   # each target that owns migrations, each in name order
  mapfile -t -O ${#migrations[@]} migrations < <(ls "$dir"/*.sql | LC_ALL=C sort)
done
for pass in 1 2; do for m in "${migrations[@]}"; do "${APPS[@]}" -f "$m" >/dev/null; done; done
pg_sql apps "create extension pgtap"
echo "PostgreSQL $(pg_sql apps 'show server_version'), pgTAP $(pg_sql apps 'select pgtap_version()'): ${#migrations[@]} migrations applied twice"

# pg_prove connects as postgres over the socket; each file sets the role it tests.
cd "$TESTS"
pg_prove -h "$SOCK" -U postgres -d apps --ext .sql -r .
