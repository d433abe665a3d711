#!/usr/bin/env bash
# Fuzzes model::parse and normalize with libFuzzer, seeded with every transcript in
# ../shared/fixtures: FUZZ_RUNS inputs each when set (a fixed, repeatable amount of work, as
# `make test` uses, so a test run on any machine explores exactly what the last one did), else
# for FUZZ_SECONDS each (default 60). Built on the stable toolchain: the coverage
# instrumentation cargo-fuzz would add with nightly flags is asked of LLVM directly.
# A crash leaves its input in fuzz/artifacts/<target>/; turn it into a regression test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${FUZZ_SECONDS:-60}"
if [ -n "${FUZZ_RUNS:-}" ]; then budget=(-runs="$FUZZ_RUNS"); amount="$FUZZ_RUNS inputs"
else budget=(-max_total_time="$seconds"); amount="${seconds}s"; fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/cctv-target}/fuzz"
export RUSTFLAGS="--cfg fuzzing -Cdebug-assertions -Coverflow-checks -Cpasses=sancov-module \
  -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
  -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares"
# With an explicit --target, RUSTFLAGS instrument the fuzzed code but not build scripts.
host="$(rustc -vV | sed -n 's/^host: //p')"
cargo build --release --manifest-path fuzz/Cargo.toml --bins --target "$host"
corpus="$(mktemp -d)"
find ../shared/fixtures -name '*.jsonl' -exec cp {} "$corpus"/ \; 2>/dev/null || true
for target in parse normalize; do
    mkdir -p "fuzz/artifacts/$target" "$corpus/$target"
    cp "$corpus"/*.jsonl "$corpus/$target"/ 2>/dev/null || true
    echo "fuzzing $target for $amount"
    "$CARGO_TARGET_DIR/$host/release/$target" "${budget[@]}" -seed=1 -max_len=262144 -rss_limit_mb=4096 \
        -artifact_prefix="fuzz/artifacts/$target/" -print_final_stats=1 "$corpus/$target" 2>&1 \
        | grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|==|SUMMARY|Test unit written|artifact)" || true
    if ls "fuzz/artifacts/$target"/crash-* >/dev/null 2>&1; then
        echo "fuzz: $target crashed; inputs in fuzz/artifacts/$target/" >&2
        exit 1
    fi
done
rm -rf "$corpus"
