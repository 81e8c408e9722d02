# SPDX-License-Identifier: ISC
# make cross-arm64: libtame (.a, .so), tame-exec and its preload shim,
# tame-policy, tame-audit, the ports, the test programs and their tools,
# built for aarch64 into build-arm64/ with Debian's cross compiler
# (aarch64-linux-gnu-gcc), for the arm64 guests of make check-kernels.
# The headers and libraries it builds against (libc, check, subunit,
# libseccomp, the kernel's headers) are Debian's arm64 packages, unpacked
# by tests/kernels/userland.py into build/kernels/root-arm64/, the
# compiler's --sysroot and, later, the guests' root: doc/kernels.md (arm64)
# says why one root.  Not built: the benchmarks (C++ and Google
# Benchmark) and the fuzz targets (clang's libFuzzer), whose suites the
# arm64 guests mark n/a.
#
# tame-exec is static glibc here (musl-gcc is the host's).  The man
# page's lists are the table's, which depends on the architecture's
# calls: build-arm64/tame-policy prints them, run by qemu-aarch64 (user
# mode, on the host) in the arm64 root.
CROSS_ROOT	= $(abspath $(B))/kernels/root-arm64
CROSS_B		= build-arm64
CROSS_PC	= $(CROSS_ROOT)/usr/lib/aarch64-linux-gnu/pkgconfig
# aarch32-exit: a 32-bit ARM program of no library (t_bypass enters the
# compat entry with it); its own compiler, arm-linux-gnueabihf-gcc.
ARM32_CC	= arm-linux-gnueabihf-gcc

cross-arm64: deps
	@/usr/bin/python3 -B tests/kernels/userland.py arm64
	@$(MAKE) --no-print-directory B=$(CROSS_B) \
	    CC='aarch64-linux-gnu-gcc --sysroot=$(CROSS_ROOT)' \
	    AR=aarch64-linux-gnu-ar MUSL_CC= \
	    PKG_CONFIG='env PKG_CONFIG_SYSROOT_DIR=$(CROSS_ROOT) PKG_CONFIG_LIBDIR=$(CROSS_PC):$(CROSS_ROOT)/usr/share/pkgconfig pkg-config' \
	    RUN_TARGET='qemu-aarch64 -L $(CROSS_ROOT)' \
	    cross-targets

cross-targets: all $(TEST_BINS) $(TOOL_BINS) $(B)/tests/tools/aarch32-exit

$(B)/tests/tools/aarch32-exit: tests/tools/aarch32-exit.c
	@mkdir -p $(@D)
	$(ARM32_CC) -marm -O2 -static -nostdlib -ffreestanding \
	    -fno-stack-protector -o $@ $<

.PHONY: cross-arm64 cross-targets

# The oracle on arm64's own numbering: t_oracle compares the programs
# libtame compiles with libseccomp's, all in user space, too long for
# the guests' TCG (exclude.txt).  Here it runs under qemu-aarch64's user
# mode, which refuses seccomp to the program (lib/oracle.c pins
# libseccomp's API level, which it then cannot probe) but needs none.
check-oracle-arm64: cross-arm64
	CK_TIMEOUT_MULTIPLIER=10 qemu-aarch64 -L $(CROSS_ROOT) \
	    $(CROSS_B)/tests/t_oracle

.PHONY: check-oracle-arm64

# The arm64 build's precompiled filters (made by its own compiler under
# qemu's user mode) equal what that compiler makes at run time, and its
# relocations are complete: t_oracle's "precompiled" case, a few seconds.
check-precompiled-arm64: cross-arm64
	CK_RUN_CASE=precompiled CK_TIMEOUT_MULTIPLIER=10 \
	    qemu-aarch64 -L $(CROSS_ROOT) $(CROSS_B)/tests/t_oracle

.PHONY: check-precompiled-arm64
