# SPDX-License-Identifier: ISC
# Fuzz targets (tests/fuzz/fuzz_*.c): libFuzzer with ASan and UBSan, for
# the code that reads hostile input.  clang compiles the library's and
# the auditor's sources again, instrumented, into $(B)/fuzz/; the
# normal build's objects are never touched.
#
#	make fuzz [FUZZ_SECONDS=60]	fuzz each target that long; a crash
#					is kept in tests/fuzz/regress/NAME/
#	make tests			builds the targets too, where clang
#					has libFuzzer; tests/cli/fuzz.sh
#					replays the kept inputs and fuzzes
#					each target a few seconds

FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_NAMES	= parse log flags decode compile
FUZZ_BINS	= $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%)

# libFuzzer's runtime; -print-file-name echoes the bare name when absent.
FUZZ_RT		:= $(wildcard $(shell $(FUZZ_CC) \
		   -print-file-name=libclang_rt.fuzzer-$$(uname -m).a \
		   2>/dev/null))

# UBSan findings stop the run like ASan's: libFuzzer keeps the input.
FUZZ_SAN	= -fsanitize=address,undefined -fno-sanitize-recover=all \
		  -fno-omit-frame-pointer
FUZZ_CFLAGS	= -std=gnu11 -g -O1 -Wall -Wextra \
		  -Wno-missing-field-initializers -MMD -MP $(FUZZ_SAN)

# Everything a target may need; the linker takes only what it uses.
FUZZ_SRCS	= $(LIB_SRCS) $(B)/gen/precompiled.c \
		  $(filter-out audit/main.c,$(AUDIT_SRCS)) \
		  tests/expect.c tests/fuzz/guard.c tests/fuzz/input.c
FUZZ_OBJS	= $(FUZZ_SRCS:%.c=$(B)/fuzz/obj/%.o)

$(B)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -Iaudit -Itests -Itests/fuzz $(FUZZ_CFLAGS) \
	    -fsanitize=fuzzer-no-link $(FUZZ_NOCMP) -c $< -o $@

# The compiler's and the cover solver's loops compare all the time, and
# tracing each compare for libFuzzer made them 7 times slower while the
# values compared are the table's, not the input's: edge coverage only.
$(B)/fuzz/obj/lib/compile.o $(B)/fuzz/obj/audit/cover.o: \
    FUZZ_NOCMP = -fno-sanitize-coverage=trace-cmp

$(B)/fuzz/obj/lib/sysnames.o: $(B)/sysnames.h

$(B)/fuzz/libfuzz.a: $(FUZZ_OBJS)
	rm -f $@
	$(AR) rcs $@ $(FUZZ_OBJS)

$(B)/fuzz/fuzz_%: $(B)/fuzz/obj/tests/fuzz/fuzz_%.o $(B)/fuzz/libfuzz.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< \
	    $(B)/fuzz/libfuzz.a

ifneq ($(FUZZ_RT),)
tests: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@sh tests/fuzz/run.sh -a tests/fuzz/regress -t $(FUZZ_SECONDS) \
	    $(B)/fuzz $(FUZZ_NAMES)
else
fuzz:
	@echo "fuzz: $(FUZZ_CC) with libFuzzer is needed (make deps" \
	    "installs clang and libclang-rt-14-dev)" >&2
	@exit 1
endif

.PRECIOUS: $(B)/fuzz/obj/tests/fuzz/%.o
.PHONY: fuzz
