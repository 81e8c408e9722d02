# SPDX-License-Identifier: ISC
# Real upstream programs tamed: Debian's source packages with our small
# patches (ports/upstream/NAME/: recipe, NAME.patch, audit.txt).  The
# driver, ports/upstream/upstream.py, fetches, builds and tests; see
# ports/upstream/README.md.  Included by the top-level Makefile.
#
#	make check-upstream	fetch, build (untamed, tamed, hook, floor),
#				run each program's own test suite tamed,
#				tame-audit --check and the hook test; ends
#				with "N passed, N failed"
#	make upstream-audit	regenerate each NAME/audit.txt (tame-audit
#				--where on the untamed build)
#	UPSTREAM='bzip2 gzip'	a subset, for any of them

UPSTREAM	?=
UPSTREAM_PY	= /usr/bin/python3 -B ports/upstream/upstream.py

# What the floor build links in place of libtame: tame() is a
# one-instruction allow filter (bench/floor.c).
$(B)/upstream/libfloor.a: $(B)/bench/floor.o $(B)/bench/load.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

.PHONY: check-upstream upstream-audit upstream-build upstream-deps
upstream-deps: deps
	@$(UPSTREAM_PY) deps $(UPSTREAM)

upstream-build: upstream-deps $(B)/libtame.a $(B)/tame-audit \
    $(B)/upstream/libfloor.a
	@$(UPSTREAM_PY) build $(UPSTREAM)

check-upstream: upstream-deps all \
    $(B)/upstream/libfloor.a
	@$(UPSTREAM_PY) check $(UPSTREAM)

upstream-audit: upstream-deps all \
    $(B)/upstream/libfloor.a
	@$(UPSTREAM_PY) audit $(UPSTREAM)
