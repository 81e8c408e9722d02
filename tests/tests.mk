# SPDX-License-Identifier: ISC
# Tests: every tests/t_*.c is one Check program (one suite); run-tests.sh
# runs them all and the CLI tests, and prints the closing line
# "N passed, N failed".

CHECK_CFLAGS	= $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS	= $(shell $(PKG_CONFIG) --libs check 2>/dev/null)
SECCOMP_CFLAGS	= $(shell $(PKG_CONFIG) --cflags libseccomp 2>/dev/null)
SECCOMP_LIBS	= $(shell $(PKG_CONFIG) --libs libseccomp 2>/dev/null)

TEST_SRCS	= $(wildcard tests/t_*.c)
TEST_BINS	= $(TEST_SRCS:tests/%.c=$(B)/tests/%)

$(B)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests -Iaudit $(CHECK_CFLAGS) $(SECCOMP_CFLAGS) \
	    $(CFLAGS) -c $< -o $@

# The oracle builds the same policy with libseccomp, for the tests only:
# libtame itself never links libseccomp.
TEST_OBJS	= $(B)/tests/harness.o $(B)/tests/expect.o $(B)/tests/oracle.o \
		  $(B)/tests/sibling.o $(B)/tests/replay.o \
		  $(AUDIT_LIB_OBJS)

$(B)/tests/t_%: $(B)/tests/t_%.o $(TEST_OBJS) $(B)/libtame.a
	$(CC) $(LDFLAGS) -o $@ $< $(TEST_OBJS) $(B)/libtame.a \
	    $(CHECK_LIBS) $(SECCOMP_LIBS) -lpthread

# Small real programs the CLI tests run under tame-exec (tests/tools/).
TOOL_BINS	= $(B)/tests/tools/lockprog $(B)/tests/tools/httpd \
		  $(B)/tests/tools/refuse $(B)/tests/tools/launch \
		  $(B)/tests/tools/workers $(B)/tests/tools/owner

$(B)/tests/tools/%: tests/tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

# The red-team cases (tests/redteam/redteam.mk), run by tests/cli/redteam.sh.
include tests/redteam/redteam.mk

# The bench's smoke test (tests/cli/bench.sh) runs its binaries too.
tests: all $(TEST_BINS) $(TOOL_BINS) $(REDTEAM_BINS) bench-build

check: deps
	@$(MAKE) --no-print-directory tests
	@sh tests/run-tests.sh $(TEST_BINS)

# The suites with every core busy (tests/stress.sh): make check 3 rounds,
# SANITIZE=1 once, and the suites that race threads, signals and
# children 20 rounds each, under stress-ng; about an hour on 2 cores.
# Not part of make check or CI.
check-stress: deps
	@$(MAKE) --no-print-directory tests
	@MAKE='$(MAKE)' sh tests/stress.sh

# The long comparison with libseccomp: 10^6 random tuples (about a minute).
check-oracle: tests
	TAME_ORACLE_TUPLES=1000000 $(B)/tests/t_oracle
	$(B)/tests/t_cache

# The differential at scale, not part of make check or CI: 2 * 10^7
# random tuples through the compiled filter, libseccomp's program and
# the table's matcher, and for every one of the 8192 flag sets each
# single-flag narrowing and three random chains down to 0, stacked
# deltas against full filters and libseccomp's (t_oracle.c:
# test_every_narrowing).  Prints each part's counts and disagreements,
# and the wall time: about 5 minutes on 2 cores.
LONG_TUPLES	?= 20000000
LONG_CHAINS	?= 3

check-long: $(B)/tests/t_oracle
	@start=$$(date +%s); \
	TAME_ORACLE_TUPLES=$(LONG_TUPLES) TAME_ORACLE_NARROWING=1 \
	    TAME_ORACLE_CHAINS=$(LONG_CHAINS) CK_TIMEOUT_MULTIPLIER=10 \
	    $(B)/tests/t_oracle; status=$$?; \
	echo "check-long: $$(($$(date +%s) - start)) s wall time"; \
	exit $$status

.PHONY: check-long
.PHONY: tests check-oracle check-stress

include tests/fuzz/fuzz.mk
