#!/usr/bin/env bash
# Fuzzes model::parse, normalize, the mask, the Markdown export and the catalog's file names with
# libFuzzer (fuzz/fuzz_targets/), seeded with every transcript in
# ../shared/fixtures: FUZZ_RUNS inputs (a tenth for the slower targets, below) when set (a fixed, repeatable amount of work, as
# `make test` uses, so a test run on any machine explores exactly what the last one did), else
# for FUZZ_SECONDS each (default 60). Built on the stable toolchain: the coverage
# instrumentation cargo-fuzz would add with nightly flags is asked of LLVM directly.
#
# Exits non-zero when either target fails: libFuzzer's own exit status (a panic, a timeout,
# running out of memory) or any input it wrote to fuzz/artifacts/<target>/. That folder is
# emptied before each run, so what is in it after a run came from that run: turn it into a
# regression test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${FUZZ_SECONDS:-60}"
# How much each target runs. The parser's and normalize's targets take FUZZ_RUNS inputs; the
# mask's, the Markdown export's and the catalog's run a whole scan and mask, or a whole export, of
# each input, about ten times the work of a parse (at 50,000 inputs the mask alone took over
# seven minutes here), so they take a tenth as many: still the same inputs every run.
budget_of() {
    local runs="${FUZZ_RUNS:-}"
    case "$1" in parse | normalize) ;; *) [ -n "$runs" ] && runs=$((runs / 10)) ;; esac
    if [ -n "$runs" ]; then budget=(-runs="$runs"); amount="$runs inputs"
    else budget=(-max_total_time="$seconds"); amount="${seconds}s"; fi
}

# Without seeds the fuzzer starts from empty input and rarely gets past the first `{`: a run
# that explores nothing must not look like a pass.
fixtures=../shared/fixtures
if [ ! -d "$fixtures" ] || [ -z "$(find -L "$fixtures" -name '*.jsonl' -print -quit)" ]; then
    echo "fuzz: no seed corpus: no *.jsonl under $(pwd)/$fixtures (the fixtures checkout beside this one)" >&2
    exit 1
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/cctv-target}/fuzz"
export RUSTFLAGS="--cfg fuzzing -Cdebug-assertions -Coverflow-checks -Cpasses=sancov-module \
  -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
  -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares"
# With an explicit --target, RUSTFLAGS instrument the fuzzed code but not build scripts.
host="$(rustc -vV | sed -n 's/^host: //p')"
cargo build --release --manifest-path fuzz/Cargo.toml --bins --target "$host"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Seeds keep their folder in their name: Entire checkpoints are all called full.jsonl.
mkdir "$work/seeds"
find -L "$fixtures" -name '*.jsonl' -print0 | while IFS= read -r -d '' file; do
    rel="${file#"$fixtures"/}"
    cp "$file" "$work/seeds/${rel//\//__}"
done

failed=()
targets=(parse normalize mask markdown catalog)
for target in "${targets[@]}"; do
    artifacts="fuzz/artifacts/$target"
    rm -rf "$artifacts"
    mkdir -p "$artifacts" "$work/$target"
    budget_of "$target"
    echo "fuzzing $target for $amount ($(find "$work/seeds" -type f | wc -l) seeds)"
    # The first folder takes what the fuzzer finds; the seeds folder is only read. libFuzzer is
    # chatty: show its closing lines and anything about a failure, keep its whole output in a log,
    # and judge by its exit status (pipefail), not grep's.
    status=0
    "$CARGO_TARGET_DIR/$host/release/$target" "${budget[@]}" -seed=1 -max_len=262144 -rss_limit_mb=4096 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 "$work/$target" "$work/seeds" 2>&1 \
        | tee "$work/$target.log" \
        | { grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|==|SUMMARY|Test unit written|artifact)|panicked at" || true; } \
        || status=$?
    # slow-unit-* is libFuzzer's note of an input slower than any before it, not a failure.
    inputs="$(find "$(pwd)/$artifacts" -type f ! -name 'slow-unit-*')"
    if [ "$status" -ne 0 ] || [ -n "$inputs" ]; then
        echo "fuzz: $target FAILED (libFuzzer exit status $status); the end of its output:" >&2
        tail -n 25 "$work/$target.log" >&2
        echo "fuzz: $target FAILED; the input that failed: ${inputs:-none written (see the output above)}" >&2
        failed+=("$target")
    fi
done
if [ "${#failed[@]}" -ne 0 ]; then
    echo "fuzz: failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${targets[*]} ran without a failure"
