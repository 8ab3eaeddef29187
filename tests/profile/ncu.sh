#!/bin/sh
# Counts tests/profile/suite.cu's kernels with Nsight Compute on the GPU machine (run
# through the device tool from the repository root; ncu needs root there). Writes to $OUT:
# ncu.csv (every metric of metrics.txt that this ncu knows, for every kernel, one
# invocation), suite.sass (the code nvcc made, to see which accesses it merged), and the
# logs. tests/profile/ncu_h100.csv is ncu.csv from an H100.
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
dir=$(dirname "$0")
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
nvcc --version > "$out/nvcc.txt" 2>&1
ncu --version > "$out/ncu-version.txt" 2>&1
nvcc -arch=sm_90 -O3 -cubin -o "$work/suite.cubin" "$dir/suite.cu" > "$out/nvcc.log" 2>&1 || { cat "$out/nvcc.log"; exit 1; }
cuobjdump -sass "$work/suite.cubin" > "$out/suite.sass" 2>&1
nvcc -O2 -x cu -o "$work/driver" "$dir/ncu_driver.c" -lcuda > "$out/driver.log" 2>&1 || { cat "$out/driver.log"; exit 1; }
"$work/driver" "$work/suite.cubin" "$dir/suite.tsv" > "$out/plain.log" 2>&1 || { cat "$out/plain.log"; exit 1; }
# Only the metrics this ncu knows on this chip: an unknown name would fail the run.
ncu --query-metrics --chip gh100 > "$out/query.txt" 2>&1 || ncu --query-metrics > "$out/query.txt" 2>&1
metrics=""
for m in $(grep -v '^#' "$dir/metrics.txt"); do
    base=${m%.*}
    if grep -q "^$base " "$out/query.txt"; then metrics="$metrics${metrics:+,}$m"; else echo "not known: $m" >> "$out/skipped.txt"; fi
done
echo "$metrics" > "$out/metrics-used.txt"
timeout 200 ncu --csv --replay-mode kernel --cache-control all --metrics "$metrics" \
    "$work/driver" "$work/suite.cubin" "$dir/suite.tsv" > "$out/ncu.csv" 2> "$out/ncu.log"
st=$?
tail -5 "$out/ncu.log"
wc -l "$out/ncu.csv"
exit $st
