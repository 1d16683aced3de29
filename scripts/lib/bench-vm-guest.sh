#!/usr/bin/env bash
# The guest half of `scripts/bench --vm` (runs inside scripts/vm-run). Not meant to be run alone.
set -euo pipefail
build=$1
results="$build/results"
echo "the real-device benchmarks are not written yet." >"$results/skipped-vm.txt"
