# SPDX-License-Identifier: ISC
# make check-kernels: every suite of make check on each pinned Debian
# kernel (tests/kernels/kernels.txt: amd64, and arm64 with make
# cross-arm64's build) under qemu, and the matrix of kernel by suite
# (doc/kernels.md).  Not part of make check.
#   make check-kernels KERNELS='6.1 5.10-amd64'   a subset
#   make check-kernels KERNEL_MINUTES=90          the bound per guest
#   make check-kernels KERNEL_SUITE_SECONDS=1200  the bound per suite
#   make check-kernels KERNEL_JOBS=3              guests at once
#   make check-kernels KERNEL_CPUS=1              vCPUs a guest
# The bounds: the 5.10 guest took 46 minutes while another helper's
# guest shared the 2 cores, its slowest suite (port-sort.sh) 393 s
# (doc/kernels.md): a hung guest or suite is killed, a slow one not.
KERNELS		?=
KERNEL_MINUTES	?= 75
KERNEL_SUITE_SECONDS ?= 900
KERNEL_JOBS	?= 1
KERNEL_CPUS	?= 2
KERNEL_SUITES	= $(TEST_BINS) $(sort $(wildcard tests/cli/*.sh))

# A kernel of another architecture (arm64) runs its cross build.
check-kernels: deps
	@$(MAKE) --no-print-directory tests
	@for arch in $$(KERNELS='$(KERNELS)' /usr/bin/python3 -B \
	    tests/kernels/kernels.py); do \
	    $(MAKE) --no-print-directory cross-$$arch || exit 1; done
	@KERNELS='$(KERNELS)' /usr/bin/python3 -B tests/kernels/check.py \
	    --minutes $(KERNEL_MINUTES) --suite-timeout $(KERNEL_SUITE_SECONDS) \
	    --jobs $(KERNEL_JOBS) --cpus $(KERNEL_CPUS) $(KERNEL_SUITES)

.PHONY: check-kernels

# CI's share (.ci/run): Debian 12's kernel on both architectures, with
# the suites that need a guest's kernel (exclude.txt: what is user space
# only is left to make check on the host, and share=ci the auditor's
# corpora), both guests at once with one vCPU each: with two vCPUs a
# guest slowed 3.5 times beside stress-ng --cpu 2, with one 2.3 times
# (check.py).  The wall is for a hung guest, not a slow one: the whole
# share took 13 minutes on a quiet machine (2026-12-06, with the arm64
# check below) and 23 beside stress-ng --cpu 2.  Then the arm64 build's precompiled filters
# against its own compiler (cross.mk).
KERNEL_CI	= 6.1-amd64 6.1-arm64

check-kernels-ci:
	@KERNEL_SHARE=ci $(MAKE) --no-print-directory check-kernels \
	    KERNELS='$(KERNEL_CI)' KERNEL_JOBS=2 KERNEL_CPUS=1 \
	    KERNEL_MINUTES=50
	@$(MAKE) --no-print-directory check-precompiled-arm64

.PHONY: check-kernels-ci
