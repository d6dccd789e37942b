#!/bin/bash
# make fuzz: long libFuzzer runs of heapprof's fuzz targets (test/fuzz/).
#   FUZZ_TIME=600      seconds per target
#   FUZZ_TARGETS="flags_fuzzer rawreader_fuzzer model_fuzzer merge_fuzzer suppressions_fuzzer"
#   FUZZ_ARGS=         more libFuzzer options, e.g. "-jobs=2 -workers=2"
# The corpus grows in $BUILD/fuzz-corpus/<target> and is kept between runs;
# crashes, property violations, slow inputs and leaks land in
# $BUILD/fuzz-artifacts/<target>/ and make the script exit 1 naming the
# reproducer.  Ends with one line per target: runs, coverage, corpus.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
FUZZ_TIME=${FUZZ_TIME:-600}
FUZZ_TARGETS=${FUZZ_TARGETS:-flags_fuzzer rawreader_fuzzer model_fuzzer merge_fuzzer suppressions_fuzzer}
FUZZ_ARGS=${FUZZ_ARGS:-}
bin="$BUILD/fuzz"
corpus="$BUILD/fuzz-corpus"
art="$BUILD/fuzz-artifacts"

for t in $FUZZ_TARGETS; do
  if [ ! -x "$bin/$t" ]; then
    echo "fuzz: $bin/$t was not built: CMake found no libFuzzer" \
         "(clang-19 -fsanitize=fuzzer; Debian: libclang-rt-19-dev)" >&2
    exit 1
  fi
done
mkdir -p "$corpus" "$art"

# The reader's and the loader's seeds: real profiles from the current
# runtime (a checkpoint and the exit dump, both in one file, without the
# extension, with false sharing, sampled); merge's: each of them alone and
# with the next (test/fuzz/Inputs/pair.py).
seeds="$corpus/profile-seeds"
pairs="$corpus/merge-seeds"
rm -rf "$seeds" "$pairs" && mkdir -p "$seeds" "$pairs"
"$BUILD/bin/heapprof-clang" -fheapprof -O0 -I"$BUILD/include" \
  "$root/test/fuzz/Inputs/seed_program.c" -o "$corpus/seed_program" || exit 1
for opts in "" ":append_dumps=1" ":raw_extension=0" ":false_sharing=1" \
    ":sample_bytes=4096:sample_seed=1"; do
  HEAPPROF_OPTIONS="profile_dir=$seeds$opts" "$corpus/seed_program" || exit 1
done
python3 "$root/test/fuzz/Inputs/pair.py" "$pairs" "$seeds"/*.profraw || exit 1

failed=0
summary=()
for t in $FUZZ_TARGETS; do
  case $t in
  flags_fuzzer)
    # -max_len: option strings longer than the parser's 8 KB string arena.
    extra=(-dict="$bin/flags.dict" -max_len=12000)
    seed_dir="$root/test/fuzz/corpus/flags" ;;
  rawreader_fuzzer|model_fuzzer)
    extra=(-max_len=16384)
    seed_dir="$seeds" ;;
  merge_fuzzer)
    # Two profiles and the u32 before them.
    extra=(-max_len=20000)
    seed_dir="$pairs" ;;
  suppressions_fuzzer)
    extra=()
    seed_dir="$root/test/fuzz/corpus/suppressions" ;;
  *)
    extra=()
    seed_dir= ;;
  esac
  mkdir -p "$corpus/$t" "$art/$t"
  log="$art/$t.log"
  echo "== $t for ${FUZZ_TIME}s (log: $log)"
  # shellcheck disable=SC2086  # FUZZ_ARGS is a list of options
  "$bin/$t" -max_total_time="$FUZZ_TIME" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$art/$t/" "${extra[@]}" $FUZZ_ARGS \
    "$corpus/$t" $seed_dir >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  stats=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [^ ]+')
  if [ "$rc" != 0 ]; then
    failed=1
    repro=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
    echo "fuzz: $t FAILED (exit $rc); reproducer: ${repro:-none written}" >&2
    grep -E 'property violated|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|ALARM' "$log" | head -3 >&2
    [ -n "$repro" ] && echo "  rerun: $bin/$t $repro" >&2
    summary+=("$t: FAILED after ${runs:-?} runs; reproducer ${repro:-none}")
  else
    summary+=("$t: ${runs:-?} runs, $stats")
  fi
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $failed
