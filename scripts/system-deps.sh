#!/usr/bin/env bash
# Installs what the project needs from the system on a fresh Debian/Ubuntu machine, and only what
# is missing: Java 17+ and Maven (for the local Neo4j server), Python 3.11+ with venv, and Graphviz
# (`graphrag report` and `graphrag schema` draw with it). With the argument `test`, also what only the
# tests need: PostgreSQL 15+ (the observations journal's disposable test cluster, scripts/test-postgres.sh;
# the service itself needs none), Debian's chromium and chromium-driver (pages checked in a real
# headless browser), and Node.js with npm (the official MCP Inspector's CLI is driven in the tests).
set -euo pipefail

need=()
java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1; }
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ]; then need+=(openjdk-17-jre-headless); fi
command -v mvn >/dev/null || need+=(maven)
python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || need+=(python3 python3-venv)
command -v dot >/dev/null || need+=(graphviz)
if [ "${1:-}" = test ]; then
  pg_major() { ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sed 's|.*/postgresql/\([0-9]*\)/.*|\1|' | sort -n | tail -n 1; }
  [ "$(pg_major)" -ge 15 ] 2>/dev/null || need+=(postgresql)
  [ -x /usr/bin/chromium ] || need+=(chromium)
  [ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
  command -v node >/dev/null || need+=(nodejs)
  command -v npm >/dev/null || need+=(npm)
fi
((${#need[@]})) || exit 0

echo "installing system packages: ${need[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${need[@]}"
