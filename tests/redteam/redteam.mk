# SPDX-License-Identifier: ISC
# The red-team cases (tests/redteam/, issue 46): one program a way out of
# the sandbox, each built from tests/redteam/NAME.c and the shared
# redteam.c against libtame.a into $(B)/tests/redteam/NAME; run by
# tests/cli/redteam.sh, as root and as an unprivileged user.  Included by
# tests/tests.mk: `make tests` (so make check, and make cross-arm64's
# cross-targets) builds them.
REDTEAM_SRCS	= $(filter-out tests/redteam/redteam.c,\
		    $(wildcard tests/redteam/*.c))
REDTEAM_BINS	= $(REDTEAM_SRCS:tests/redteam/%.c=$(B)/tests/redteam/%)

$(B)/tests/redteam/redteam.o: tests/redteam/redteam.c tests/redteam/redteam.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/redteam $(CFLAGS) -c $< -o $@

$(B)/tests/redteam/%: tests/redteam/%.c $(B)/tests/redteam/redteam.o \
    $(B)/libtame.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/redteam $(CFLAGS) $(LDFLAGS) -o $@ $< \
	    $(B)/tests/redteam/redteam.o $(B)/libtame.a -lpthread

.PHONY: redteam
redteam: $(REDTEAM_BINS)

# make cross-arm64 builds them too (cross.mk's cross-targets).
cross-targets: $(REDTEAM_BINS)
