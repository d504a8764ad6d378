#!/usr/bin/env bash
# sudobot against every fast 9x9 solver of tdoku's benchmark suite (tdoku, the `sudoku` crate,
# SK_BFORCE2, JCZSolve, fsss2, JSolve, fsss, BB_Sudoku) on the five sets, serg included, on THIS
# machine, with the devicekit bundle (../shared/comparators/devicekit: the peers' sources, a
# harness, g++ -O3 -march=native builds, and the summary tables).
#
#   DEVICEKIT_DIR=../shared/comparators/devicekit benches/peers.sh [devicekit options]
#   DEVICEKIT_DIR=... benches/peers.sh --quick               # does everything build and run?
#
# The kit is copied to target/peers/devicekit with this checkout's release binary put in (as
# its README asks); the results go to target/peers/out (summary.md, results.tsv, ...). With no
# options it runs the lanes one at a time (--sequential) on the highest-numbered CPU, 3 rounds, so
# a 2-core machine gives a fair single-core table in about 15 minutes; on a many-core machine
# pass `--cores 1,2,...` and drop --sequential (see the kit's README). Needs g++, python3, xz.
set -euo pipefail
kit=${DEVICEKIT_DIR:?set DEVICEKIT_DIR to the devicekit directory (../shared/comparators/devicekit)}
kit=$(cd "$kit" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for tool in g++ python3 xz; do
  command -v "$tool" >/dev/null || { echo "peers.sh: $tool is missing (apt-get install g++ python3 xz-utils)" >&2; exit 2; }
done
cargo build --release --locked --quiet --bin sudobot
work=target/peers
rm -rf "$work/devicekit"
mkdir -p "$work"
cp -a "$kit" "$work/devicekit"
xz -9 -c target/release/sudobot >"$work/devicekit/bin/sudobot.xz"
if [ $# -eq 0 ]; then
  set -- --sequential --cores "$(($(nproc) - 1))" --rounds 3
fi
OUT=$(pwd)/$work/out BUDGET=${BUDGET:-1500} bash "$work/devicekit/run.sh" "$@"
echo "peers.sh: tables in $work/out/summary.md" >&2
