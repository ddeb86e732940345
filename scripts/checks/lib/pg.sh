# Sourced by the checks that load SQL into a real PostgreSQL (challenges, cities, territory).
#
#   pg_start NAME [LOCALE [SERVER_OPTION…]]
#
# starts a throwaway server from $PGBIN on a unix socket in a fresh temporary directory (no TCP
# port), stops it and removes the directory when the script exits, and sets TMP (scratch space),
# DATA, SOCK, as_db (runs a command as the server's user) and PSQL (a psql command line without
# a database: add `-d NAME`). PostgreSQL refuses to run as root, so under root the server runs as
# `nobody`, owner of the temporary directory. LOCALE defaults to C; SERVER_OPTIONs are extra
# `-c name=value` settings.
#
#   pg_sql DB QUERY                     one query on database DB; unaligned, tuples only
#   pg_expect DB NAME EXPECTED QUERY    prints "  ok   NAME" when the query gives EXPECTED,
#                                       else "  FAIL NAME: expected …, got …" and sets fail=1
#
# and the checks' prelude (the same in every check):
#
#   sql [DB] QUERY                      pg_sql on DB, postgres when it is left out
#   expect [DB] NAME EXPECTED QUERY     pg_expect on DB, postgres when it is left out
#   ok NAME                             prints "  ok   NAME"
#   bad NAME                            prints "  FAIL NAME" and sets fail=1
#   needs CHECK HINT FILE…              stops the check at the first FILE missing, naming it and
#                                       what makes it (HINT)
# pg_start runs scripts/setup.sh --test first when the server or PostGIS is missing.
pg_start() {
  local name=$1 locale=${2:-C}
  PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
  [ -x "$PGBIN/postgres" ] && [ -f /usr/share/postgresql/15/extension/postgis.control ] || bash scripts/setup.sh --test
  shift; [ $# -gt 0 ] && shift
  TMP=$(mktemp -d "/tmp/$name.XXXXXX")
  DATA="$TMP/data"; SOCK="$TMP/sock"
  mkdir -p "$DATA" "$SOCK"
  as_db() { "$@"; }
  if [ "$(id -u)" -eq 0 ]; then
    chown -R nobody "$TMP"; chmod 700 "$TMP"
    as_db() { runuser -u nobody -- "$@"; }
  fi
  trap pg_cleanup EXIT INT TERM
  local opts="-c listen_addresses='' -c unix_socket_directories='$SOCK' -c fsync=off" o
  for o in "$@"; do opts="$opts -c $o"; done
  as_db "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust --no-sync -E UTF8 --locale="$locale" >"$TMP/initdb.log" 2>&1 \
    || { cat "$TMP/initdb.log"; exit 1; }
  as_db "$PGBIN/pg_ctl" -D "$DATA" -l "$TMP/server.log" -w -t 30 -o "$opts" start >/dev/null \
    || { cat "$TMP/server.log"; exit 1; }
  export PGOPTIONS="-c client_min_messages=warning"
  PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$SOCK" -U postgres)
  command -v psql >/dev/null || PSQL[0]="$PGBIN/psql"
}

#   pg_start_tcp NAME [SERVER_OPTION…]
#
# the same server also on a free TCP port of 127.0.0.1 (PORT), where a password is asked
# (scram-sha-256), trust staying on the socket for the test's own psql; PSQL gets `-p PORT`.
pg_start_tcp() {
  local name=$1; shift
  PORT=$(${PYTHON:-python3} -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  pg_start "$name" C "$@" "listen_addresses='127.0.0.1'" "port=$PORT" password_encryption=scram-sha-256
  printf 'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n' > "$DATA/pg_hba.conf"
  as_db "$PGBIN/pg_ctl" -D "$DATA" reload >/dev/null
  PSQL+=(-p "$PORT")
}

pg_sql() { "${PSQL[@]}" -d "$1" -At -c "$2"; }

pg_expect() {
  local got; got=$(pg_sql "$1" "$4" 2>&1) || true
  if [ "$got" = "$3" ]; then ok "$2"; else bad "$2: expected $3, got $got"; fi
}

sql() { if [ $# -eq 1 ]; then pg_sql postgres "$1"; else pg_sql "$@"; fi; }
expect() { if [ $# -eq 3 ]; then pg_expect postgres "$@"; else pg_expect "$@"; fi; }
ok() { echo "  ok   $1"; }
bad() { echo "  FAIL $1"; fail=1; }
needs() { local check=$1 hint=$2 f; shift 2; for f; do [ -e "$f" ] || { echo "$check: $f is missing ($hint)"; exit 1; }; done; }

pg_cleanup() {
  local rc=$?
  if [ -f "$DATA/postmaster.pid" ]; then as_db "$PGBIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$TMP"
  exit $rc
}
