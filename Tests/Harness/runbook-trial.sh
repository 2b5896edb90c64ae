#!/usr/bin/env bash
# The RUNBOOK's Install section tried as a new user would: its shell blocks, copied in order out of docs/RUNBOOK.md of
# a fresh clone, run as root in one shell on this machine. Not part of `make test`: it installs for real (user `iap`,
# /etc/iap, /opt/iap, /var/lib/iap, a database `iap` and the roles in Debian's PostgreSQL cluster, a node_exporter),
# so run it only on a throw-away machine:
#   Tests/Harness/runbook-trial.sh <fresh clone> [<work folder, default /tmp/runbook-trial>]
#   Tests/Harness/runbook-trial.sh --undo            removes what a trial installed
# Only what the RUNBOOK's comments mark is substituted:
#   * the key files the stores give you: those of the store simulator, which plays both stores on loopback over a
#     generated world (the world's database and the simulator use this repository's embedded cluster, .local/pg);
#   * the passwords typed at the prompts: fixed ones on standard input;
#   * `editor`: the env file gets the EDIT values and the simulator's URLs, the catalogue the world's products.
# Where systemd is not PID 1 (a container), what it would do is done by hand, and said: Debian's cluster is started
# after `make deps`, node_exporter after its install, step 8 becomes `systemd-analyze verify` of the installed units,
# and `systemctl start X.service` runs X's ExecStart= as its User= in its WorkingDirectory= with its EnvironmentFile=
# (exit 3 of check-notifications and drift-counts is what the RUNBOOK says a new installation sees).
# Prints `runbook-trial ok …` and exits 0 when every block ran and node_exporter serves the iap_ series.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

undo() {
  pkill -u prometheus -f prometheus-node-exporter 2>/dev/null || true
  userdel -r iap 2>/dev/null || true
  rm -rf /etc/iap /var/lib/iap /etc/systemd/system/iap-*
  if command -v pg_lsclusters >/dev/null && pg_lsclusters -h | grep -q online; then
    runuser -u postgres -- psql -qX -c "DROP DATABASE IF EXISTS iap WITH (FORCE)" -c "DROP ROLE IF EXISTS iap_job" \
      -c "DROP ROLE IF EXISTS iap_owner" 2>&1 | grep -v NOTICE || true
  fi
}
if [ "${1:-}" = --undo ]; then undo; exit 0; fi
[ $# -ge 1 ] || { echo "usage: $0 <fresh clone> [work folder] | --undo" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "runbook-trial: the RUNBOOK's Install section runs as root" >&2; exit 2; }
clone=$(cd "$1" && pwd)
work=${2:-/tmp/runbook-trial}
[ ! -e /etc/iap ] && ! id iap >/dev/null 2>&1 || { echo "runbook-trial: an installation is here already ($0 --undo)" >&2; exit 2; }
rm -rf "$work"; mkdir -p "$work/state"
systemd_runs=$([ "$(ps -p 1 -o comm=)" = systemd ] && echo yes || echo no)

# The Install section's fenced blocks, in order, each after an echo of its step number.
awk '/^## Install/ { on = 1; next } on && /^## / { exit }
     on && /^[0-9]+\. / { step = $1 }
     on && /^ *```/ { if (inside) { inside = 0 } else { inside = 1; print "echo \"=== RUNBOOK step " step " ===\"" }; next }
     on && inside { sub(/^   /, ""); print }' "$clone/docs/RUNBOOK.md" >"$work/runbook.sh"
[ "$(grep -c '^echo "=== RUNBOOK step' "$work/runbook.sh")" -ge 9 ] || { echo "runbook-trial: fewer than 9 blocks in the Install section" >&2; exit 1; }

# The stores: a world's truth served by the simulator, built from the clone (make deps + a release build first,
# as step 1 will do anyway).
(cd "$clone" && make -s deps >/dev/null && swift build -c release --static-swift-stdlib >/dev/null)
bin=$(cd "$clone" && swift build -c release --static-swift-stdlib --show-bin-path)
(cd "$root" && make -s db-up >/dev/null)
eval "$("$root/Tests/Harness/pg-cluster.sh" env)"
psql -qX -d postgres -c "DROP DATABASE IF EXISTS runbook_trial_world WITH (FORCE)" -c "CREATE DATABASE runbook_trial_world" 2>&1 | grep -v NOTICE || true
PGDATABASE=runbook_trial_world "$bin/migrate" --log-format json >/dev/null 2>"$work/state/world.log"
PGDATABASE=runbook_trial_world "$bin/world" --seed 11 --subscriptions 300 --months 4 --as-of "$(date -u +%F)" \
  --out "$work/world" --log-format json >/dev/null 2>>"$work/state/world.log"
"$root/Tests/Harness/make-keys.sh" "$work/keys" trial
source "$root/Tests/Harness/store-simulator.sh"
start_store_simulator "$bin" "$work/world" "$work/keys" trial "$work/state" "$work/state/simulator.log"
trap 'kill $simulator_pid 2>/dev/null || true' EXIT
env | grep -E '^(APPLE|GOOGLE)_' | grep -vE 'PRIVATE_KEY_FILE|ROOT_CERT_FILES|SERVICE_ACCOUNT_FILE' >"$work/sim.env"
psql -qtAX -F $'\t' -d runbook_trial_world -c "SELECT m.provider, m.product_id, m.base_plan_id, m.offer_id, p.code, p.name,
  p.billing_period FROM store_product_mapping m JOIN plan p ON p.id = m.plan_id ORDER BY 1, 2, 3, 4" >"$work/catalog.rows"
unset PGHOST PGPORT PGDATABASE PGUSER

# The trial's "editor" (see the header).
cat >"$work/editor" <<EDITOR
#!/usr/bin/env bash
set -euo pipefail
case "\$1" in
  *.env) while IFS='=' read -r name value; do
           if grep -qE "^#?\$name=" "\$1"; then sed -i -E "s|^#?\$name=.*|\$name=\$value|" "\$1"; else echo "\$name=\$value" >>"\$1"; fi
         done <"$work/sim.env" ;;
  *.tsv) { grep -v '^[A-Z]' "\$1"; cat "$work/catalog.rows"; } >"\$1.new"; cat "\$1.new" >"\$1"; rm "\$1.new" ;;
esac
EDITOR
chmod +x "$work/editor"
unit_start='unit_start() {
  local unit=/etc/systemd/system/$1 exec user dir rc=0
  exec=$(sed -n "s/^ExecStart=//p" "$unit"); user=$(sed -n "s/^User=//p" "$unit"); dir=$(sed -n "s/^WorkingDirectory=//p" "$unit")
  runuser -u "$user" -- sh -c "set -a; . /etc/iap/pipeline.env; set +a; cd $dir && exec $exec" || rc=$?
  echo "(what systemctl start $1 runs) exited $rc"; [ $rc = 0 ] || [ $rc = 3 ]
}'
sed -e "s|AuthKey_ABCDE12345.p8 |$work/keys/apple.p8 |" \
    -e "s|AppleRootCA-G3.cer /etc|$work/state/simulator-root.pem /etc|" \
    -e "s| service-account.json /etc| $work/keys/google-service-account.json /etc|" \
    -e "s|^editor /etc/iap/|$work/editor /etc/iap/|" "$work/runbook.sh" >"$work/session.sh"
if [ "$systemd_runs" = no ]; then
  # Debian's cluster, installed by the `make deps` above, as its unit would have started it.
  pg_lsclusters -h | awk '$4 != "online" { print $1, $2 }' | while read -r version cluster; do pg_ctlcluster "$version" "$cluster" start; done
  sed -i -e "s|^chgrp iap /var/lib/prometheus/node-exporter.*|&; (runuser -u prometheus -- /usr/bin/prometheus-node-exporter >$work/state/node-exporter.log 2>\&1 \&); sleep 2|" \
    -e "s|^systemctl daemon-reload|systemd-analyze verify /etc/systemd/system/iap-*.service /etc/systemd/system/iap-*.timer|" \
    -e "s|^systemctl enable --now.*\\\\$|: systemctl enable --now \\\\|" -e "s|^systemctl list-timers.*|: systemctl list-timers|" \
    -e "s|^systemctl start \([a-z-]*\).service && journalctl.*|unit_start \1.service|" "$work/session.sh"
  { printf '%s\n' "$unit_start"; cat "$work/session.sh"; } >"$work/session.tmp" && mv "$work/session.tmp" "$work/session.sh"
fi
printf 'ownerpw-trial\nownerpw-trial\njobpw-trial\njobpw-trial\nownerpw-trial\njobpw-trial\n' >"$work/answers"
(cd "$clone" && bash -xeo pipefail "$work/session.sh" <"$work/answers") >"$work/session.log" 2>&1 \
  || { tail -n 30 "$work/session.log" >&2; echo "runbook-trial: the Install section failed (log: $work/session.log)" >&2; exit 1; }
series=$(tail -n 1 "$work/session.log")
[ "$series" -gt 0 ] || { echo "runbook-trial: node_exporter serves no iap_ series" >&2; exit 1; }
echo "runbook-trial ok clone=$clone commit=$(git -C "$clone" rev-parse --short HEAD) systemd=$systemd_runs iap_series=$series log=$work/session.log"
