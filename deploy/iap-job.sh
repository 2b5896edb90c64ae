#!/bin/sh
# Runs one pipeline job the way cron should: configuration from the environment file, a random start delay,
# and a flock on the chain lock on top of the job's own database lock.
#
#   iap-job.sh [--delay SECONDS] (--chain | --wait | --skip-if-busy) JOB [JOB ARGUMENTS…]
#
#   --chain         the nightly chain: take the chain lock exclusively, waiting up to 30 minutes for running jobs
#   --wait          take the chain lock shared, waiting up to an hour for the nightly chain to finish
#   --skip-if-busy  take the chain lock shared; if the nightly chain holds it, exit 4 at once (the next run catches up)
#
# Environment: IAP_ENV_FILE (default /etc/iap/pipeline.env), IAP_BIN (default /opt/iap/bin),
# IAP_LOCK_DIR (default /run/lock), IAP_WORK_DIR (default /var/lib/iap: the working directory, as the units'
# WorkingDirectory=). Output is the job's own (stderr logs, the stdout summary line): cron.example pipes it to
# `logger -t iap-<job>`. See docs/RUNBOOK.md, "Scheduling".
set -eu
delay=0
mode=
while [ $# -gt 0 ]; do
    case "$1" in
        --delay) delay="$2"; shift 2 ;;
        --chain|--wait|--skip-if-busy) mode="$1"; shift ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] && [ -n "$mode" ] || { echo "usage: $0 [--delay s] (--chain|--wait|--skip-if-busy) job [args]" >&2; exit 2; }
job="$1"; shift
env_file="${IAP_ENV_FILE:-/etc/iap/pipeline.env}"
[ -r "$env_file" ] || { echo "$0: cannot read $env_file" >&2; exit 2; }
set -a
. "$env_file"
set +a
work_dir="${IAP_WORK_DIR:-/var/lib/iap}"
cd "$work_dir" || { echo "$0: cannot enter the working directory $work_dir" >&2; exit 2; }
if [ "$delay" -gt 0 ]; then sleep "$(( $(od -An -N2 -tu2 /dev/urandom) % delay ))"; fi
lock="${IAP_LOCK_DIR:-/run/lock}/iap-chain.lock"
bin="${IAP_BIN:-/opt/iap/bin}/$job"
case "$mode" in
    --chain) exec flock --exclusive --timeout 1800 --conflict-exit-code 4 "$lock" "$bin" "$@" ;;
    --wait) exec flock --shared --timeout 3600 --conflict-exit-code 4 "$lock" "$bin" "$@" ;;
    --skip-if-busy) exec flock --shared --nonblock --conflict-exit-code 4 "$lock" "$bin" "$@" ;;
esac
