#!/bin/sh
# SPDX-License-Identifier: ISC
# make install lays out the contract of DESIGN.md, and a program built
# against the installed libtame.pc tames itself for real.
B=${B:-build}
top=$(pwd)
dir=$(mktemp -d /var/tmp/tame-install-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
no() { echo "install.sh: $*"; fail=1; }

make -s install PREFIX="$dir/prefix" >/dev/null || { echo "make install failed"; exit 1; }
# DESTDIR stages without changing what is recorded in the files
make -s install PREFIX=/usr/local DESTDIR="$dir/stage" >/dev/null ||
    no "make install DESTDIR failed"
grep -q '^prefix=/usr/local$' "$dir/stage/usr/local/lib/pkgconfig/libtame.pc" ||
    no "DESTDIR leaked into libtame.pc"

P=$dir/prefix
for f in include/tame.h lib/libtame.a lib/libtame.so lib/libtame.so.0 \
    lib/pkgconfig/libtame.pc lib/tame/libtame-preload.so bin/tame-exec \
    include/tame/pledge.h lib/pkgconfig/libtame-pledge.pc \
    share/man/man3/pledge.3 share/man/man3/unveil.3 \
    bin/tame-audit share/man/man3/tame.3 share/man/man1/tame-exec.1 \
    share/man/man1/tame-audit.1 share/tame/tame-audit.schema.json; do
	[ -e "$P/$f" ] || no "missing $f"
done
# every port, as tame-NAME, and never its test or untamed builds
# (a port is ports/NAME/NAME.c; ports/upstream/ holds patches, not one)
for d in ports/*/; do
	n=${d#ports/}
	n=${n%/}
	[ -f "$d$n.c" ] || continue
	[ -x "$P/bin/tame-$n" ] || no "missing bin/tame-$n"
done
ls "$P/bin" | grep -q -- '-hook$\|-untamed$' && no "a test build was installed"
# the installed tame-audit finds the installed tame-exec
printf 'x\n' > "$dir/in"
[ "$("$P/bin/tame-audit" --flags-only -o /dev/stdout -- cat "$dir/in" |
    tail -n 1)" = stdio,rpath ] || no "the installed tame-audit does not work"
# a LIBDIR of its own (Debian's multiarch one) leaves the shim where
# tame-exec looks for it, beside BINDIR
make -s install PREFIX="$dir/ma" LIBDIR="$dir/ma/lib/multiarch" >/dev/null ||
    no "make install LIBDIR=... failed"
[ "$("$dir/ma/bin/tame-exec" -f stdio,rpath -- cat "$dir/in" 2>&1)" = x ] ||
    no "tame-exec installed with LIBDIR=... does not find its shim"
make -s uninstall PREFIX="$dir/prefix" >/dev/null || no "make uninstall failed"
[ -z "$(find "$P" -type f)" ] || no "uninstall left: $(find "$P" -type f)"
make -s install PREFIX="$dir/prefix" >/dev/null || no "make install again failed"
[ "$(readelf -d "$P/lib/libtame.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')" = \
    libtame.so.0 ] || no "soname is not libtame.so.0"
# only the public API is exported
extra=$(nm -D --defined-only "$P/lib/libtame.so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
    grep -v '^tame\(_flags_held\|_flags_parse\|_flags_name\|_flag_name\|_landlock_abi\|_flags_unconfined\|_version\)\?$' |
    grep -v '^pledge$' | grep -v '^unveil$')
[ -z "$extra" ] || no "exported beyond the API: $extra"

cat > "$dir/prog.c" <<'PROG'
#include <sys/socket.h>
#include <stdio.h>
#include <tame.h>

int
main(void)
{
	if (tame(TAME_STDIO) == -1) {
		perror("tame");
		return 1;
	}
	printf("tamed\n");
	fflush(stdout);
	socket(AF_INET, SOCK_STREAM, 0);	/* not allowed: dies */
	return 0;
}
PROG
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
# under make check SANITIZE=1 the installed libtame carries ASan, whose
# runtime must be the first library: the consumer is built with it too
san=
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined"
# shellcheck disable=SC2046,SC2086
cc $san "$dir/prog.c" -o "$dir/prog" $(pkg-config --cflags --libs libtame) \
    -Wl,-rpath,"$P/lib" || { echo "install.sh: consumer did not build"; exit 1; }
out=$("$dir/prog" 2>"$dir/err")
status=$?
[ "$out" = tamed ] || no "consumer printed '$out'"
[ $status -eq 159 ] || no "consumer status $status, expected 159 (SIGSYS)"
grep -q '^prog\[[0-9]*\]: tame: socket AF_INET SOCK_STREAM 0 needs inet' "$dir/err" ||
    no "violation line was '$(cat "$dir/err")'"
# README's other way for a prefix of one's own: the archive linked in,
# so the program runs without -rpath or LD_LIBRARY_PATH
# shellcheck disable=SC2046
[ "${SANITIZE:-}" = 1 ] || { cc "$dir/prog.c" -o "$dir/prog-archive" \
    $(pkg-config --cflags libtame) "$P/lib/libtame.a" &&
    { "$dir/prog-archive" >/dev/null 2>&1; [ $? -eq 159 ] ||
    no "a consumer linked with libtame.a did not die of SIGSYS"; } ||
    no "a consumer did not link with libtame.a, as README says"; }
# statically, through pkg-config --static
cc "$dir/prog.c" -o "$dir/prog-static" -static \
    $(pkg-config --static --cflags --libs libtame) 2>/dev/null &&
    { "$dir/prog-static" >/dev/null 2>&1; [ $? -eq 159 ] ||
    no "static consumer did not die of SIGSYS"; }

# pledge() as code written for OpenBSD finds it.  The autoconf way
# (AC_CHECK_FUNCS([pledge]) with LIBS=-ltame): a link of its own
# prototype.  mandoc's and lowdown's way: compile and run a probe that
# pledges "stdio" and exits normally.  And code that includes only
# <unistd.h>, under #ifdef HAVE_PLEDGE, built with libtame-pledge's
# flags (-include of the header; GCC 12 and 14 both refuse an
# undeclared call with -Werror=implicit-function-declaration).
# Under SANITIZE=1 the pledged programs below exit normally, and
# LeakSanitizer's check at exit starts a thread with CLONE_UNTRACED,
# which no promise allows: leaks are not what these check.
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=detect_leaks=0
cat > "$dir/conftest.c" <<'PROG'
#define pledge innocuous_pledge
#include <limits.h>
#undef pledge
char pledge ();
int main (void) { return pledge (); }
PROG
# shellcheck disable=SC2046
cc "$dir/conftest.c" -o "$dir/conftest" $(pkg-config --libs libtame) \
    -Wl,-rpath,"$P/lib" || no "AC_CHECK_FUNCS([pledge])'s link failed"
# the same with libtame-pledge's flags in CFLAGS, as a build that uses
# them for everything runs configure (xz-utils' --enable-sandbox=pledge)
# shellcheck disable=SC2046
cc "$dir/conftest.c" -o "$dir/conftest" \
    $(pkg-config --cflags --libs libtame-pledge) -Wl,-rpath,"$P/lib" ||
    no "AC_CHECK_FUNCS([pledge]) fails under libtame-pledge's flags"
# a program's own prototype (a compat.h for systems without pledge)
printf 'int pledge(const char *, const char *);\nint main(void) { return 0; }\n' \
    > "$dir/compat.c"
# shellcheck disable=SC2046
cc -c "$dir/compat.c" -o "$dir/compat.o" \
    $(pkg-config --cflags libtame-pledge) ||
    no "a program's own pledge() prototype conflicts with the header"
cat > "$dir/probe.c" <<'PROG'
#include <unistd.h>
int main(void) { return pledge("stdio", NULL) == -1; }
PROG
# shellcheck disable=SC2046
{ cc $san -Werror=implicit-function-declaration "$dir/probe.c" \
    -o "$dir/probe" $(pkg-config --cflags --libs libtame-pledge) \
    -Wl,-rpath,"$P/lib" && "$dir/probe"; } ||
    no "a pledge probe (mandoc's, lowdown's) did not build and exit 0"
cat > "$dir/pledged.c" <<'PROG'
#include <stdio.h>
#include <unistd.h>
int
main(void)
{
#ifdef HAVE_PLEDGE
	if (pledge("stdio rpath", NULL) == -1) {
		perror("pledge");
		return 1;
	}
#endif
	printf("pledged\n");
	fflush(stdout);
	unlink("/nonexistent");		/* needs cpath: dies */
	return 0;
}
PROG
# shellcheck disable=SC2046
cc $san -Werror=implicit-function-declaration "$dir/pledged.c" \
    -o "$dir/pledged" $(pkg-config --cflags --libs libtame-pledge) \
    -Wl,-rpath,"$P/lib" || no "<unistd.h>-only pledge code did not build"
out=$("$dir/pledged" 2>"$dir/err")
status=$?
[ "$out" = pledged ] && [ $status -eq 159 ] ||
    no "pledged program: '$out', status $status, expected 159"
grep -q '^pledged\[[0-9]*\]: pledge: unlink.* needs promise cpath' \
    "$dir/err" || no "pledge's line was '$(cat "$dir/err")'"
cd "$top" || exit 1
exit $fail
