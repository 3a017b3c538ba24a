#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (CTest driving
# Catch2). Exits non-zero on any failure.
# Usage: scripts/test.sh [--sanitize]   (--sanitize: ASan/UBSan build at -O1)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
  "" | --sanitize) ;;
  *)
    echo "usage: $0 [--sanitize]   (the fast build has no tests of its own: scripts/build.sh --fast)" >&2
    exit 2
    ;;
esac
"$root/scripts/install-deps.sh"
dir="$("$root/scripts/build.sh" "$@" | tail -n 1)"
# Leak detection is off: LeakSanitizer crashes while scanning the coroutine
# stacks of SystemC threads (after the tests have passed).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Under the sanitizers two groups run only in the Release run: the tests
# that run every workload on every chiplet topology and on
# cpelide_4chiplet and its _home_l2 and _requester_l2 variants (about 140 s each there, half the sanitizer run;
# the chiplet code they reach is in the other chiplet tests), and the mem:protocol tests, which make a block's protocol
# check throw out of a SystemC thread: ASan cannot follow the unwinding across
# SystemC's coroutine stacks and reports a false stack-buffer-underflow
# ("ASan is ignoring requested __asan_handle_no_return"). Also left to the
# Release run: the chiplet netlists' bandwidth calibrations (streams of tens of
# MiB, 13-93 s each in Release, past the timeout under the sanitizers); the
# blocks they drive are in the shorter chiplet tests.
skip=()
if [ "${1:-}" = "--sanitize" ]; then
  skip=(-E "every workload on ([0-9]+ chiplets|cpelide_4chiplet)|^mem:protocol: |(mi200_2chiplet|cpelide_4chiplet).*(DRAM stream|links? carr|interleaved)")
fi
cd "$dir"
ctest -j"${TESSERA_JOBS:-2}" --output-on-failure --timeout 600 "${skip[@]}"
