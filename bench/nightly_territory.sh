#!/usr/bin/env bash
# The territory night into PostgreSQL against the territory stage's compute alone, on the same
# runs file (issue #21: the night, from the runs file to committed rows, within 1.5× the compute;
# peak memory ≤ 1 GB).
#
#   bash bench/nightly_territory.sh [RUNS]      default: build/bench/territory_runs.geojson (made with
#                                               scripts/data/make_runs.py --scale 10000 when missing)
#
# Compute alone: geo-territory RUNS in its nightly form (no loops.geojson). Night: geo-nightly
# --apps territory into a throwaway PostgreSQL 15 + PostGIS (unix socket, fsync off as in every
# check; the game's schema of CONTRACTS §8, to which the night adds its migration: territory_hex.cell
# and its GiST index), an empty database, then
# the same night again (a rerun: nothing to write). Pairs alternate; prints the ratio per pair.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-build/bench/territory_runs.geojson}
PAIRS=${PAIRS:-2}
BIN=${BIN:-.build/release}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
[ -x "$BIN/geo-territory" ] && [ -x "$BIN/geo-nightly" ] || scripts/swift-release.sh build --product geo-territory --product geo-nightly >/dev/null

source bench/lib.sh
source scripts/checks/lib/pg.sh
runs_file "$RUNS"
pg_start bench_nightly C timezone=UTC shared_buffers=256MB max_wal_size=4GB
out=$TMP/out; mkdir -p "$out"
# Supabase's roles (the game's migrations grant to them) and auth.uid() (scripts/checks/supabase_auth.sql);
# the night applies the migrations.
pg_sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" >/dev/null
newdb() {
  pg_sql postgres "create database $1" >/dev/null
  "${PSQL[@]}" -d "$1" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null
}
echo "runs: $RUNS ($(du -m "$RUNS" | cut -f1) MB); load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %12s %10s %12s %10s %8s %14s\n' pair compute_s peak_MB night_s peak_MB ratio rerun_s
for p in $(seq "$PAIRS"); do
  read -r c _ cm < <(measure "$out/compute.log" "$BIN/geo-territory" "$RUNS" --out-dir "$out/territory")
  newdb night$p
  url="host=$SOCK user=postgres dbname=night$p"
  read -r n _ nm < <(measure "$out/night.log" env DATABASE_URL="$url" "$BIN/geo-nightly" --apps territory --runs "$RUNS" --pipeline-commit bench)
  read -r r _ _ < <(measure "$out/rerun.log" env DATABASE_URL="$url" "$BIN/geo-nightly" --apps territory --runs "$RUNS" --pipeline-commit bench)
  [ -n "$c" ] && [ -n "$n" ] && [ -n "${r:-}" ] || exit 1   # measure showed the failing log
  printf '%-6s %12.2f %10d %12.2f %10d %8.2f %14.2f\n' "$p" "$c" $((cm / 1024)) "$n" $((nm / 1024)) "$(echo "$n/$c" | bc -l)" "$r"
  pg_sql postgres "drop database night$p" >/dev/null
done
grep -h '^territory:' "$out/night.log" | sed 's/^/night: /'
grep -hE '^\[nightly .*s\)$' "$out/night.log" | sed 's/^/  last night, step: /'
grep -h 'territory done in' "$out/compute.log" | sed 's/^/compute: /'
