#!/bin/sh
# SPDX-License-Identifier: ISC
# The fuzz targets (tests/fuzz/) in short: every kept crash input and
# every seed replayed through its target, then each target fuzzed for a
# few seconds from them.  Builds nothing: `make tests` builds the
# targets where clang has libFuzzer, and their absence is a failure,
# not a skip.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
SECONDS_EACH=${FUZZ_CHECK_SECONDS:-4}
NAMES="parse log flags decode compile"
fail() {
	echo "fuzz.sh: FAIL: $*"
	exit 1
}
fcc=${FUZZ_CC:-clang}
command -v "$fcc" > /dev/null ||
    fail "$fcc is not installed (make deps installs clang and" \
	"libclang-rt-14-dev)"
rt=$("$fcc" -print-file-name="libclang_rt.fuzzer-$(uname -m).a")
[ -f "$rt" ] ||
    fail "$fcc has no libFuzzer runtime (make deps installs" \
	"libclang-rt-14-dev)"
for n in $NAMES; do
	[ -x "$B/fuzz/fuzz_$n" ] ||
	    fail "$B/fuzz/fuzz_$n is missing: run make tests first"
done
W=$(mktemp -d /var/tmp/tame-fuzz-test.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT
# shellcheck disable=SC2086
sh tests/fuzz/run.sh -t "$SECONDS_EACH" -w "$W" -a "$B/fuzz/found" \
    "$B/fuzz" $NAMES ||
    fail "a fuzz target found a crash; its input is in" \
	"$B/fuzz/found/NAME/ (keep it in tests/fuzz/regress/NAME/)"
