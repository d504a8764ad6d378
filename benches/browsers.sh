#!/usr/bin/env bash
# Chromium and Firefox side by side on the same page: the whole process (wall and CPU seconds,
# by process, through benches/session-cpu.sh) and the --stats phase medians (session start,
# navigation, read, fill, verify), ROUNDS times each, alternating so a busy machine hurts both.
#
#   benches/browsers.sh [COUNT [ROUNDS]] [-- extra sudobot web flags]
#   benches/browsers.sh 5 2                       # the demo site, 5 puzzles per run, 2 rounds
#   benches/browsers.sh 5 1 -- --site sudoku.name --url http://127.0.0.1:8000/sudoku_name.html
#
# Needs target/release/sudobot, chromium + chromedriver and firefox-esr + geckodriver
# (bash .ci/deps test).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count=${1:-5}
rounds=${2:-2}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = -- ] && shift
extra=("$@")
[ ${#extra[@]} -gt 0 ] || extra=(--site demo)
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
for round in $(seq 1 "$rounds"); do
  for browser in chromium firefox; do
    echo "== round $round: $browser, --count $count ${extra[*]}"
    line=$(benches/session-cpu.sh sh -c 'exec "$0" "$@" 2>"'"$stats"'"' target/release/sudobot \
      web "${extra[@]}" --count "$count" --stats --headless --no-debug-files --browser "$browser" \
      | tail -n 1)
    echo "$line" | awk -v n="$count" '{ print; for (i = 1; i <= NF; i++) if ($i == "cpu") \
      printf "cpu per puzzle (session start included): %.2f s\n", $(i + 1) / n }'
    grep -E 'session start|navigation|read|fill|verify' "$stats" | sed 's/^/   /' || true
  done
done
