# SPDX-License-Identifier: ISC
# Benchmarks: google-benchmark micro-benchmarks in C (bench/shim.cc is
# the one C++ file), whole-command timings with hyperfine, and the
# report in reports/.  Included by the top-level Makefile.
#
#	make bench		install what is missing, build, run, report
#	make bench-build	only build build/bench/micro
#	make bench-compare OLD=dir NEW=dir
#				the change, row by row, between two runs'
#				reports directories (bench/report/compare.py)
#
# BENCH_ROUNDS=N (default 5) sets how many times each configuration's
# process is run; bench/run.sh documents the rest.  bench/run.sh runs
# the programs; the report and the comparison are Python (bench/report/,
# standard library only, run with -B: no __pycache__ in the tree).

BENCH_PY	= /usr/bin/python3 -B

CXX		?= c++
BENCH_CXXFLAGS	= -O2 -g -std=gnu++17 -Wall -Wextra
BENCH_CFLAGS	= $(shell $(PKG_CONFIG) --cflags benchmark libseccomp 2>/dev/null)
BENCH_LIBS	= $(shell $(PKG_CONFIG) --libs benchmark libseccomp 2>/dev/null) \
		  -lpthread

BENCH_SRCS	= bench/micro.c bench/config.c bench/load.c bench/latency.c \
		  bench/interleave.c
BENCH_OBJS	= $(BENCH_SRCS:%.c=$(B)/%.o) $(B)/bench/shim.o

# libseccomp's build of the same policy (tests/oracle.c), for comparison.
BENCH_OBJS	+= $(B)/tests/oracle.o

$(B)/bench/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ibench -Itests $(BENCH_CFLAGS) $(CFLAGS) \
	    -c $< -o $@

$(B)/bench/shim.o: bench/shim.cc bench/bench.h
	@mkdir -p $(@D)
	$(CXX) -Ibench $(BENCH_CFLAGS) $(BENCH_CXXFLAGS) -c bench/shim.cc -o $@

$(B)/bench/micro: $(BENCH_OBJS) $(B)/libtame.a
	$(CXX) $(LDFLAGS) -o $@ $(BENCH_OBJS) $(B)/libtame.a $(BENCH_LIBS)

# cat-untamed with libtame linked in all the same (-u tame pulls tame()
# and everything it needs from the archive) but never called: splits the
# tamed cat's extra time into what the bigger binary costs at start-up
# and what tame() costs.
$(B)/bench/cat-linked: $(B)/ports/cat/cat.untamed.o $(B)/libtame.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -Wl,-u,tame -o $@ $(B)/ports/cat/cat.untamed.o \
	    $(B)/libtame.a

# Each port's tamed object with tame() a 1-instruction allow filter
# (bench/floor.c): NAME-floor, the whole-command floor for any filter at
# all (one for each tame() call the port makes).
PORT_FLOORS	= $(PORT_NAMES:%=$(B)/bench/%-floor)
define port_floor
$(B)/bench/$(1)-floor: $(B)/ports/$(1)/$(1).o $(B)/bench/floor.o \
    $(B)/bench/load.o
	@mkdir -p $$(@D)
	$$(CC) $$(LDFLAGS) -o $$@ $(B)/ports/$(1)/$(1).o \
	    $(B)/bench/floor.o $(B)/bench/load.o
endef
$(foreach p,$(PORT_NAMES),$(eval $(call port_floor,$(p))))

# tame-exec's floor: the same launcher beside its shim with tame() a
# 1-instruction allow filter (bench/floor.c), where tame-exec looks for
# the shim: what launching through a preloaded shim costs with any filter
# at all, the floor under tame-exec's ratio.  A preloaded shim cannot
# carry ASan (its runtime must come first): UBSan alone, as the real one.
EXEC_FLOOR	= $(B)/bench/exec-floor
# The rest of the shim comes along (its exec wrappers, the profile reader
# and the flag names it needs), so that both load the same.
EXEC_FLOOR_OBJS	= $(SHIM_SRCS:%.c=$(EXEC_FLOOR)/%.o) \
		  $(EXEC_FLOOR)/bench/floor.o $(EXEC_FLOOR)/bench/load.o \
		  $(EXEC_FLOOR)/lib/flags.o $(EXEC_FLOOR)/lib/policy.o
ifeq ($(SANITIZE),1)
$(EXEC_FLOOR)/%: private SAN_FLAGS = $(UBSAN_FLAGS)
endif
$(EXEC_FLOOR)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ibench $(CFLAGS) -c $< -o $@

$(EXEC_FLOOR)/libtame-preload.so: $(EXEC_FLOOR_OBJS)
	$(CC) -shared $(LDFLAGS) -o $@ $(EXEC_FLOOR_OBJS)

$(EXEC_FLOOR)/tame-exec: $(B)/tame-exec
	@mkdir -p $(@D)
	cp $(B)/tame-exec $@

# The kernel's attach by program shape (bench/attach.c), with the
# replay of the constant-action cache that t_cache checks.
$(B)/bench/attach: $(B)/bench/attach.o $(B)/bench/clock.o \
    $(B)/tests/replay.o $(B)/libtame.a
	$(CC) $(LDFLAGS) -o $@ $(B)/bench/attach.o $(B)/bench/clock.o \
	    $(B)/tests/replay.o $(B)/libtame.a

# The first tame() of a freshly exec'd program (run.sh execs it per sample).
$(B)/bench/fresh: $(B)/bench/fresh.o $(B)/bench/load.o $(B)/bench/clock.o \
    $(B)/libtame.a
	$(CC) $(LDFLAGS) -o $@ $(B)/bench/fresh.o $(B)/bench/load.o \
	    $(B)/bench/clock.o $(B)/libtame.a

# The same first tame(), step by step (bench/phases.c); libtame's own
# system calls are wrapped to mark a boundary inside a library function.
$(B)/bench/phases: $(B)/bench/phases.o $(B)/bench/clock.o $(B)/libtame.a
	$(CC) $(LDFLAGS) -Wl,--wrap=tame__sys -o $@ $(B)/bench/phases.o \
	    $(B)/bench/clock.o $(B)/libtame.a

.PHONY: bench-build
bench-build: $(B)/bench/micro $(B)/bench/cat-linked $(PORT_FLOORS) \
    $(B)/bench/fresh $(B)/bench/phases $(B)/bench/attach \
    $(EXEC_FLOOR)/tame-exec \
    $(EXEC_FLOOR)/libtame-preload.so \
    $(B)/tests/tools/refuse

.PHONY: bench-compare
bench-compare:
	@if [ -z "$(OLD)" ] || [ -z "$(NEW)" ]; then \
		echo "usage: make bench-compare OLD=dir NEW=dir" >&2; exit 2; fi
	@sh .ci/deps.sh
	@$(BENCH_PY) bench/report/compare.py "$(OLD)" "$(NEW)"

bench:
	@sh .ci/deps.sh
	@$(MAKE) --no-print-directory all bench-build
	@B=$(B) sh bench/run.sh
	@B=$(B) $(BENCH_PY) bench/report
