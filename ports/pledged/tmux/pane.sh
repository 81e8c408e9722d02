#!/bin/sh
# SPDX-License-Identifier: ISC
# tmux built with its sandbox on: a command typed in a pane runs
# unpledged (the server forks and execs it with NULL execpromises) while
# the server stays pledged.  The pane's command makes an AF_INET socket,
# which none of the server's promises allows, and writes a file.  Run by
# pledged.py in a fresh directory, $PLEDGED the pledged tmux.
set -e
T=$PLEDGED
export TMUX_TMPDIR="$PWD"
cat > pane.py <<'PY'
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
open("pane-out", "w").write("inet ok %d\n" % s.getsockname()[1])
PY
"$T" -S sock -f /dev/null new-session -d "python3 '$PWD/pane.py'; sleep 30"
pid=$("$T" -S sock display-message -p '#{pid}')
i=0
while [ ! -s pane-out ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cat pane-out
grep -q '^inet ok' pane-out
# the server that forked it: filtered, and still serving
grep '^Seccomp:' /proc/"$pid"/status
grep -q '^Seccomp:[[:space:]]*2' /proc/"$pid"/status
"$T" -S sock list-sessions
"$T" -S sock kill-server
