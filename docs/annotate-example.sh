#!/bin/sh
# Remakes the README's two annotated pictures with `solve --image --annotate`, on committed test
# fixtures drawn by the pixel reader's own tests (`src/pixels/drawkit.rs`):
# - docs/annotated-read.png: tests/fixtures/pixels/smudge-spare.png, a 9x9 screenshot with r1c2
#   smeared;
# - docs/annotated-photo.png: tests/fixtures/pixels/photo-9x9.jpg, a render photographed turned
#   and in perspective on grey paper (simulated), drawn straightened.
# Run from the repository root after `cargo build --release`.
set -eu
bin=${SUDOBOT:-target/release/sudobot}
"$bin" solve -o line --image tests/fixtures/pixels/smudge-spare.png \
    --annotate docs/annotated-read.png
"$bin" solve -o line --image tests/fixtures/pixels/photo-9x9.jpg \
    --annotate docs/annotated-photo.png
