#!/usr/bin/env bash
# Rebuilds the learned evaluation's built-in models (src/search/learned/weights/) from nothing:
# self-play data of each table (`search` at 2,000 nodes, a tenth of exploring moves, training
# seeds from 1,000,000,000, held-out seeds from 2,000,000,000; docs/learn.md "Seeds"), then
# `zatre-learn train` on it. The same command writes the same files byte for byte.
#
#   tools/learn-weights.sh                     GAMES=400 HELD_OUT=100 JOBS=2 DATA=target/learn-data
#
# The data is kept in $DATA, so that a run stopped at any moment goes on where it was (`--resume`)
# and a larger GAMES extends it. Build first: cargo build --release -p zatre-tools --bin zatre-learn.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
games=${GAMES:-400}
held_out=${HELD_OUT:-100}
jobs=${JOBS:-2}
data=${DATA:-$root/target/learn-data}
learn=$root/target/release/zatre-learn
mkdir -p "$data"
play() { # name games seed rules...
    local name=$1 n=$2 seed=$3
    shift 3
    local resume=()
    [ -f "$data/$name.data" ] && resume=(--resume)
    "$learn" play --variant classic "$@" --strategy search --nodes 2000 --explore 0.1 --top 3 --sample 0.5 \
        --seed "$seed" --games "$n" --jobs "$jobs" --out "$data/$name.data" "${resume[@]}"
}
for table in "classic-3-de:--players 3" "classic-4-de:--players 4" "classic-4-cz4:--players 4 --rules rules=cz4"; do
    name=${table%%:*}
    read -r -a rules <<<"${table#*:}"
    play "train-$name" "$games" 1000000000 "${rules[@]}"
    play "test-$name" "$held_out" 2000000000 "${rules[@]}"
    "$learn" train --train "$data/train-$name.data" --test "$data/test-$name.data" --inputs all --ridge 1000 --jobs "$jobs" \
        --out "$root/src/search/learned/weights/$name.txt"
done
