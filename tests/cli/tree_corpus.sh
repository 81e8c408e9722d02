#!/bin/sh
# SPDX-License-Identifier: ISC
# The tree corpus (tests/trees/corpus.py): tame-audit --profile and
# tame-exec --profile on pipelines, scripts, xargs, find -exec, make and
# their kind; each reproduces under its profile, and each listed flag
# beyond stdio is needed.
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 -B tests/trees/corpus.py
