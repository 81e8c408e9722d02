#!/bin/sh
# SPDX-License-Identifier: ISC
# Install the Debian packages the build, the tests and the benchmarks
# need, if any is missing (the line from python3 to bc: the programs the
# audit corpus, tests/cli/audit_corpus.sh, runs; locales: its localedef
# builds tests/cli/audit.sh's EUC-JP locale; the next two: the guests
# of make check-kernels, the arm64 cross build and its AArch32 helper; the
# last: the Debian tools of make deb and make check-deb, packaging.mk).
# Uses sudo when not root.
set -e
PKGS="build-essential pkg-config libseccomp-dev check libsubunit-dev strace \
    libbenchmark-dev g++ hyperfine gnuplot-nox jq mandoc iproute2 iputils-ping musl-tools \
    attr curl tar gzip python3-jsonschema libcap2-bin clang libclang-rt-14-dev \
    libbenchmark-tools python3-scipy python3-numpy valgrind stress-ng \
    python3 bzip2 xz-utils zstd lz4 git sqlite3 openssl file zip unzip wget bc \
    locales \
    qemu-system-x86 busybox-static \
    gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-system-arm qemu-user \
    dpkg-dev debhelper lintian autopkgtest"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
	    missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: no apt-get here; install them with your package manager" >&2
	exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends $missing
