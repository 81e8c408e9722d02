# SPDX-License-Identifier: ISC
# suite.mk: bench/suite.sh's make, run with -B in its directory: one
# recipe that is a pipeline of its own (make, then sh, then three
# programs).
all: counts.txt

counts.txt: head.txt
	cut -d' ' -f2- head.txt | sort | uniq -c > counts.txt
