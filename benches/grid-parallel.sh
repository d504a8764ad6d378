#!/usr/bin/env bash
# Wall time of `sudobot web --site demo --count N --parallel K` through a local Selenium Grid,
# for each K, in alternating rounds (so a change in the machine's load hits every K alike).
#
#   benches/grid-parallel.sh [ROUNDS [COUNT [K...]]]       # defaults: 3 rounds, 6 puzzles, K = 1 2
#   GRID=nodes benches/grid-parallel.sh 3 6 1 2            # a hub and two one-slot nodes
#
# GRID=standalone (default): one standalone server with --max-sessions 2. The jar is the one
# .ci/run fetches (target/grid/selenium-server.jar); the binary is target/release/sudobot.
# Prints one line per run, then the median wall time per K and its ratio to K=1's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds=${1:-3}
count=${2:-6}
shift $(($# < 2 ? $# : 2))
ks=("$@")
[ ${#ks[@]} -gt 0 ] || ks=(1 2)
jar=target/grid/selenium-server.jar
bot=target/release/sudobot
[ -f "$jar" ] || { echo "no $jar: run .ci/run once (it fetches the Grid jar)" >&2; exit 2; }
[ -x "$bot" ] || { echo "no $bot: cargo build --release" >&2; exit 2; }

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start() { # name, args...: a Grid process in its own process group
  local name=$1
  shift
  # TMPDIR: the browsers' temporary files (Chromium's singleton socket directory) go into
  # $work, removed at the end, not into /tmp.
  TMPDIR=$work setsid java -Xmx256m -jar "$jar" "$@" --selenium-manager false \
    >"$work/$name.log" 2>&1 &
  pids+=($!)
}

port=$(free_port)
url=http://127.0.0.1:$port
if [ "${GRID:-standalone}" = nodes ]; then
  pub=$(free_port) sub=$(free_port)
  start hub hub --port "$port" --publish-events "tcp://127.0.0.1:$pub" \
    --subscribe-events "tcp://127.0.0.1:$sub"
  for n in 1 2; do
    start "node$n" node --port "$(free_port)" --publish-events "tcp://127.0.0.1:$pub" \
      --subscribe-events "tcp://127.0.0.1:$sub" --max-sessions 1
  done
  want=2
else
  start standalone standalone --port "$port" --max-sessions 2
  want=1
fi
# Ready: /status says so, with every node up (bounded: 150 s).
for _ in $(seq 600); do
  up=$(curl -fs "$url/status" 2>/dev/null | python3 -c '
import json, sys
v = json.load(sys.stdin)["value"]
print(sum(n.get("availability") == "UP" for n in v.get("nodes", [])) if v.get("ready") else 0)' \
    2>/dev/null || echo 0)
  [ "$up" -ge "$want" ] && break
  sleep 0.25 # polling interval of the readiness check
done
[ "$up" -ge "$want" ] || { echo "the Grid did not get ready" >&2; tail "$work"/*.log >&2; exit 1; }

declare -A walls
for r in $(seq "$rounds"); do
  for k in "${ks[@]}"; do
    t0=$(date +%s.%N)
    "$bot" web --site demo --remote "$url" --count "$count" --parallel "$k" --oversubscribe \
      >"$work/run.log" 2>&1 || { echo "run failed (K=$k):" >&2; tail "$work/run.log" >&2; exit 1; }
    wall=$(echo "$(date +%s.%N) - $t0" | bc)
    walls[$k]+="$wall "
    printf 'round %d  K=%d  %6.2f s  load %s\n' "$r" "$k" "$wall" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base=$(echo "${walls[${ks[0]}]}" | median)
for k in "${ks[@]}"; do
  m=$(echo "${walls[$k]}" | median)
  printf 'K=%d: median %.2f s (%.1f puzzles/min), %.2fx the wall time of K=%d\n' \
    "$k" "$m" "$(echo "$count * 60 / $m" | bc -l)" "$(echo "$m / $base" | bc -l)" "${ks[0]}"
done
