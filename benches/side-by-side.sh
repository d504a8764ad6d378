#!/usr/bin/env bash
# sudobot against tdoku on tdoku's benchmark sets, side by side on one core, in one run.
#
#   TDOKU_DIR=../shared/comparators/tdoku benches/side-by-side.sh [ROUNDS] [CORE]
#
# - sudobot: `sudobot solve --file SET -o line` as a whole process (start-up, reading, solving,
#   printing every solution), timed as the process's CPU time (user + system, to the microsecond:
#   examples/cputime.rs).
# - tdoku: its fastest solver (`solver_dpll_triad_simd`, built -O3 -march=native by its build.sh)
#   in its harness's solve loop, timed as thread CPU time; the file is read outside the timing.
# The serg set's puzzles all have several solutions: sudobot prints two of each, tdoku counts
# to two. Both in unique mode (count to 2), pinned to CORE (default 1) with taskset, ROUNDS rounds
# (default 5) interleaved set by set, best round of each. sudobot's solutions are compared with
# tdoku's. Without TDOKU_DIR (or without g++) only sudobot's numbers are printed.
set -euo pipefail
if [ -n "${TDOKU_DIR:-}" ]; then TDOKU_DIR=$(cd "$TDOKU_DIR" && pwd); export TDOKU_DIR; fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds=${1:-5}
core=${2:-1}
if [ -z "${SIDE_BY_SIDE_PINNED:-}" ]; then
  cargo build --release --locked --quiet --bin sudobot --example cputime
fi
# Pin this script once, so that every process it starts runs on the core and no `taskset` start-up
# is counted in sudobot's time.
if [ -z "${SIDE_BY_SIDE_PINNED:-}" ] && command -v taskset >/dev/null; then
  SIDE_BY_SIDE_PINNED=1 exec taskset -c "$core" "$0" "$@"
fi
sets=(puzzles6_forum_hardest_1106 "puzzles5_forum_hardest_1905_11+" puzzles2_17_clue puzzles3_magictour_top1465
  puzzles7_serg_benchmark)
work=target/side-by-side
mkdir -p "$work"

sudobot=target/release/sudobot
tdoku=
if [ -n "${TDOKU_DIR:-}" ] && command -v g++ >/dev/null; then
  bash "$TDOKU_DIR/build.sh" "$work/tdoku"
  tdoku=$work/tdoku/tdoku-bench
else
  echo "tdoku: not available (set TDOKU_DIR to its comparator directory, and install g++); sudobot only" >&2
fi

declare -A best_s best_t count
for ((r = 1; r <= rounds; r++)); do
  for set in "${sets[@]}"; do
    file=tests/fixtures/bench/$set
    # The puzzles both sides solve: lines of at least 81 characters that are no comment (blank
    # lines are skipped by both, and were once counted here).
    n=$(grep -Ec '^[^#].{80}' "$file" || true)
    count[$set]=$n
    # The process's CPU time (user + system) in microseconds, from the kernel's accounting.
    # Exit 4 (several solutions) is the serg set's right answer.
    t=$(target/release/examples/cputime --allow-exit 4 "$work/$set.sudobot" -- "$sudobot" solve --file "$file" -o line)
    rate=$(awk -v n="$n" -v t="$t" 'BEGIN { print n / t }')
    best_s[$set]=$(awk -v a="$rate" -v b="${best_s[$set]:-0}" 'BEGIN { print (a > b) ? a : b }')
    if [ -n "$tdoku" ]; then
      rate=$("$tdoku" "$file" "$work/$set.tdoku" 1 | cut -d' ' -f2)
      best_t[$set]=$(awk -v a="$rate" -v b="${best_t[$set]:-0}" 'BEGIN { print (a > b) ? a : b }')
    fi
  done
done

echo "one core (taskset -c $core), unique mode, best of $rounds rounds, puzzles/s"
echo
echo "| set | puzzles | sudobot solve --file (whole process) | tdoku solve loop | ratio |"
echo "|---|---:|---:|---:|---:|"
for set in "${sets[@]}"; do
  s=${best_s[$set]}
  if [ -n "$tdoku" ]; then
    t=${best_t[$set]}
    # Unique puzzles: the same solution. Puzzles with several (every one of the serg set): both
    # say so (the two engines may find a different first solution).
    if cmp -s <(awk '$2 > 1 { print "several"; next } { print $1 }' "$work/$set.tdoku") \
      <(awk '/^# line [0-9]+: several solutions/ { print "several"; next } { print }' "$work/$set.sudobot"); then
      agree=""
    else
      agree=" (solutions differ!)"
    fi
    awk -v set="$set" -v n="${count[$set]}" -v s="$s" -v t="$t" -v agree="$agree" \
      'BEGIN { printf "| %s | %d | %.0f | %.0f | %.2f%s |\n", set, n, s, t, s / t, agree }'
  else
    awk -v set="$set" -v n="${count[$set]}" -v s="$s" \
      'BEGIN { printf "| %s | %d | %.0f | n/a | n/a |\n", set, n, s }'
  fi
done
