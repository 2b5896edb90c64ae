#!/usr/bin/env bash
# Benchmark driver: each benchmark runs our code and its named peer side by side in the same run,
# on the same input, and prints a markdown section for Benchmarks/results.md.
# Needs the PG* variables of the embedded cluster (`make bench` sets them).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/release-flags.sh
WHICH=${1:-all}
ROWS=${ROWS:-1000000}
HISTORIES=${HISTORIES:-100000}
REPEATS=${REPEATS:-3}
out=Benchmarks/out
mkdir -p "$out"

# JWS verify-and-decode vs Apple's Python library (app-store-server-library); needs no database.
if [ "$WHICH" = all ] || [ "$WHICH" = jws ]; then
  JWS_COUNT=${JWS_COUNT:-10000}
  venv="$out/venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -c 'import appstoreserverlibrary' 2>/dev/null || "$venv/bin/pip" install --quiet app-store-server-library
  swift build "${RELEASE_FLAGS[@]}" --product bench-jws >/dev/null
  jws_bin=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)
  "$jws_bin/bench-jws" generate "$out/jws" "$JWS_COUNT"
  # CPU time (USER_HZ ticks) used by the whole machine, and by this script's finished children.
  cpu_all() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
  cpu_ours() { awk '{ print $16 + $17 }' "/proc/$$/stat"; }
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  all0=$(cpu_all); ours0=$(cpu_ours); t0=$(date +%s.%N)
  ours=$("$jws_bin/bench-jws" verify "$out/jws")
  peer=$("$venv/bin/python" Benchmarks/peers/apple_verify.py "$out/jws")
  others=$(awk -v a="$(($(cpu_all) - all0))" -v o="$(($(cpu_ours) - ours0))" -v hz="$(getconf CLK_TCK)" \
    -v t="$(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { print t1 - t0 }')" \
    'BEGIN { printf "%.0f s of CPU over %.0f s of wall time", (a - o) / hz, t }')
  rate() { printf '%s\n' "$1" | sed -n "s/.* measure=$2 .*per_second=\([0-9]*\).*/\1/p"; }
  o_cold=$(rate "$ours" cold); o_warm=$(rate "$ours" warm); o_batch=$(rate "$ours" warm_batch)
  p_cold=$(rate "$peer" cold); p_warm=$(rate "$peer" warm); p_cached=$(rate "$peer" cached)
  ratio_warm=$(awk -v a="$o_batch" -v b="$p_warm" 'BEGIN { printf "%.1f", a / b }')
  ratio_cached=$(awk -v a="$o_batch" -v b="$p_cached" 'BEGIN { printf "%.1f", a / b }')
  verdict=$(awk -v r="$ratio_cached" 'BEGIN { print (r >= 10) ? "met" : "**missed**" }')
  library=$("$venv/bin/pip" show app-store-server-library | sed -n 's/^Version: //p')
  cat <<MD
### JWS verify-and-decode: $JWS_COUNT signed App Store transactions (one chain), $(date -u +%Y-%m-%d)
| | payloads/s |
|---|---|
| ours: \`AppleJWSVerifier.verify(_:as: JWSTransactionDecodedPayload.self)\`, cold (fresh verifier, 1 thread, one chain validation included) | $o_cold |
| ours: warm, 1 thread (chain cached; median of 3) | $o_warm |
| ours: warm, \`verifyBatch\` on both cores (median of 3) | **$o_batch** |
| peer: \`app-store-server-library\` $library \`SignedDataVerifier.verify_and_decode_signed_transaction\`, cold (fresh verifier, online checks off) | $p_cold |
| peer: warm (same verifier again, online checks off) | $p_warm |
| peer: cache-hit path (online checks on, chain cache seeded once, no network) | $p_cached |

ratio ours 2-core / python warm = **${ratio_warm}×**; ours 2-core / python cache-hit = **${ratio_cached}×**
(target ≥ 10× the library's cached rate: $verdict). Load average at the start: $load; other processes used $others during the measurement (2 cores).
Reproduce: \`Benchmarks/run.sh jws\` (\`JWS_COUNT\` to change the count).
\`\`\`
$ours
$peer
\`\`\`

MD
  if [ "$WHICH" = jws ]; then exit 0; fi
fi

# One XLSX_ROWS × 12-column sheet (issue 15; default 1M rows): our XLSX module (release) vs Python XlsxWriter
# (constant_memory) vs a plain C program on libxlsxwriter (the floor), the same cells and formats, back to back in
# one invocation, each under /usr/bin/time -v (wall, CPU, peak RSS). Needs no database.
if [ "$WHICH" = all ] || [ "$WHICH" = xlsx ]; then
  XLSX_ROWS=${XLSX_ROWS:-1000000}
  venv="$out/venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -c 'import xlsxwriter' 2>/dev/null || "$venv/bin/pip" install --quiet xlsxwriter
  if [ -n "${XLSX_BIN:-}" ]; then # a prebuilt release folder holding bench-xlsx
    xlsx_bin=$XLSX_BIN
  else
    swift build "${RELEASE_FLAGS[@]}" --product bench-xlsx >/dev/null
    xlsx_bin=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)
  fi
  cc -O2 -o "$out/xlsx_floor" Benchmarks/peers/xlsx_floor.c -lxlsxwriter
  measure() { # label, command…: prints "wall_s cpu_s peak_rss_mib"
    local label=$1
    shift
    /usr/bin/time -v "$@" >"$out/xlsx-$label.out" 2>"$out/xlsx-$label.time"
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3) ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2] }
                /User time|System time/ { c += $2 } /Maximum resident set size/ { r = $2 / 1024 }
                END { printf "%.2f %.2f %.1f", w, c, r }' "$out/xlsx-$label.time"
  }
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  read -r o_wall o_cpu o_rss <<<"$(measure ours "$xlsx_bin/bench-xlsx" "$out/xlsx-ours.xlsx" "$XLSX_ROWS")"
  read -r p_wall p_cpu p_rss <<<"$(measure python "$venv/bin/python" Benchmarks/peers/xlsx_write.py "$out/xlsx-python.xlsx" "$XLSX_ROWS")"
  read -r c_wall c_cpu c_rss <<<"$(measure floor "$out/xlsx_floor" "$out/xlsx-floor.xlsx" "$XLSX_ROWS")"
  load_end=$(cut -d' ' -f1-3 /proc/loadavg)
  size() { du -m "$1" | cut -f1; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
  speedup=$(ratio "$p_wall" "$o_wall"); floor_ratio=$(ratio "$o_wall" "$c_wall")
  speedup_cpu=$(ratio "$p_cpu" "$o_cpu"); floor_ratio_cpu=$(ratio "$o_cpu" "$c_cpu")
  verdict() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == ">=") ? v >= t : v <= t; print ok ? "met" : "**missed**" }'; }
  library=$("$venv/bin/pip" show xlsxwriter | sed -n 's/^Version: //p')
  libxlsxwriter=$(dpkg-query -W -f='${Version}' libxlsxwriter-dev 2>/dev/null || pkg-config --modversion xlsxwriter)
  cat <<MD
### XLSX: one $XLSX_ROWS-row × 12-column sheet, constant memory, $(date -u +%Y-%m-%d)
Text, ISO dates, money from Int64 micros at 2 places, integers and percentages, with a frozen, filtered header; the
same cells and number formats on every side (libxlsxwriter $libxlsxwriter, XlsxWriter $library).

| | wall s | CPU s | peak RSS | file |
|---|---|---|---|---|
| ours: \`bench-xlsx\` on the XLSX module (release; widths fitted to content) | **$o_wall** | $o_cpu | $o_rss MiB | $(size "$out/xlsx-ours.xlsx") MiB |
| peer: Python XlsxWriter, \`constant_memory\` (\`Benchmarks/peers/xlsx_write.py\`) | $p_wall | $p_cpu | $p_rss MiB | $(size "$out/xlsx-python.xlsx") MiB |
| floor: C on libxlsxwriter (\`Benchmarks/peers/xlsx_floor.c\`, cc -O2) | $c_wall | $c_cpu | $c_rss MiB | $(size "$out/xlsx-floor.xlsx") MiB |

Python / ours = **${speedup}×** wall, ${speedup_cpu}× CPU (target ≥ 4×: $(verdict "$speedup" ">=" 4));
ours / C floor = **${floor_ratio}×** wall, ${floor_ratio_cpu}× CPU (target ≤ 1.2×: $(verdict "$floor_ratio" "<=" 1.2));
peak RSS $o_rss MiB (target ≤ 64 MiB: $(verdict "$o_rss" "<=" 64)).
Load average at the start: $load; at the end: $load_end (2 cores, shared).
Reproduce: \`Benchmarks/run.sh xlsx\` (\`XLSX_ROWS\` to change the row count; \`XLSX_BIN\` for a prebuilt release folder).
\`\`\`
$(cat "$out/xlsx-ours.out" "$out/xlsx-python.out")
\`\`\`

MD
  if [ "$WHICH" = xlsx ]; then exit 0; fi
fi

# All reports (build-reports, release) over 24 months of a 1M-subscription world vs the pandas peer on the same
# database; only on request (`Benchmarks/run.sh reports`): the world is built once (minutes) and cached. The script
# lives in Benchmarks/reports/.
if [ "$WHICH" = reports ]; then
  Benchmarks/reports/run.sh
  exit 0
fi

# World generation and load (SUBS subscriptions × MONTHS months; default 1M × 12) vs psql \copy of its biggest
# table; only on request (`Benchmarks/run.sh world`), it takes minutes. The script lives in Benchmarks/world/.
if [ "$WHICH" = world ]; then
  Benchmarks/world/run.sh
  exit 0
fi

# Google reconcile (issue 14): one month's earnings zip against PostgreSQL at three sizes, ours vs pandas vs DuckDB
# vs the floor, in one run; only on request (`Benchmarks/run.sh reconcile`). The script lives in Benchmarks/reconcile/.
if [ "$WHICH" = reconcile ]; then
  Benchmarks/reconcile/run.sh
  exit 0
fi

# Apple reconcile (issue 29): one fiscal period's charges (0.1M, 0.3M, 1M) against its Financial Reports, as deployed,
# beside its floor; and the CompactMemory helpers each alone against the standard library. Only on request.
if [ "$WHICH" = reconcile-apple ]; then
  Benchmarks/reconcile-apple/run.sh
  exit 0
fi
if [ "$WHICH" = compact-memory ]; then
  swift build "${RELEASE_FLAGS[@]}" --product bench-compact-memory >/dev/null
  "$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)/bench-compact-memory" "${COMPACT_COUNT:-1000000}"
  exit 0
fi

# Shared by the simulator and requery sections: the venv, the test keys (files, never argv), the release binaries.
bench_venv() {
  venv="$out/venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -c 'import appstoreserverlibrary, psycopg' 2>/dev/null \
    || "$venv/bin/pip" install --quiet app-store-server-library 'psycopg[binary]'
}
bench_keys() { # the same key kinds demo.sh makes: App Store Connect P-256 .p8, Google service-account RSA key
  keys="$out/keys"
  Tests/Harness/make-keys.sh "$keys" bench
}
bench_world() { # database name, truth folder, subscriptions, faults: recreate, migrate, generate and load a world
  export PGDATABASE=$1
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" 2>/dev/null
  "$rbin/migrate" --log-format json >/dev/null 2>&1
  rm -rf "$2"
  "$rbin/world" --seed 42 --subscriptions "$3" --months 12 --as-of "$AS_OF" --out "$2" --faults "$4" \
    --log-format json 2>"$out/world-$1.log" | tail -n 1
}
source Tests/Harness/store-simulator.sh
simulator_pid=
start_simulator() { # truth folder, log file, then extra flags: starts it, sets $port, exports the job environment
  local truth=$1 log=$2
  shift 2
  start_store_simulator "$rbin" "$truth" "$keys" bench "$out" "$log" "$@"
}
stop_simulator() { # prints the simulator's counters line
  [ -n "$simulator_pid" ] || return 0
  kill "$simulator_pid" 2>/dev/null || true
  wait "$simulator_pid" 2>/dev/null || true
  simulator_pid=
}
AS_OF=${AS_OF:-$(date -u +%F)}
if [ "$WHICH" = simulator ] || [ "$WHICH" = requery ]; then
  products="store-simulator world migrate"; [ "$WHICH" = simulator ] || products="$products requery-at-risk"
  for product in $products; do swift build "${RELEASE_FLAGS[@]}" --product "$product" >/dev/null; done
  rbin=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)
  bench_venv
  bench_keys
  trap 'stop_simulator; [ -z "${nginx_conf:-}" ] || nginx -c "$nginx_conf" -s stop 2>/dev/null || true' EXIT
fi

# Store simulator throughput on loopback (issue 5) against nginx serving the same bodies as static files;
# then the rate limiter's accept/reject count against what the limit allows.
if [ "$WHICH" = simulator ]; then
  SIM_SUBSCRIPTIONS=${SIM_SUBSCRIPTIONS:-10000}
  SIM_SECONDS=${SIM_SECONDS:-15}
  SIM_THREADS=${SIM_THREADS:-2}
  SIM_CONNECTIONS=${SIM_CONNECTIONS:-16}
  LIMIT_RATE=${LIMIT_RATE:-50}
  LIMIT_SECONDS=${LIMIT_SECONDS:-10}
  if ! command -v wrk >/dev/null || { ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; }; then
    sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get install -y -q wrk nginx-light >/dev/null || { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q wrk nginx-light >/dev/null; }
  fi
  nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
  sim="$out/simulator"
  mkdir -p "$sim/static" "$sim/nginx"
  truth="$out/simulator-world"
  world_line=$(bench_world bench_simulator "$truth" "$SIM_SUBSCRIPTIONS" "all=0.02")
  # Every queryable subscription of the world, round-robin: Apple production ones by originalTransactionId (sandbox
  # ones are another store: 404), Google tokens still queryable (the others answer 410) by purchase token.
  grep -v '"environment":"Sandbox"' "$truth/apple-subscriptions.jsonl" \
    | sed -n 's/^{"originalTransactionId":"\([^"]*\)".*/\/inApps\/v1\/subscriptions\/\1/p' >"$sim/apple.paths"
  package=$(sed -n 's/.*"packageName":"\([^"]*\)".*/\1/p' "$truth/google.json")
  grep '"queryable":true' "$truth/google-subscriptions.jsonl" | grep -o '"purchaseToken":"[^"]*"' | cut -d'"' -f4 \
    | sed "s|^|/androidpublisher/v3/applications/$package/purchases/subscriptionsv2/tokens/|" >"$sim/google.paths"

  start_simulator "$truth" "$sim/simulator-off.log" --limits off
  "$venv/bin/python" Benchmarks/simulator/mint.py apple "$sim/apple.token"
  "$venv/bin/python" Benchmarks/simulator/mint.py google "$sim/google.token"
  # The peer's static bodies: one real answer of each endpoint (the first path), saved as a file.
  for store in apple google; do
    printf 'Authorization: Bearer %s\n' "$(cat "$sim/$store.token")" >"$sim/$store.header"
    chmod 600 "$sim/$store.header"
    curl -sf -H "@$sim/$store.header" -o "$sim/static/$store.json" "http://127.0.0.1:$port$(head -n 1 "$sim/$store.paths")"
  done
  # nginx on another loopback port: 2 workers (one per core), keep-alive, no access log, the same body for every path.
  nginx_port=$((port + 1))
  nginx_conf="$PWD/$sim/nginx/nginx.conf"
  cat >"$nginx_conf" <<CONF
worker_processes 2;
pid $PWD/$sim/nginx/nginx.pid;
error_log $PWD/$sim/nginx/error.log;
daemon on;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $PWD/$sim/nginx; proxy_temp_path $PWD/$sim/nginx; fastcgi_temp_path $PWD/$sim/nginx;
  uwsgi_temp_path $PWD/$sim/nginx; scgi_temp_path $PWD/$sim/nginx;
  server {
    listen 127.0.0.1:$nginx_port;
    root $PWD/$sim/static;
    default_type application/json;
    location /inApps/ { rewrite ^ /apple.json break; }
    location /androidpublisher/ { rewrite ^ /google.json break; }
  }
}
CONF
  "$nginx_bin" -c "$nginx_conf"
  nginx_version=$("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///')
  drive() { # base URL, store, seconds: one wrk run, prints its bench-result line
    BENCH_PATHS_FILE="$sim/$2.paths" BENCH_TOKEN_FILE="$sim/$2.token" \
      wrk -t "$SIM_THREADS" -c "$SIM_CONNECTIONS" -d "${3}s" --latency -s Benchmarks/simulator/requests.lua "$1" | grep '^bench-result'
  }
  field() { printf '%s\n' "$1" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"; }
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  cpu_all() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
  cpu_of() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
  nginx_cpu() { local t=0; for p in $(pgrep -P "$(cat "$sim/nginx/nginx.pid")"); do t=$((t + $(cpu_of "$p"))); done; echo "$t"; }
  all0=$(cpu_all); sim0=$(cpu_of "$simulator_pid"); ngx0=$(nginx_cpu); t0=$(date +%s.%N)
  ours_apple=$(drive "http://127.0.0.1:$port" apple "$SIM_SECONDS")
  peer_apple=$(drive "http://127.0.0.1:$nginx_port" apple "$SIM_SECONDS")
  ours_google=$(drive "http://127.0.0.1:$port" google "$SIM_SECONDS")
  peer_google=$(drive "http://127.0.0.1:$nginx_port" google "$SIM_SECONDS")
  wall=$(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { print t1 - t0 }')
  hz=$(getconf CLK_TCK)
  cpu_note=$(awk -v a="$(($(cpu_all) - all0))" -v s="$(($(cpu_of "$simulator_pid") - sim0))" -v n="$(($(nginx_cpu) - ngx0))" -v hz="$hz" -v t="$wall" \
    'BEGIN { printf "the machine used %.0f s of CPU over %.0f s of wall time (simulator %.0f s, nginx %.0f s, the rest wrk and other processes)", a / hz, t, s / hz, n / hz }')
  stop_simulator
  off_counters=$(tail -n 1 "$sim/simulator-off.log")
  "$nginx_bin" -c "$nginx_conf" -s stop; nginx_conf=

  # Limits on: Apple Get All Subscription Statuses at LIMIT_RATE/s (bucket capacity LIMIT_RATE), hammered for LIMIT_SECONDS.
  start_simulator "$truth" "$sim/simulator-on.log" --limits on --limits-config "apple.getAllSubscriptionStatuses=$LIMIT_RATE"
  limited=$(drive "http://127.0.0.1:$port" apple "$LIMIT_SECONDS")
  stop_simulator
  rm -f "$sim"/*.token "$sim"/*.header  # bearer credentials, valid for an hour
  on_counters=$(tail -n 1 "$sim/simulator-on.log")
  l_seconds=$(field "$limited" seconds)
  # The simulator's own counters are authoritative (wrk does not count the requests in flight when it stops).
  l_total=$(printf '%s\n' "$on_counters" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')
  l_429=$(printf '%s\n' "$on_counters" | sed -n 's/.*"429":\([0-9]*\).*/\1/p')
  l_ok=$(printf '%s\n' "$on_counters" | sed -n 's/.*"200":\([0-9]*\).*/\1/p')
  l_admitted=$((l_total - l_429))
  allowed=$(awk -v r="$LIMIT_RATE" -v s="$l_seconds" 'BEGIN { printf "%.1f", r * s + r }')
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
  met() { awk -v a="$1" 'BEGIN { print (a >= 2000) ? "met" : "**missed**" }'; }
  row() { echo "| $1 | $(field "$2" per_second) | $(field "$2" p50_ms) | $(field "$2" p99_ms) | $(field "$2" requests) | $(field "$2" bytes_per_response) | $(field "$2" non2xx) | $(field "$2" socket_errors) |"; }
  cat <<MD
### Store simulator on loopback: $SIM_SUBSCRIPTIONS-subscription world, limits off, no faults, $(date -u +%Y-%m-%d)
wrk ${SIM_THREADS} threads × ${SIM_CONNECTIONS} keep-alive connections × ${SIM_SECONDS} s per row, paths cycling over every subscription of the world
($(wc -l <"$sim/apple.paths") Apple originalTransactionIds, $(wc -l <"$sim/google.paths") Google tokens), each request with its bearer credential
(an ES256 App Store Server API JWT; a Google access token from the simulator's OAuth endpoint).

| | requests/s | p50 ms | p99 ms | requests | bytes/response (incl. headers) | non-2xx | socket errors |
|---|---|---|---|---|---|---|---|
$(row "ours: \`store-simulator\` Apple \`GET /inApps/v1/subscriptions/{id}\` (JWT checked, every transaction and renewal info ES256-signed per request)" "$ours_apple")
$(row "peer: nginx $nginx_version, the same Apple body as a static file" "$peer_apple")
$(row "ours: \`store-simulator\` Google \`GET …/subscriptionsv2/tokens/{token}\` (access token checked)" "$ours_google")
$(row "peer: nginx $nginx_version, the same Google body as a static file" "$peer_google")

ratio ours / nginx: Apple **$(ratio "$(field "$ours_apple" per_second)" "$(field "$peer_apple" per_second)")**, Google **$(ratio "$(field "$ours_google" per_second)" "$(field "$peer_google" per_second)")**.
Target ≥ 2,000 requests/s with limits off: Apple $(met "$(field "$ours_apple" per_second)"), Google $(met "$(field "$ours_google" per_second)").
Load average at the start: $load; during the four runs $cpu_note (2 cores; wrk runs on the same cores).

**Limits on** (\`--limits-config apple.getAllSubscriptionStatuses=$LIMIT_RATE\`: $LIMIT_RATE tokens/s, bucket of $LIMIT_RATE, full at the first request), the same wrk load for ${LIMIT_SECONDS} s:
$l_total requests reached the simulator: **$l_admitted admitted** by the limiter ($l_ok answered 200, $((l_admitted - l_ok)) other), $l_429 rejected with 429;
the limit allows $LIMIT_RATE × $l_seconds s (wrk's run) + $LIMIT_RATE (the full bucket) = **$allowed**; the simulator's window is longer
than wrk's clock by the requests still in flight when wrk stops (at most about one p99 latency, $(field "$limited" p99_ms) ms), so an exact limiter admits between
$(awk -v r="$LIMIT_RATE" -v s="$l_seconds" 'BEGIN { printf "%d", r * s + r }') and $(awk -v r="$LIMIT_RATE" -v s="$l_seconds" -v l="$(field "$limited" p99_ms)" 'BEGIN { printf "%d", r * (s + l / 1000) + r }'): $(awk -v a="$l_admitted" -v r="$LIMIT_RATE" -v s="$l_seconds" -v l="$(field "$limited" p99_ms)" 'BEGIN { lo = int(r * s + r); hi = int(r * (s + l / 1000) + r); print (a >= lo && a <= hi) ? "**within**" : "**outside**" }').
Reproduce: \`make bench WHICH=simulator\` (\`Benchmarks/run.sh simulator\`; SIM_SECONDS, SIM_CONNECTIONS, LIMIT_RATE, LIMIT_SECONDS).
\`\`\`
world: $world_line
ours apple   $ours_apple
peer apple   $peer_apple
ours google  $ours_google
peer google  $peer_google
limits on    $limited
simulator counters, limits off: $off_counters
simulator counters, limits on:  $on_counters
\`\`\`

MD
  exit 0
fi

# requery-at-risk end to end over ~100k selected subscriptions (issue 6) against a Python peer doing the Apple half
# with app-store-server-library and psycopg. One world is loaded once into a template database; every run gets its
# own copy (createdb -T), so all runs start from the same state.
if [ "$WHICH" = requery ]; then
  REQUERY_SUBSCRIPTIONS=${REQUERY_SUBSCRIPTIONS:-121000}   # ≈ 100k eligible: Google tokens > 60 days past expiry are excluded
  REQUERY_THREADS=${REQUERY_THREADS:-4}                     # the job's default; the peer gets the same pool size
  PEER_BEST_THREADS=${PEER_BEST_THREADS:-2}                 # and is also run at its own best pool size
  # The default selection: every category (a subset can be named, e.g. REQUERY_CATEGORIES=stale).
  REQUERY_CATEGORIES=${REQUERY_CATEGORIES:-period_ending,in_grace_period,on_hold,pending,acknowledgement_pending,price_change,refunded_recently,failed_event,stale}
  rq="$out/requery"
  mkdir -p "$rq"
  truth="$out/requery-world"
  template=bench_requery_template
  if [ "${REQUERY_REUSE_WORLD:-0}" = 1 ] && [ -f "$truth/manifest.json" ]; then
    world_line="(reused the world already in $template)"
  else
    world_line=$(bench_world "$template" "$truth" "$REQUERY_SUBSCRIPTIONS" "all=0.02")
  fi
  as_of="${AS_OF}T00:00:00Z"
  copy_of_world() { # name: a fresh copy of the template
    psql -q -d postgres -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1 TEMPLATE $template" 2>/dev/null
    export PGDATABASE=$1
  }
  start_simulator "$truth" "$rq/simulator.log" --limits off
  # The client's own limiter must not throttle either: its defaults are the stores' published 50/s.
  export STORE_RATE_LIMITS="apple.getAllSubscriptionStatuses=1000000,google.subscriptionsv2.get=1000000"
  export STORE_RATE_LIMIT_SHARING=${STORE_RATE_LIMIT_SHARING:-memory}
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  now() { date +%s.%N; }
  # ours, both stores
  copy_of_world bench_requery_ours
  t0=$(now)
  ours_all=$("$rbin/requery-at-risk" --as-of "$as_of" --fresh-hours 0 --limit 1000000 --threads "$REQUERY_THREADS" \
    --categories "$REQUERY_CATEGORIES" --log-format json 2>"$rq/ours-all.log" | tail -n 1)
  ours_all_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
  split=$(psql -qtA -F' ' -c "SELECT provider, count(DISTINCT subscription_id), count(*), round(avg(latency_ms), 2),
                                     percentile_disc(0.99) WITHIN GROUP (ORDER BY latency_ms), string_agg(DISTINCT outcome, ',')
                               FROM store_query GROUP BY provider ORDER BY provider")
  ours_drift=$(psql -qtA -F'=' -R' ' -c "SELECT kind, count(*) FROM drift_event GROUP BY kind ORDER BY kind")
  # ours, Apple only: the same copy, with the Google subscriptions verified after the as-of instant (outside the selection)
  copy_of_world bench_requery_ours_apple
  psql -q -c "UPDATE subscription SET last_verified_at = '$as_of'::timestamptz + interval '1 day' WHERE provider = 'GOOGLE'"
  psql -q -d postgres -c "DROP DATABASE IF EXISTS bench_requery_apple_template" -c "CREATE DATABASE bench_requery_apple_template TEMPLATE bench_requery_ours_apple"
  t0=$(now)
  ours_apple=$("$rbin/requery-at-risk" --as-of "$as_of" --fresh-hours 0 --limit 1000000 --threads "$REQUERY_THREADS" \
    --categories "$REQUERY_CATEGORIES" --log-format json 2>"$rq/ours-apple.log" | tail -n 1)
  ours_apple_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
  # peer: the Apple half, same selection rule, same copy of the world, same pool size
  psql -q -d postgres -c "DROP DATABASE IF EXISTS bench_requery_peer WITH (FORCE)" -c "CREATE DATABASE bench_requery_peer TEMPLATE bench_requery_apple_template"
  export PGDATABASE=bench_requery_peer
  peer=$(PEER_THREADS="$REQUERY_THREADS" PEER_AS_OF="$as_of" PEER_FRESH_HOURS=0 "$venv/bin/python" Benchmarks/peers/apple_requery.py 2>"$rq/peer.log")
  peer_drift=$(psql -qtA -F'=' -R' ' -c "SELECT kind, count(*) FROM drift_event GROUP BY kind ORDER BY kind")
  # the peer again at its own best pool size (Python's GIL makes more threads slower for it), on a fresh copy
  peer_best=$peer
  if [ "$PEER_BEST_THREADS" != "$REQUERY_THREADS" ]; then
    psql -q -d postgres -c "DROP DATABASE IF EXISTS bench_requery_peer WITH (FORCE)" -c "CREATE DATABASE bench_requery_peer TEMPLATE bench_requery_apple_template"
    peer_best=$(PEER_THREADS="$PEER_BEST_THREADS" PEER_AS_OF="$as_of" PEER_FRESH_HOURS=0 "$venv/bin/python" Benchmarks/peers/apple_requery.py 2>"$rq/peer-best.log")
  fi
  stop_simulator
  counters=$(tail -n 1 "$rq/simulator.log")
  count() { printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"; }
  field() { printf '%s\n' "$1" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"; }
  n_all=$(count "$ours_all" selected); n_apple=$(count "$ours_apple" selected); n_peer=$(field "$peer" subscriptions)
  rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
  r_all=$(rate "$n_all" "$ours_all_s"); r_apple=$(rate "$n_apple" "$ours_apple_s"); r_peer=$(field "$peer" per_second)
  r_peer_best=$(field "$peer_best" per_second)
  # The verdict is against the faster of the peer's two runs.
  r_peer_top=$(awk -v a="$r_peer" -v b="$r_peer_best" 'BEGIN { print (a > b) ? a : b }')
  ratio=$(awk -v a="$r_apple" -v b="$r_peer" 'BEGIN { printf "%.1f", a / b }')
  ratio_top=$(awk -v a="$r_apple" -v b="$r_peer_top" 'BEGIN { printf "%.1f", a / b }')
  ratio_all=$(awk -v a="$r_all" -v b="$r_peer_top" 'BEGIN { printf "%.1f", a / b }')
  verdict=$(awk -v r="$ratio_top" 'BEGIN { print (r >= 5) ? "met" : "**missed**" }')
  library=$("$venv/bin/pip" show app-store-server-library | sed -n 's/^Version: //p')
  psycopg_version=$("$venv/bin/pip" show psycopg | sed -n 's/^Version: //p')
  cat <<MD
### requery-at-risk end to end: $n_all selected subscriptions, simulator limits off, no faults, $(date -u +%Y-%m-%d)
A $REQUERY_SUBSCRIPTIONS-subscription world (seed 42, 12 months, all faults at 2%) loaded once into \`$template\`; each run
starts from its own \`CREATE DATABASE … TEMPLATE\` copy. \`--fresh-hours 0 --limit 1000000 --categories $REQUERY_CATEGORIES\`
selects every subscription with a store identity (Google tokens more than 60 days past expiry excluded), in the backfill
priority. Wall time includes the process start, selection and lease materialisation. Sandbox (test) purchases are
queried at the simulator's stand-in for Apple's sandbox host (\`/sandbox\`) by both sides.

| | subscriptions | seconds | subscriptions/s |
|---|---|---|---|
| ours: \`requery-at-risk --threads $REQUERY_THREADS\` (release), Apple + Google | $n_all | $ours_all_s | $r_all |
| ours: the same, Apple only (Google subscriptions moved out of the selection) | $n_apple | $ours_apple_s | **$r_apple** |
| peer: \`Benchmarks/peers/apple_requery.py\`, app-store-server-library $library + psycopg $psycopg_version, $REQUERY_THREADS threads, Apple only | $n_peer | $(field "$peer" seconds) | **$r_peer** |
| peer: the same at its best pool size, $PEER_BEST_THREADS threads | $(field "$peer_best" subscriptions) | $(field "$peer_best" seconds) | **$r_peer_best** |

ratio ours / the faster peer run, Apple: **${ratio_top}×** (target ≥ 5×: $verdict); at the same pool size: ${ratio}×;
ours both stores / the faster peer run: ${ratio_all}×.
Load average at the start: $load (2 cores; the simulator and PostgreSQL run on the same cores).
Store calls of the two-store run (provider, subscriptions, calls, mean and p99 latency ms as recorded in \`store_query\`, outcomes):
\`\`\`
$split
\`\`\`
Drift found — ours (two stores): $ours_drift; peer (Apple, status/expiry/auto-renew only): $peer_drift.
Reproduce: \`make bench WHICH=requery\` (\`Benchmarks/run.sh requery\`; REQUERY_SUBSCRIPTIONS, REQUERY_THREADS, PEER_BEST_THREADS; REQUERY_REUSE_WORLD=1 keeps the loaded world).
\`\`\`
world: $world_line
ours, two stores: $ours_all
ours, Apple only: $ours_apple
$peer
$([ "$PEER_BEST_THREADS" = "$REQUERY_THREADS" ] || printf '%s' "$peer_best")
simulator counters: $counters
\`\`\`

MD
  exit 0
fi

swift build "${RELEASE_FLAGS[@]}" --product bench-copy-load >/dev/null
swift build "${RELEASE_FLAGS[@]}" --product bench-projection >/dev/null
swift build "${RELEASE_FLAGS[@]}" --product migrate >/dev/null
bin=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)

fresh_database() { # name: drop, create, migrate, seed one account, plan and Apple product mapping
  export PGDATABASE=$1
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" 2>/dev/null
  "$bin/migrate" --log-format json >/dev/null 2>&1
  psql -qtA -c "
    WITH u AS (INSERT INTO app_user (email) VALUES ('bench@example.com') RETURNING id),
         a AS (INSERT INTO billing_account (user_id) SELECT id FROM u RETURNING id),
         p AS (INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ('BENCH', 'Bench', 'MONTHLY', 'P1M') RETURNING id),
         m AS (INSERT INTO store_product_mapping (provider, plan_id, product_id, external_key)
               SELECT 'APPLE', id, 'com.example.fitness.pro.monthly', 'bench' FROM p)
    INSERT INTO subscription (provider, billing_account_id, plan_id, status) SELECT 'APPLE', a.id, p.id, 'ACTIVE' FROM a, p RETURNING id" | head -n 1
}

if [ "$WHICH" = all ] || [ "$WHICH" = projection ]; then
  fresh_database iap_bench_projection >/dev/null
  result=$("$bin/bench-projection" "$HISTORIES" 2)
  cat <<MD
### Projection: $HISTORIES synthetic Apple subscription histories, $(date -u +%Y-%m-%d)
\`\`\`
$result
\`\`\`
pure = \`Projection.project\` folded over every event of every history (1 thread, release build);
writer = each history's final state applied by \`ProjectionWriter.project\` as a re-query (row lock,
read, project, idempotent upserts, drift check) in its own transaction, 2 connections. No peer is
named for this entry. Reproduce: \`make bench\` (or \`Benchmarks/run.sh projection\`).

MD
fi
[ "$WHICH" = all ] || [ "$WHICH" = copy ] || exit 0

export PGDATABASE=iap_bench
subscription=$(fresh_database iap_bench)
csv="$out/billing_transaction.csv"
"$bin/bench-copy-load" generate "$csv" "$ROWS" "$subscription"
columns=$("$bin/bench-copy-load" columns)

now() { date +%s.%N; }
ours=(); peer=()
for i in $(seq "$REPEATS"); do
  psql -q -c "TRUNCATE billing_transaction" -c "CHECKPOINT"
  t0=$(now); psql -q -c "\\copy billing_transaction ($columns) FROM '$csv' WITH (FORMAT csv)"; t1=$(now)
  peer+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
  psql -q -c "TRUNCATE billing_transaction" -c "CHECKPOINT"
  t0=$(now); "$bin/bench-copy-load" load "$csv" >/dev/null; t1=$(now)
  ours+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
done
count=$(psql -qtA -c "SELECT count(*) FROM billing_transaction")
[ "$count" = "$ROWS" ] || { echo "expected $ROWS rows, found $count" >&2; exit 1; }

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
m_ours=$(median "${ours[@]}"); m_peer=$(median "${peer[@]}")
ratio=$(awk -v a="$m_ours" -v b="$m_peer" 'BEGIN { print a / b }')
size=$(du -m "$csv" | cut -f1)
cat <<MD
### COPY load: $ROWS BillingTransaction rows ($size MiB CSV), $(date -u +%Y-%m-%d)
| | median of $REPEATS | runs (s) |
|---|---|---|
| ours: \`Postgres.copyIn\` streaming the file (release build) | $(printf '%.2f' "$m_ours") s | $(printf '%.2f ' "${ours[@]}") |
| peer: \`psql \\copy\` of the same file | $(printf '%.2f' "$m_peer") s | $(printf '%.2f ' "${peer[@]}") |

ratio ours / psql = **$(printf '%.2f' "$ratio")** (target ≤ 1.30). Reproduce: \`make bench\`.
MD
