#!/usr/bin/env bash
# CPU time of a command and everything it starts (chromedriver, Chromium and its helpers), by
# process name, next to the wall time: how many cores one browser session keeps busy.
#
#   benches/session-cpu.sh target/release/sudobot web --site demo --count 6 --parallel 1
#
# The command runs in a session of its own (setsid); every 50 ms the CPU time (user + system)
# of each process in that session is read from /proc, and each process counts with the last
# value seen (a process that lives less than 50 ms is missed). Chromium's helper processes all
# count as "chromium".
set -euo pipefail
[ $# -gt 0 ] || { sed -n '2,10p' "$0"; exit 2; }
log=$(mktemp)
samples=$(mktemp)
trap 'rm -f "$log" "$samples"' EXIT
start=$(date +%s.%N)
setsid "$@" >"$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  # /proc/PID/stat: 1 pid, 2 (comm), 6 session, 14 utime, 15 stime (clock ticks)
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v s="$pid" '$6 == s { print $1, $14 + $15, $2 }' \
    >>"$samples" || true
  sleep 0.05 # the sampling period, not a wait for a condition
done
wait "$pid" && code=0 || code=$?
end=$(date +%s.%N)
tail -n 3 "$log"
awk -v wall="$(echo "$end - $start" | bc)" -v code="$code" -v hz="$(getconf CLK_TCK)" '
  { cpu[$1] = $2 / hz; gsub(/[()]/, "", $3); name[$1] = $3 }
  END {
    for (p in cpu) { by[name[p]] += cpu[p]; total += cpu[p] }
    printf "exit %d, wall %.2f s, cpu %.2f s (%.2f cores):", code, wall, total, total / wall
    for (n in by) if (by[n] > 0) printf " %s %.2f s", n, by[n]
    printf "\n"
  }' "$samples"
exit "$code"
