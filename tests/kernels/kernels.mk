# make check-kernels: every suite of make check on each pinned Debian
# kernel (tests/kernels/kernels.txt) under qemu, and the matrix of
# kernel by suite (README.md: "Kernels").  Not part of make check.
#   make check-kernels KERNELS='6.1 5.10-amd64'   a subset
#   make check-kernels KERNEL_MINUTES=60          the bound per guest
#   make check-kernels KERNEL_JOBS=3              guests at once
KERNELS		?=
KERNEL_MINUTES	?= 120
KERNEL_JOBS	?= 1
KERNEL_SUITES	= $(TEST_BINS) $(sort $(wildcard tests/cli/*.sh))

check-kernels: deps
	@$(MAKE) --no-print-directory tests
	@KERNELS='$(KERNELS)' /usr/bin/python3 tests/kernels/check.py \
	    --minutes $(KERNEL_MINUTES) --jobs $(KERNEL_JOBS) $(KERNEL_SUITES)

.PHONY: check-kernels
