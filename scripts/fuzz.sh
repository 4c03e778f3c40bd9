#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/ with -sanitize=fuzzer,address and runs each one.
#
#   scripts/fuzz.sh            1,000,000 runs per harness (make fuzz)
#   scripts/fuzz.sh --quick    10,000 runs or 20 s per harness, whichever comes first (make test)
#   scripts/fuzz.sh [--runs N] [--max-time SECONDS] [HARNESS...]
#   scripts/fuzz.sh --build-only   only the build (CI starts it early in the background, so that
#                              make test's fuzz step finds the harnesses up to date)
#
# Every run: -timeout=1 (an input taking over 1 s is a hang and fails the run), -rss_limit_mb,
# leak detection (LeakSanitizer, part of the toolchain's ASan runtime; known third-party leaks
# are listed in Fuzz/lsan.supp), the committed seeds in Fuzz/corpus/HARNESS and the dictionary
# Fuzz/HARNESS.dict when present. The growing corpus and any crash/leak/timeout input go to
# out/fuzz/HARNESS/. One summary line per harness, then "N passed, N failed".
# A new harness is Fuzz/Sources/FuzzNAME/main.swift + one line in Fuzz/Package.swift + seeds
# (optional: Fuzz/FuzzNAME.dict, Fuzz/FuzzNAME.max_len).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

runs=1000000
max_time=0
rss_mb=2048
max_len=8192
harnesses=()
build_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) runs=10000; max_time=20 ;;
        --build-only) build_only=1 ;;
        --runs) runs=$2; shift ;;
        --max-time) max_time=$2; shift ;;
        --rss-limit-mb) rss_mb=$2; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
        *) harnesses+=("$1") ;;
    esac
    shift
done
if [ ${#harnesses[@]} -eq 0 ]; then
    for d in Fuzz/Sources/Fuzz*/; do
        n=$(basename "$d")
        [ "$n" = FuzzSupport ] || harnesses+=("$n")
    done
fi

# Sanitizers for Swift (instrumented, libFuzzer linked) and for C/C++ (instrumented only: the
# C++ TOML parser inside TOMLKit is fuzzed too).
# -enable-testing lets a harness reach internal decoders with @testable import.
build=(swift build --package-path Fuzz -c release
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing
       -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address)
start=$(date +%s)
# One build at a time: CI builds the harnesses in the background (--build-only) while make test
# runs, and make test's own fuzz step must not drop the plan below under a build that is still
# running; it waits for it instead (and then finds the harnesses up to date).
mkdir -p Fuzz/.build
exec 9> Fuzz/.build/fuzz-build.lock
flock 9
# SwiftPM caches the build plan of a path dependency and misses files added to it since; drop
# the cached plan so that the harnesses always see the project's current sources.
rm -f Fuzz/.build/release/description.json
buildlog=$(mktemp)
for h in "${harnesses[@]}"; do
    if ! "${build[@]}" --product "$h" >"$buildlog" 2>&1; then
        grep -v 'ld.gold: warning' "$buildlog" | tail -n 40 >&2
        rm -f "$buildlog"
        echo "fuzz.sh: building $h failed" >&2
        exit 1
    fi
done
rm -f "$buildlog"
bin=$(swift build --package-path Fuzz -c release --show-bin-path)
echo "fuzz: built ${#harnesses[@]} harness(es) in $(( $(date +%s) - start )) s"
flock -u 9; exec 9>&-
[ "$build_only" = 1 ] && exit 0

# The Swift runtime's own crash backtracer would race libFuzzer's handler (and can leave a
# helper process holding the output pipe); ASan/libFuzzer report crashes themselves.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:allocator_may_return_null=1:handle_abort=1:handle_sigill=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/Fuzz/lsan.supp:print_suppressions=0}

pass=0; fail=0
for h in "${harnesses[@]}"; do
    work=out/fuzz/$h
    mkdir -p "$work/corpus"
    len=$max_len
    [ -f "Fuzz/$h.max_len" ] && len=$(cat "Fuzz/$h.max_len")
    args=(-max_total_time="$max_time" -timeout=1 -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb" -max_len="$len"
          -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$work/")
    [ -f "Fuzz/$h.dict" ] && args+=(-dict="Fuzz/$h.dict")
    seeds=()
    [ -d "Fuzz/corpus/$h" ] && seeds+=("Fuzz/corpus/$h")
    [ -d "Fuzz/regressions/$h" ] && seeds+=("Fuzz/regressions/$h")
    # A timeout on this shared 2-core machine can be a load spike rather than a hang: the
    # input is then run again alone (3 times, -timeout=1; up to 50 times per harness); only if it is slow again does the
    # run fail. Otherwise fuzzing resumes (same corpus) for the runs that are left.
    t0=$(date +%s); executed=0; spikes=0; rc=0; : >"$work/log.txt"
    while [ "$executed" -lt "$runs" ]; do
        [ "$max_time" -gt 0 ] && [ $(( $(date +%s) - t0 )) -ge "$max_time" ] && break
        rm -f "$work"/timeout-*
        "$bin/$h" "${args[@]}" -runs=$((runs - executed)) "$work/corpus" "${seeds[@]}" >"$work/run.txt" 2>&1
        rc=$?
        cat "$work/run.txt" >>"$work/log.txt"
        # Executed units: the final stats, or (after a crash/timeout) the last progress line.
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/run.txt" | tail -n 1)
        [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$work/run.txt" | tail -n 1 | tr -d '#')
        executed=$((executed + ${n:-0}))
        slow=$(ls "$work"/timeout-* 2>/dev/null | head -n 1)
        [ "$rc" -ne 0 ] && [ -n "$slow" ] && [ "$spikes" -lt 50 ] || break
        if "$bin/$h" -timeout=1 -runs=3 "$slow" >>"$work/log.txt" 2>&1; then
            spikes=$((spikes + 1))
            echo "fuzz.sh: $h: $(basename "$slow") ran in under 1 s when run again: load spike, resuming" >>"$work/log.txt"
            mv "$slow" "$work/spike-$(basename "$slow")"
        else
            break
        fi
    done
    secs=$(( $(date +%s) - t0 ))
    peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$work/log.txt" | sort -n | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$work/log.txt" | tail -n 1 | sed 's/cov: //')
    units=$(ls "$work/corpus" | wc -l)
    # Quick mode may stop on its time budget before the run count; a crash still fails it.
    if [ "$rc" -eq 0 ] && { [ "${executed:-0}" -ge "$runs" ] || [ "$max_time" -gt 0 ]; }; then
        pass=$((pass + 1))
        echo "PASS $h: ${executed} runs in ${secs} s, coverage ${cov:-?} edges, corpus ${units}, peak RSS ${peak:-?} MB, load-spike timeouts rechecked: ${spikes}"
    else
        fail=$((fail + 1))
        echo "FAIL $h (exit $rc after ${executed:-?} runs, ${secs} s) — log: $work/log.txt"
        grep -E 'ERROR|SUMMARY|Fatal error|Test unit written|timeout|out-of-memory' "$work/log.txt" | head -n 12 | sed 's/^/    /'
    fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
