# SPDX-License-Identifier: ISC
# Programs that pledge themselves (ports/pledged/NAME/: recipe, and a
# patch only where the build cannot turn its sandbox on alone), built
# from Debian's sources against libtame installed from this tree.  The
# driver, ports/pledged/pledged.py, fetches, builds and tests; see
# ports/pledged/README.md.  Included by the top-level Makefile.
#
#	make check-pledged	fetch, build (untamed, pledged), run each
#				program's own suite on both, tame-audit
#				--check and the live-sandbox proof; ends
#				with "N passed, N failed"
#	PLEDGED='xz-utils lowdown'	a subset

PLEDGED		?=
PLEDGED_PY	= /usr/bin/python3 -B ports/pledged/pledged.py
PLEDGED_PREFIX	= $(abspath $(B))/pledged/prefix

# The proof's preloaded pledge(): test-only, never installed.
$(B)/pledged/hook.so: ports/pledged/hook.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -fPIC -shared -o $@ $< -ldl

.PHONY: check-pledged pledged-build pledged-deps pledged-install pledged-audit
pledged-deps: deps
	@$(PLEDGED_PY) deps $(PLEDGED)

# what the programs' builds find through pkg-config (libtame-pledge)
pledged-install: all
	@$(MAKE) --no-print-directory install PREFIX=$(PLEDGED_PREFIX) \
	    > $(B)/pledged-install.log

pledged-build: pledged-deps pledged-install $(B)/pledged/hook.so
	@$(PLEDGED_PY) build $(PLEDGED)

check-pledged: pledged-deps pledged-install $(B)/pledged/hook.so
	@$(PLEDGED_PY) check $(PLEDGED)

# each NAME/audit.txt: the flags and promises its suite needed (the
# untamed build under tame-audit --profile) beside the author's promises
pledged-audit: pledged-deps pledged-install $(B)/pledged/hook.so
	@$(PLEDGED_PY) audit $(PLEDGED)
