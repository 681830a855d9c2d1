#!/bin/sh
# run.sh [--merge] NAME... - runs libFuzzer harnesses build/fuzz/NAME (built by `make fuzz').
#
# Each harness runs for FUZZ_SECONDS seconds (default 60) from its saved inputs:
# tests/fuzz/corpus/NAME/ (the seeds) and tests/fuzz/regress/NAME/ (past crashes), adding what it
# finds to build/fuzz/corpus/NAME/. An input that crashes, trips a sanitizer or a check, takes
# more than FUZZ_TIMEOUT seconds (default 10) or more than FUZZ_RSS_MB of memory (default 2048)
# is saved as build/fuzz/crashes/NAME-crash-*, -timeout-* (etc.): replay it with
# `build/asan/tests/test_fuzz NAME FILE', then make it a regression input in
# tests/fuzz/regress/NAME/ and fix the bug. The programs' own stderr is silenced unless
# FUZZ_VERBOSE=1. Logs go to build/fuzz/logs/NAME.log; the summary (executions, speed, corpus,
# crashes) is printed at the end and kept in build/fuzz/summary.txt. Exit status 1 if anything
# crashed.
#
# --merge: instead, folds build/fuzz/corpus/NAME/ into tests/fuzz/corpus/NAME/, keeping only the
# inputs that add coverage (libFuzzer's -merge=1), for a commit.
set -u
cd "$(dirname "$0")/../.." || exit 1
seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
mask=2
[ "${FUZZ_VERBOSE:-0}" = 1 ] && mask=0
mkdir -p build/fuzz/corpus build/fuzz/crashes build/fuzz/logs

if [ "${1:-}" = --merge ]; then
    shift
    for name in "$@"; do
        mkdir -p "tests/fuzz/corpus/$name" "build/fuzz/corpus/$name"
        before=$(ls "tests/fuzz/corpus/$name" | wc -l)
        "build/fuzz/$name" -merge=1 -close_fd_mask=$mask -timeout="$timeout" \
            "tests/fuzz/corpus/$name" "build/fuzz/corpus/$name" >"build/fuzz/logs/$name-merge.log" 2>&1
        after=$(ls "tests/fuzz/corpus/$name" | wc -l)
        echo "$name: tests/fuzz/corpus/$name $before -> $after files"
    done
    exit 0
fi

summary=build/fuzz/summary.txt
status=0
printf '%-12s %12s %8s %8s %8s  %s\n' harness executions exec/s corpus new_units crashes >"$summary"
for name in "$@"; do
    log=build/fuzz/logs/$name.log
    mkdir -p "build/fuzz/corpus/$name"
    set -- -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss" \
        -print_final_stats=1 -close_fd_mask=$mask -use_value_profile=1 \
        -artifact_prefix="build/fuzz/crashes/$name-"
    [ -f "tests/fuzz/dict/$name.dict" ] && set -- "$@" -dict="tests/fuzz/dict/$name.dict"
    set -- "$@" "build/fuzz/corpus/$name" "tests/fuzz/corpus/$name"
    [ -d "tests/fuzz/regress/$name" ] && set -- "$@" "tests/fuzz/regress/$name"
    echo "fuzz: $name for $seconds s (log: $log)"
    before=$(ls build/fuzz/crashes | grep -c "^$name-")
    "build/fuzz/$name" "$@" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -n 1)
    corpus=$(ls "build/fuzz/corpus/$name" "tests/fuzz/corpus/$name" | grep -vc '^$\|:$')
    found=$(ls build/fuzz/crashes | grep "^$name-" | tail -n +$((before + 1)) | tr '\n' ' ')
    if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
        status=1
        [ -n "$found" ] || found="exit status $rc, see $log"
        grep -m 3 -E 'ERROR|fuzz: |SUMMARY|Test unit written' "$log" | sed 's/^/    /'
    else
        found=none
    fi
    printf '%-12s %12s %8s %8s %8s  %s\n' "$name" "${execs:-?}" "${speed:-?}" "$corpus" \
        "${added:-?}" "$found" >>"$summary"
done
echo
cat "$summary"
exit $status
