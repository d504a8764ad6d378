#!/bin/sh
# Remakes docs/annotated-read.png: `solve --image --annotate` on a committed test fixture
# (tests/fixtures/pixels/smudge-spare.png, drawn by the pixel reader's own tests: a 9x9 board
# with r1c2 smeared). Run from the repository root after `cargo build --release`.
set -eu
bin=${SUDOBOT:-target/release/sudobot}
"$bin" solve -o line --image tests/fixtures/pixels/smudge-spare.png \
    --annotate docs/annotated-read.png
