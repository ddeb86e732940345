#!/usr/bin/env bash
# The game's followers (make territory-follow, issue #32) against a throwaway PostgreSQL 15 +
# PostGIS (unix socket, fsync off as in every check), 1,000-fix runs (the territory benches'
# generated night, scripts/data/make_runs.py --scale 10000; its first TEMPLATES runs submitted
# again and again under fresh ids, as the app stores them: pending, notified):
#   1. a steady 20 runs/s for STEADY_S s, one follower: p50/p95 from created_at to judged_at;
#   2. 200 runs/s for 30 s, two followers: p50/p95, the backlog each second (it must not grow);
#      with 8 map readers (pgbench: territory_cells_in_viewport of a city box in the territory the
#      templates claimed first) all along: their p95 against the same readers with no writes,
#      just before (issue 41); and where the CPU went meanwhile (cores used by the readers, by
#      storing the runs, by judging them: the followers and their backends), per run stored and
#      judged;
#   3. drains of DRAIN_SMALL and DRAIN_LARGE pending runs by two followers (--drain): wall time,
#      runs/s, each worker's CPU and peak memory, the ratio of the two times (linear: the ratio
#      of the counts), and what the database does per run (pg_stat_statements: time, rows and
#      WAL of each statement the followers send).
# Submissions come from pgbench (--rate: a Poisson stream), one run per transaction: through
# submit_run at 20 runs/s; at 200 runs/s stored directly as submit_run stores them (with its
# notification), submit_run's own checks being more than this 2-core machine does at that rate.
#
#   bash bench/follow.sh [RUNS]
#   FOLLOW_PARTS=2,3 bash bench/follow.sh       only those parts (1 steady, 2 burst, 3 drains)
#   MAP_RATE=200 FOLLOW_PARTS=2 bash bench/follow.sh
#                                               the 8 map readers at 200 calls/s in all (a Poisson
#                                               stream; latency counted from the scheduled start)
#                                               rather than each as fast as it can
#   MAP_CLIENTS=2 FOLLOW_PARTS=2 bash bench/follow.sh
#                                               2 map readers (connections) rather than 8
#   FOLLOW_BATCH=400 bash bench/follow.sh       the followers' --batch (100, the follower's default)
#   FOLLOW_TRACK=all bash bench/follow.sh       the drains' statements inside the triggers too
#                                               (pg_stat_statements.track; their time is also
#                                               their caller's)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-build/bench/territory_runs.geojson}
TEMPLATES=${TEMPLATES:-2000}
STEADY_S=${STEADY_S:-60}
BURST_RATE=${BURST_RATE:-200}
BURST_S=${BURST_S:-30}
DRAIN_SMALL=${DRAIN_SMALL:-10000}
DRAIN_LARGE=${DRAIN_LARGE:-50000}
MAP_CLIENTS=${MAP_CLIENTS:-8}
FOLLOW_BATCH=${FOLLOW_BATCH:-100}
BIN=${BIN:-.build/release}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
[ -x "$BIN/geo-territory-follow" ] && [ -x "$BIN/geo-nightly" ] || scripts/swift-release.sh build --product geo-territory-follow --product geo-nightly >/dev/null

source bench/lib.sh
source scripts/checks/lib/pg.sh
runs_file "$RUNS"
PARTS=${FOLLOW_PARTS:-1,2,3}
part() { [[ ",$PARTS," == *",$1,"* ]]; }
pg_start bench_follow C timezone=UTC shared_buffers=512MB max_wal_size=8GB shared_preload_libraries=pg_stat_statements \
  pg_stat_statements.track="${FOLLOW_TRACK:-top}"
source scripts/checks/lib/game_runs.sh
pg_sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" >/dev/null
game_pgbench_script "$TMP/submit.sql"
url() { echo "host=$SOCK user=postgres dbname=$1 application_name=$2"; }
echo "runs: the first $TEMPLATES of $RUNS ($(du -m "$RUNS" | cut -f1) MB for all); load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"

newgame() {
  game_db "$1"
  game_templates "$1" "$RUNS" "$TEMPLATES"
}
# stream DB RATE SECONDS CLIENTS [SCRIPT]: pgbench submits at RATE runs/s
stream() {
  PGAPPNAME=submitter "$PGBIN/pgbench" -n -h "$SOCK" -U postgres -c "$4" -j "$4" --rate="$2" -T "$3" -D templates="$TEMPLATES" -f "${5:-$TMP/submit.sql}" "$1" >"$TMP/pgbench.log" 2>&1
}
settle() {  # settle DB: waits until nothing is pending (at most 5 minutes)
  local i; for i in $(seq 3000); do [ "$(game_pending "$1")" = 0 ] && return 0; sleep 0.1; done; return 1
}

if part 1; then
echo
echo "== 1. steady ${STEADY_S} s at 20 runs/s through submit_run, one follower"
newgame steady
game_pgbench_submit_run "$TMP/submit_run.sql" steady
DATABASE_URL="$(url steady follow-1)" "$BIN/geo-territory-follow" --poll 5 >"$TMP/steady.log" 2>&1 &
f=$!
sleep 0.5
stream steady 20 "$STEADY_S" 2 "$TMP/submit_run.sql"
settle steady
kill -TERM $f; wait $f
read -r n p50 p95 max < <(game_latency steady)
echo "20 runs/s: $n runs; created_at → judged_at p50 $p50 s, p95 $p95 s, max $max s (the bound: p95 ≤ 1 s)"
echo "  submit_run: $(grep -E '^latency average' "$TMP/pgbench.log") a call (the app's side)"
echo "  batches: $(grep -c 'batch [0-9]*:' "$TMP/steady.log"), runs per batch: $(awk '/batch [0-9]+:/ { for (i = 1; i <= NF; i++) if (($i == "runs" || $i == "run") && $(i+1) == "judged") { s += $(i-1); n++ } } END { printf "%.1f", s / n }' "$TMP/steady.log")"

fi

if part 2; then
echo
# submit_run itself takes ≈ 26 ms of the server a 1,000-fix run (its checks in PL/pgSQL): too
# much for this 2-core machine at 200 runs/s, so the burst stores what it stores, directly.
echo "== 2. ${BURST_S} s at ${BURST_RATE} runs/s (stored as submit_run stores them), two followers"
newgame burst
# The map's territory: the templates judged once; the readers' box, 0.25° × 0.11° (a city) around
# the middle claimed cell (by hex_id).
game_submit_all burst
DATABASE_URL="$(url burst follow-0)" "$BIN/geo-territory-follow" --drain >"$TMP/burst-0.log" 2>&1
box=$(pg_sql burst "select format('%s, %s, %s, %s', x - 0.125, y - 0.055, x + 0.125, y + 0.055) from (
  select st_x(c) x, st_y(c) y from (select st_centroid(cell) c from territory_hex order by hex_id
   offset (select count(*) / 2 from territory_hex) limit 1) m) m")
pg_sql burst "vacuum analyze" >/dev/null
echo "select sum(octet_length(v::text)) from territory_cells_in_viewport($box) v;" > "$TMP/map.sql"
readers() {  # readers SECONDS: MAP_CLIENTS map readers as authenticated; prints their p95 in ms
  rm -f "$TMP"/map_log.*
  (cd "$TMP" && PGAPPNAME=map-reader PGOPTIONS="-c client_min_messages=warning -c role=authenticated" "$PGBIN/pgbench" -n -h "$SOCK" -U postgres -c "$MAP_CLIENTS" -j 2 \
     ${MAP_RATE:+--rate="$MAP_RATE"} -T "$1" -l --log-prefix=map_log -f map.sql burst >"$TMP/map.log" 2>&1) || { cat "$TMP/map.log" >&2; return 1; }
  cat "$TMP"/map_log.* | awk '{ print $3 / 1000 }' | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f %d\n", a[int(NR * 0.95) + 1], NR }'
}
# cpu_sample: a line per group, "group CPU-seconds" (user + system, /proc), then "wall", "stored",
# "judged" (the burst's runs so far): the server's backends by application_name (map-reader,
# submitter, follow-N) and the rest of the server (walwriter, checkpointer, autovacuum…); the two
# follower processes; the pgbench clients; the machine's busy and stolen time (/proc/stat).
cpu_sample() {
  local hz pid app; hz=$(getconf CLK_TCK)
  {
    pg_sql burst "select pid, coalesce(nullif(application_name, ''), 'server') from pg_stat_activity" | while IFS='|' read -r pid app; do
      case $app in follow-*) app=followers-backends;; map-reader|submitter) ;; *) app=server-other;; esac
      echo "$app $(cpu_ticks "$pid")"
    done
    for pid in "${followers[@]}"; do echo "followers $(cpu_ticks "$pid")"; done
    for pid in $(pgrep -x pgbench); do echo "pgbench $(cpu_ticks "$pid")"; done
    awk '$1 == "cpu" { print "machine", $2 + $3 + $4 + $7 + $8; print "steal", $9 }' /proc/stat
  } | awk -v hz="$hz" '{ s[$1] += $2 } END { for (k in s) printf "%s %.2f\n", k, s[k] / hz }'
  echo "wall $(date +%s.%N)"
  pg_sql burst "select 'stored ' || count(*) || E'\njudged ' || count(judged_at) from runs where created_at > '$quiet_end'"
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# cpu_split A B: the cores each group used between the two samples, and per run stored / judged.
cpu_split() {
  awk 'NR == FNR { a[$1] = $2; next } { d[$1] = $2 - a[$1] } END {
    w = d["wall"]; other = d["server-other"]
    printf "  where the CPU went, %.1f s of the burst (cores; %d runs stored, %d judged meanwhile):\n", w, d["stored"], d["judged"]
    printf "    map readers %.2f, storing runs %.2f (%.2f ms a run), judging %.2f: followers %.2f + their backends %.2f (%.2f ms a run), rest of the server %.2f, pgbench %.2f; the machine %.2f of %d busy, %.2f stolen\n",
      d["map-reader"] / w, d["submitter"] / w, d["submitter"] * 1000 / d["stored"], (d["followers"] + d["followers-backends"]) / w,
      d["followers"] / w, d["followers-backends"] / w, (d["followers"] + d["followers-backends"]) * 1000 / d["judged"], other / w,
      d["pgbench"] / w, d["machine"] / w, cores, d["steal"] / w }' cores="$(nproc)" "$1" "$2"
}
read -r quiet_p95 quiet_n < <(readers 10)
echo "  $MAP_CLIENTS map readers${MAP_RATE:+ at $MAP_RATE calls/s}, no writes: p95 $quiet_p95 ms ($quiet_n calls in 10 s; box $box, $(pg_sql burst "set role authenticated; select coalesce(sum(cardinality(hex_ids)), 0) from territory_cells_in_viewport($box)") cells)"
followers=()
for w in 1 2; do DATABASE_URL="$(url burst follow-$w)" "$BIN/geo-territory-follow" --poll 5 --batch "$FOLLOW_BATCH" >"$TMP/burst-$w.log" 2>&1 & followers+=($!); done
sleep 0.5
quiet_end=$(pg_sql burst "select now()")
t0=$(date +%s.%N)
readers "$BURST_S" > "$TMP/busy.txt" &
map=$!
stream burst "$BURST_RATE" "$BURST_S" 4 &
bench=$!
backlog=()
while kill -0 $bench 2>/dev/null; do
  backlog+=("$(game_pending burst)")
  elapsed=$(echo "$(date +%s.%N) - $t0" | bc)
  # Where the CPU goes, between 5 s in and 3 s before the end (everything connected and running).
  if [ ! -f "$TMP/cpu.a" ] && (( $(echo "$elapsed >= 5" | bc) )); then cpu_sample > "$TMP/cpu.a"; fi
  if [ -f "$TMP/cpu.a" ] && [ ! -f "$TMP/cpu.b" ] && (( $(echo "$elapsed >= $BURST_S - 3" | bc) )); then cpu_sample > "$TMP/cpu.b"; fi
  sleep 1
done
wait $bench
t_end=$(date +%s.%N)
wait $map
read -r busy_p95 busy_n < "$TMP/busy.txt"
settle burst
t_done=$(date +%s.%N)
for j in $(jobs -p); do kill -TERM "$j" 2>/dev/null || true; done; wait || true
read -r n p50 p95 max < <(game_latency burst "created_at > '$quiet_end'")
echo "${BURST_RATE} runs/s: $n runs in $(printf %.1f "$(echo "$t_end - $t0" | bc)") s ($(printf %.0f "$(echo "$n / ($t_end - $t0)" | bc -l)") runs/s submitted); created_at → judged_at p50 $p50 s, p95 $p95 s, max $max s (the bound: p95 ≤ 1 s)"
echo "  pending runs each second: ${backlog[*]}"
echo "  drained $(printf %.1f "$(echo "$t_done - $t_end" | bc)") s after the last submission"
for w in 1 2; do echo "  follow-$w: $(tail -1 "$TMP/burst-$w.log" | sed 's/^\[follow done in [0-9.]*s\] //')"; done
echo "  pgbench: $(grep -E '^(tps|latency average)' "$TMP/pgbench.log" | tr '\n' ' ')"
echo "  $MAP_CLIENTS map readers meanwhile: p95 $busy_p95 ms ($busy_n calls), $(awk -v a="$busy_p95" -v b="$quiet_p95" 'BEGIN { printf "%.2f", a / b }')× their p95 with no writes (the bound: ≤ 2×)"
[ -f "$TMP/cpu.b" ] && cpu_split "$TMP/cpu.a" "$TMP/cpu.b"

fi

drain() {  # drain COUNT: COUNT pending runs, two followers
  local db=drain$1
  newgame "$db"
  local t; t=$(date +%s.%N)
  game_submit_copies "$db" "$1"
  pg_sql "$db" "vacuum analyze runs" >/dev/null
  pg_sql "$db" "create extension if not exists pg_stat_statements; select pg_stat_statements_reset()" >/dev/null
  echo "  $1 pending runs submitted in $(printf %.1f "$(echo "$(date +%s.%N) - $t" | bc)") s"
  t=$(date +%s.%N)
  for w in 1 2; do
    ( measure "$TMP/drain-$w.log" env DATABASE_URL="$(url "$db" follow-$w)" "$BIN/geo-territory-follow" --drain --batch "$FOLLOW_BATCH" > "$TMP/drain-$w.time" ) &
  done
  wait
  local wall; wall=$(echo "$(date +%s.%N) - $t" | bc)
  [ "$(game_pending "$db")" = 0 ] || { echo "  FAILED: $(game_pending "$db") runs still pending"; exit 1; }
  printf '  %d runs drained in %.1f s: %.0f runs/s for the two, %.0f runs/s per worker\n' "$1" "$wall" "$(echo "$1 / $wall" | bc -l)" "$(echo "$1 / $wall / 2" | bc -l)"
  for w in 1 2; do
    read -r ww wc wm < "$TMP/drain-$w.time"
    printf '    follow-%d: %s runs, wall %.1f s, CPU %.1f s (%.2f ms a run), peak %d MB\n' "$w" \
      "$(grep -o '[0-9,]* runs judged in' "$TMP/drain-$w.log" | tr -d ',' | cut -d' ' -f1)" "$ww" "$wc" \
      "$(echo "$wc * 1000 / ($(grep -o '[0-9,]* runs judged in' "$TMP/drain-$w.log" | tr -d ',' | cut -d' ' -f1) + 0.0001)" | bc -l)" $((wm / 1024))
  done
  echo "    the database, per run judged (pg_stat_statements; ms of server time, rows, WAL bytes):"
  # (each follower's scratch tables have their own oids, so its statements their own entries: summed by text)
  pg_sql "$db" "select format('      %s: %s ms, %s rows, %s B WAL', q, round((t / $1)::numeric, 3), round(r::numeric / $1, 1), round(w / $1))
    from (select left(regexp_replace(query, '\s+', ' ', 'g'), 60) q, sum(total_exec_time) t, sum(rows) r, sum(wal_bytes) w
            from pg_stat_statements where dbid = (select oid from pg_database where datname = '$db') group by 1) s
   where t > 0.01 * (select sum(total_exec_time) from pg_stat_statements) order by t desc limit 8"
  pg_sql "$db" "select format('      all statements: %s ms a run', round((sum(total_exec_time) / $1)::numeric, 2)) from pg_stat_statements
    where dbid = (select oid from pg_database where datname = '$db')"
  drain_wall=$wall
  pg_sql postgres "drop database $db" >/dev/null
}

part 3 || exit 0
echo
echo "== 3. drains by two followers"
drain "$DRAIN_SMALL"; small=$drain_wall
[ "$DRAIN_LARGE" -gt 0 ] || exit 0
drain "$DRAIN_LARGE"; large=$drain_wall
printf 'drain time %d → %d runs: × %.2f (linear: × %.2f)\n' "$DRAIN_SMALL" "$DRAIN_LARGE" "$(echo "$large / $small" | bc -l)" "$(echo "$DRAIN_LARGE / $DRAIN_SMALL" | bc -l)"
