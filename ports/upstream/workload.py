# SPDX-License-Identifier: ISC
"""The typical run of an upstream program, as its recipe says
(workload =, stdin =, data =, server =): the same run is audited with
--where, checked with --check, run by the hook build and timed by the
bench.  Each run gets a fresh directory beneath $B/upstream/NAME/run-*,
generated input of its kind, and, for a network client, an HTTP server
on loopback serving that input."""

import functools
import hashlib
import http.server
import os
import random
import shlex
import shutil
import subprocess
import threading

DATA_SIZE = 256 * 1024		# the typical run's input
BENCH_SIZE = 100 * 1000 * 1000	# the bench's real work


def machine_arch():
    return subprocess.run(["dpkg", "--print-architecture"],
                          stdout=subprocess.PIPE, text=True,
                          check=True).stdout.strip()


def indent(text, n=12):
    lines = (text or "").splitlines()[-n:]
    return "\n".join("    " + l for l in lines)


WORDS = ("the of and to in is that for it as with was on be by at this "
         "from or an are which not but have all were when we there can "
         "tame flags process filter call path open read write socket "
         "system kernel seccomp landlock policy table audit trace").split()


def make_text(path, size):
    """Text with the statistics of prose (a word list, Zipf-like), not
    random bytes: compressors do their real work on it."""
    rnd = random.Random(2015)
    weights = [1.0 / (i + 1) for i in range(len(WORDS))]
    with open(path, "w") as f:
        written = 0
        while written < size:
            words = rnd.choices(WORDS, weights, k=4096)
            line = []
            chunk = []
            for w in words:
                line.append(w)
                if len(line) > 11 or rnd.random() < 0.05:
                    chunk.append(" ".join(line) + ".\n")
                    line = []
            s = "".join(chunk)
            f.write(s)
            written += len(s)


def make_json(path, size):
    """An array of records, as a log or an API would give."""
    rnd = random.Random(2015)
    with open(path, "w") as f:
        f.write("[\n")
        written, n = 0, 0
        while written < size:
            rec = ('%s{"id": %d, "name": "%s", "n": %d, "tags": ["%s", "%s"],'
                   ' "ok": %s, "score": %.3f}\n'
                   % ("," if n else "", n, rnd.choice(WORDS),
                      rnd.randrange(1000), rnd.choice(WORDS),
                      rnd.choice(WORDS), "true" if n % 3 else "false",
                      rnd.random() * 100))
            f.write(rec)
            written += len(rec)
            n += 1
        f.write("]\n")


MAKERS = {"text": make_text, "json": make_json}


def data_file(rc, size, kind=None):
    """The generated input of SIZE bytes, made once, kept in
    $B/upstream/data/."""
    kind = kind or rc.get("data", "text")
    if kind not in MAKERS:
        raise SystemExit("%s/recipe: data = %s: not one of %s"
                         % (rc.name, kind, ", ".join(MAKERS)))
    d = os.path.join(os.path.dirname(rc.work), "data")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "%s-%d" % (kind, size))
    if not os.path.exists(path):
        MAKERS[kind](path + ".tmp", size)
        os.rename(path + ".tmp", path)
    return path


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Workload:
    """with Workload(rc, which) as wl: wl.run(prefix) runs PREFIX +
    the WHICH build's program + the recipe's arguments."""

    def __init__(self, rc, which, size=DATA_SIZE, dirname=None,
                 key="workload"):
        self.rc, self.which, self.size, self.key = rc, which, size, key
        self.dir = os.path.join(rc.work, dirname or ("run-" + which))
        self.server = None

    def __enter__(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        src = data_file(self.rc, self.size)
        # the input is the run's own copy: a compressor may remove it;
        # with the source's times, which gzip writes into its output
        # (a fresh copy's would differ from run to run)
        shutil.copy2(src, os.path.join(self.dir, "input"))
        self.data = "input"	# the program runs in self.dir
        self.url = ""
        if self.rc.get("server") == "http":
            serve = os.path.join(self.dir, "served")
            os.makedirs(serve)
            shutil.copyfile(src, os.path.join(serve, "input"))
            handler = functools.partial(Quiet, directory=serve)
            self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                          handler)
            threading.Thread(target=self.server.serve_forever,
                             daemon=True).start()
            self.url = "http://localhost:%d/input" % \
                self.server.server_address[1]
        return self

    def __exit__(self, *exc):
        if self.server:
            self.server.shutdown()
            self.server.server_close()

    def fill(self, text):
        return text.replace("{data}", self.data).replace("{url}", self.url)

    def args(self):
        return [self.fill(a) for a in shlex.split(self.rc.get(self.key))]

    def describe(self):
        s = "%s %s" % (self.rc.get("program").split("/")[-1],
                       self.rc.get(self.key).replace("{data}", "input")
                       .replace("{url}", "http://localhost:PORT/input"))
        if self.rc.get("stdin"):
            s += " < " + self.rc.get("stdin")
        return s + " > output"

    def run(self, prefix, env=None):
        stdin = os.path.join(self.dir, self.fill(self.rc.get("stdin"))) \
            if self.rc.get("stdin") else os.devnull
        e = dict(os.environ)
        e.update(env or {})
        with open(stdin, "rb") as i, \
                open(os.path.join(self.dir, "output"), "wb") as o:
            r = subprocess.run(prefix + [self.rc.binary(self.which)]
                               + self.args(), cwd=self.dir, stdin=i,
                               stdout=o, stderr=subprocess.PIPE, env=e,
                               text=True, timeout=600)
        self.files = snapshot(self.dir)
        return r

    def same_as_untamed(self, rc):
        """The run left the same files (output included) as the
        untamed build's run of the same workload."""
        with Workload(rc, "untamed", self.size, "run-compare") as other:
            other.run([])
        return self.files == other.files


def snapshot(d):
    """Every regular file beneath D, relative name to content hash."""
    out = {}
    for root, _, files in os.walk(d):
        if os.path.basename(root) == "served":
            continue
        for f in files:
            p = os.path.join(root, f)
            if not os.path.isfile(p):
                continue	# a socket (tmux's), a fifo: no content
            out[os.path.relpath(p, d)] = hashlib.sha256(
                open(p, "rb").read()).hexdigest()
    return out


def relative(report, rc):
    """The report with this machine's build paths shortened, so that a
    regenerated report differs only where the program did."""
    return report.replace(rc.work + "/", "$B/upstream/%s/" % rc.name)


def bench(rc):
    """The bench row of RC: NAME<TAB>untamed<TAB>tamed<TAB>floor commands
    on real work (bench =, bench_size = bytes of input, 100 MB by
    default).  None where the builds are missing, or the row needs a
    server and UPSTREAM_SERVE_PORT names none (serve() runs it)."""
    port = os.environ.get("UPSTREAM_SERVE_PORT", "")
    if rc.get("server") and not port:
        return None
    if not all(os.path.exists(rc.binary(w))
               for w in ("untamed", "tamed", "floor")):
        return None
    wl = Workload(rc, "untamed", int(rc.get("bench_size") or BENCH_SIZE),
                  "bench")
    wl.data = data_file(rc, wl.size)
    # served from $B/upstream/data/ by serve() below
    wl.url = "http://localhost:%s/%s" % (port, os.path.basename(wl.data))
    args = [wl.fill(a) for a in shlex.split(rc.get("bench"))]
    cmds = []
    for which in ("untamed", "tamed", "floor"):
        cmd = " ".join([shlex.quote(rc.binary(which))]
                       + [shlex.quote(a) for a in args])
        cmds.append(cmd)
    return "\t".join([rc.name] + cmds)


def serve(root, portfile):
    """An HTTP server on 127.0.0.1 for the bench rows of network
    clients: serves ROOT (the generated inputs) until killed, its port
    written to PORTFILE once it listens."""
    handler = functools.partial(Quiet, directory=root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.rename(portfile + ".tmp", portfile)
    server.serve_forever()
