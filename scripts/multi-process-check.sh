#!/usr/bin/env bash
# Several server processes on one PostgreSQL behind Debian's haproxy (docs/deploy.md): the short
# load test through the balancer while one process is killed with -9 halfway and started again,
# media on an S3-compatible store (s3rver, from the npm registry) with score uploads under load.
# Fails when a call fails for another reason than the kill, or an acknowledged write is missing.
# Needs PostgreSQL on 127.0.0.1:5432 and /usr/sbin/haproxy. Under a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
PG="${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
exec npm run load -- --seconds "${SECONDS_UNDER_LOAD:-20}" --users "${USERS:-50}" --postgres "$PG" --processes 3 --kill-one --s3
