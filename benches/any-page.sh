#!/usr/bin/env bash
# Board discovery and fill times per page kind, on the "any page" replicas (no site file):
# `sudobot web --url PAGE --count N --stats` for each, and the medians of its discovery and fill
# phases. The inputs page is also played with `--strategy click`, so click-then-key and keys
# fill the same 45 cells of the same board in the same browser.
#
#   benches/any-page.sh [target/release/sudobot] [count, default 5]
#
# Serves tests/fixtures/web with python3's http.server on a free port (the pages' verdict
# reports get a 501 there, which they ignore). Headless Chromium, as the tests run it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bin=${1:-target/release/sudobot}
count=${2:-5}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory tests/fixtures/web >/dev/null 2>&1 &
server=$!
log=$(mktemp)
trap 'kill "$server" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/any/board.js" >/dev/null && break
  sleep 0.05 # polling the server's start, bounded by the loop
done
printf '%-30s %14s %10s\n' "page (cells typed)" "discovery ms" "fill ms"
run() { # name, page, extra flags...
  local name=$1 page=$2
  shift 2
  if ! "$bin" web --url "http://127.0.0.1:$port/any/$page.html" --headless --count "$count" \
    --stats "$@" >"$log" 2>&1; then
    echo "$name: failed" >&2
    tail -n 5 "$log" >&2
    return
  fi
  local disc fill
  disc=$(awk '$1 == "discovery" { print $2 }' "$log")
  fill=$(awk '$1 == "fill" && $2 != "+" { print $2 }' "$log")
  printf '%-30s %14s %10s\n' "$name" "$disc" "$fill"
}
run "inputs 9x9 (45), keys" inputs_shuffled --strategy keys
run "inputs 9x9 (45), click" inputs_shuffled --strategy click
run "divs 9x9 (44)" divs
run "svg 9x9 (51)" svg
run "spans 6x6 (22)" spans_6x6
run "li 4x4 (10)" li_4x4
run "table 16x16 (150)" table_16x16
run "nested frames 9x9 (45)" nested_outer
run "decoys + 9x9 (45)" decoys
