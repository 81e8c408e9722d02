# SPDX-License-Identifier: ISC
# make census: every dynamically linked program of CENSUS_DIR (default
# /usr/bin) run with --version and --help, bare, under tame-audit and
# under tame-exec with the audit's flags; writes reports/census.md,
# census.svg and census.json (census/census.py).  Included by the
# top-level Makefile; not part of make check (tests/cli/census.sh is).
#
#	make census CENSUS_DIR=/usr/sbin CENSUS_JOBS=4
#	make census CENSUS_REPORTS=DIR CENSUS_ARGS='--fresh --only ls cat'
#
# Results are kept in $(B)/census/results/ so that an interrupted
# census resumes; CENSUS_ARGS=--fresh starts over.

CENSUS_REPORTS	?= reports
CENSUS_ARGS	?=

.PHONY: census
census:
	@sh .ci/deps.sh
	@$(MAKE) --no-print-directory $(B)/tame-audit $(B)/tame-exec \
	    $(B)/libtame-preload.so
	/usr/bin/python3 -B census/census.py --tools $(B) -w $(B)/census \
	    -o $(CENSUS_REPORTS) $(if $(CENSUS_DIR),-d '$(CENSUS_DIR)') \
	    $(if $(CENSUS_JOBS),-j $(CENSUS_JOBS)) $(CENSUS_ARGS)
