# Sourced by the reports benchmarks: measure LABEL COMMAND… runs COMMAND under /usr/bin/time -v and
# Benchmarks/reports/backend_cpu.sh (BACKEND_DB=$db) with its output in $out/LABEL.*, and prints
# "wall_s cpu_s peak_rss_mib server_cpu_s" (the client's wall, CPU and peak RSS; the database server's CPU).
measure() { # label, command…: prints "wall_s cpu_s peak_rss_mib server_cpu_s" (the server's: Benchmarks/reports/backend_cpu.sh)
  local label=$1
  shift
  BACKEND_DB=$db Benchmarks/reports/backend_cpu.sh "$out/$label.backend" /usr/bin/time -v "$@" >"$out/$label.out" 2>"$out/$label.time" \
    || { tail -n 20 "$out/$label.time" >&2; return 1; }
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3) ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2] }
              /User time|System time/ { c += $2 } /Maximum resident set size/ { r = $2 / 1024 }
              END { printf "%.1f %.1f %.0f", w, c, r }' "$out/$label.time"
  awk '{ printf " %s", $2 }' "$out/$label.backend"
}
