#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-audit never harms the files it runs over: the fault suite
# (tests/cli/audit_faults.py says what it does).  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
exec python3 tests/cli/audit_faults.py "$@"
