#!/usr/bin/env bash
# Install test: the steps of `make install` (its install-files part, on already built jobs) into a temporary PREFIX,
# deploy/postgres/roles.sql on a fresh database, then the installed jobs run as an installation runs them: working
# directory `/`, the source tree hidden, `migrate` as iap_owner and every other job as iap_job:
#   migrate, nightly (against the store simulator on loopback), build-reports, close-period of the last full month.
# Every one must exit 0, and the close's snapshot must hold every file build-reports wrote.
#   Tests/Harness/install-test.sh <bin folder> <work folder>
# The source tree is hidden with a private mount namespace (`unshare --mount`, needs root): a tmpfs is mounted over
# the repository, so a job that read Reports/, SQL/ or .build/ from it would find nothing. The PostgreSQL socket
# folder (under .local/ in the tree) is bind-mounted to <work>/pgsock first and PGHOST points there.
# The fixtures (world, store simulator, key files) come from <bin folder> and the tree; they are the test's, not the
# installation's, and run outside the hidden view. Prints `install-test ok …` and exits 0, or names the failed step.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
[ $# -eq 2 ] || { echo "usage: $0 <bin folder> <work folder>" >&2; exit 2; }
bin=$(cd "$1" && pwd)
work=$2
case "$work" in "$root"|"$root"/*) echo "install-test: the work folder must be outside $root" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "install-test: needs root (unshare --mount)" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work/logs" "$work/pgsock" "$work/reports-out" "$work/textfile"
work=$(cd "$work" && pwd)
prefix="$work/prefix"
log="$work/logs/jobs.log"
: >"$log"
fail() { echo "install-test: $*" >&2; tail -n 30 "$log" >&2; exit 1; }

# 1. The install steps, exactly as `make install` runs them after its release build.
make -s --no-print-directory install-files BIN_DIR="$bin" PREFIX="$prefix" >"$work/logs/install.log"
share="$prefix/share/iap-pipeline"
[ -s "$share/BUILD_COMMIT" ] && [ -f "$share/postgres/roles.sql" ] || fail "make install-files wrote no share folder"

# 2. A fresh database with the roles, as the installer's superuser would make it.
eval "$(Tests/Harness/pg-cluster.sh env)"
socket=$PGHOST
database=${INSTALL_DATABASE:-iap_install_test}
export PGDATABASE=$database
psql -q -X -d postgres -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" -c "CREATE DATABASE $database"
psql -q -X -v ON_ERROR_STOP=1 -f "$share/postgres/roles.sql" >/dev/null

# installed <role> <job> [args…]: runs an installed job as `role`, from `/`, with the source tree hidden.
installed() {
  local role=$1 job=$2
  shift 2
  env -u IAP_SHARE_DIR -u REPORT_SQL_DIR PGUSER="$role" PGHOST="$work/pgsock" \
    unshare --mount -- bash -c '
      set -e
      root=$1 socket=$2 sock=$3; shift 3
      mount --make-rprivate /
      mount --bind "$socket" "$sock"
      mount -t tmpfs -o ro,size=1m iap-source-hidden "$root"
      [ ! -e "$root/Package.swift" ] || { echo "install-test: the source tree is still visible" >&2; exit 97; }
      cd /
      exec "$@"' install-sandbox "$root" "$socket" "$work/pgsock" "$prefix/bin/$job" --log-format json "$@"
}

# 3. migrate as the owner.
installed iap_owner migrate >"$work/logs/migrate.out" 2>>"$log" || fail "migrate exited $?"
"$prefix/bin/migrate" --version | grep -q "(commit $(cat "$share/BUILD_COMMIT"))" || fail "--version does not name BUILD_COMMIT"

# 4. The world (as the webhook path left the database) and the store simulator: test fixtures, as in demo.sh.
as_of=$(date -u +%F)
month=$(date -u -d "${as_of:0:7}-01 -1 month" +%Y-%m)
PGUSER=postgres "$bin/world" --seed 11 --subscriptions "${SUBSCRIPTIONS:-300}" --months 4 --as-of "$as_of" \
  --out "$work/world" --log-format json 2>>"$log" >/dev/null || fail "world exited $?"
finance_month=${month/-/}
finance_mmyy=${finance_month:4:2}${finance_month:2:2}
export REPORTS_DIR="$work/reports-import"
mkdir -p "$REPORTS_DIR"
(cd "$work/world/reports" && find . -type f \( -path "./google/*_${finance_month}*" -o -path "./apple/finance/*_${finance_mmyy}_*" \
   -o -path "./apple/payments/*_${finance_mmyy}.csv" \) -exec cp --parents {} "$REPORTS_DIR" \;)
Tests/Harness/make-keys.sh "$work/keys" install
source Tests/Harness/store-simulator.sh
trap 'kill ${simulator_pid:-} 2>/dev/null || true' EXIT
start_store_simulator "$bin" "$work/world" "$work/keys" install "$work" "$work/logs/simulator.log"
export REPORT_OUT_DIR="$work/reports-out" DRIFT_TEXTFILE_DIR="$work/textfile"

# 5. The nightly chain, build-reports and the close, as the job role.
installed iap_job nightly >"$work/logs/nightly.out" 2>>"$log" || { cat "$work/logs/nightly.out" >&2; fail "nightly exited $?"; }
installed iap_job build-reports >"$work/logs/build-reports.out" 2>>"$log" || fail "build-reports exited $?"
reports="$REPORT_OUT_DIR/$as_of"
files=$(find "$reports" -type f | wc -l)
[ "$files" -ge 2 ] || fail "build-reports wrote $files files into $reports"
installed iap_job close-period --period "$month" --reports "$reports" >"$work/logs/close-period.out" 2>>"$log" \
  || fail "close-period exited $?"
snapshots=$(psql -qtAX -c "SELECT count(*) FROM period_snapshot s JOIN period_close c ON c.id = s.close_id
  WHERE c.period = '$month' AND s.name LIKE 'reports/%'")
[ "$snapshots" = "$files" ] || fail "the close of $month snapshotted $snapshots report files of the $files in $reports"
runs=$(psql -qtAX -c "SELECT string_agg(DISTINCT job_name, ',' ORDER BY job_name) FROM job_run WHERE status = 'succeeded'")
echo "install-test ok prefix=$prefix month=$month report_files=$files snapshots=$snapshots succeeded=$runs"
