# The tame toolkit: libtame, tame-exec, tame-audit, the ports, tests and
# benchmarks.  One non-recursive Makefile; outputs go to build/.
#
#	make			build everything
#	make check		run every test; ends with "N passed, N failed"
#	make bench		run the benchmarks, write reports/
#	make census		audit and run tamed every program of /usr/bin,
#				write reports/census.md
#	make check-upstream	real programs from Debian's sources, tamed by our
#				patches, through their own test suites
#	make check-kernels	every test on Debian's 5.10, 6.1 and 6.12 under
#				qemu: the kernel matrix (KERNELS=... a subset)
#	make install PREFIX=DIR	install (DESTDIR honoured)
#	make deps		install missing Debian packages

VERSION_MAJOR	= 0
VERSION_MINOR	= 1
VERSION_PATCH	= 0
VERSION		= $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
PKG_CONFIG	?= pkg-config

CC		?= cc
CFLAGS		?= -O2 -g
# make SANITIZE=1 builds into build-san (see "Sanitizers" below), so that
# it never mixes objects with build/; B=DIR builds into DIR either way.
ifeq ($(SANITIZE),1)
B		?= build-san
endif
B		?= build
# The tests find what they run in $B, and adapt to SANITIZE.
export B SANITIZE

# What the project needs regardless of the user's CFLAGS.
override CFLAGS	+= -std=gnu11 -Wall -Wextra -Wno-missing-field-initializers \
		   -fPIC -fvisibility=hidden -MMD -MP
override CPPFLAGS += -D_GNU_SOURCE -Ilib -I$(B)
# Where Debian keeps the charset converters (a file the base set reads).
MULTIARCH	:= $(shell $(CC) -print-multiarch 2>/dev/null)
ifneq ($(MULTIARCH),)
override CPPFLAGS += -DTAME_MULTIARCH='"$(MULTIARCH)"'
endif

LIB_SRCS	= lib/policy.c lib/match.c lib/sysnames.c lib/compile.c \
		  lib/paths.c lib/describe.c lib/usercopy.c lib/emulate.c \
		  lib/cmsg.c lib/handler.c lib/verdict.c \
		  lib/bpf_run.c lib/gate.c lib/report.c lib/landlock.c \
		  lib/tame.c lib/flags.c lib/warm.c lib/acquired.c
LIB_OBJS	= $(LIB_SRCS:%.c=$(B)/%.o)
SONAME		= libtame.so.$(VERSION_MAJOR)

TOOLS		= $(B)/tame-exec $(B)/libtame-preload.so $(B)/tame-policy \
		  $(B)/tame-audit
MANS		= $(B)/man/tame.3 $(B)/man/tame-exec.1 $(B)/man/tame-audit.1

# tame-audit, by stage (audit/audit.h says which file does what).
AUDIT_SRCS	= audit/main.c audit/trace.c audit/parse.c audit/log.c \
		  audit/verdict.c audit/rerun.c \
		  audit/classify.c audit/cover.c audit/findings.c \
		  audit/where.c audit/imports.c audit/coverage.c audit/report.c \
		  audit/xalloc.c
AUDIT_OBJS	= $(AUDIT_SRCS:%.c=$(B)/%.o)
AUDIT_LIB_OBJS	= $(filter-out $(B)/audit/main.o,$(AUDIT_OBJS))

all: $(B)/libtame.a $(B)/libtame.so.$(VERSION) $(TOOLS) $(MANS)

.DELETE_ON_ERROR:
.PHONY: all check bench install uninstall clean deps

# Sanitizers: make check SANITIZE=1 builds everything with ASan and UBSan
# and runs every test there.  README.md (Testing) says how seccomp and
# the sanitizers collide; this is what the build does about it:
#  - tame-exec is static (musl) and ASan cannot be: it is built without.
#  - ASan's runtime must be the first library a process loads, and the
#    preload shim goes into programs built without it: the shim gets
#    UBSan alone, from objects of its own ($(B)/ubsan/), and so do the
#    test tools that the CLI tests run under tame-exec.
#  - LeakSanitizer's check at exit stops the world with clone and ptrace:
#    a violation after tame(), and a fatal error under strace.
#    lib/sanitize.c turns it off (and lets a port run under tame-exec),
#    linked (SAN_TAMED) into the ports, untamed builds too (the tests
#    strace them), and the benchmarks that tame.  tame-audit, tame-policy
#    and the test programs (whose tamed children leave by exit_group)
#    keep their leak check.
ifeq ($(SANITIZE),1)
ifeq ($(shell command -v $(or $(MUSL_CC),musl-gcc) 2>/dev/null),)
$(error SANITIZE=1 needs musl-gcc (musl-tools): tame-exec is static)
endif
SAN_FLAGS	= -fsanitize=address,undefined -fno-omit-frame-pointer \
		  -fno-sanitize-recover=undefined
UBSAN_FLAGS	= -fsanitize=undefined -fno-sanitize-recover=undefined
override CFLAGS	+= $(SAN_FLAGS)
override LDFLAGS += $(SAN_FLAGS) $(SAN_TAMED)
$(B)/tame-exec $(B)/musl/%.o: private SAN_FLAGS =
$(B)/libtame-preload.so $(B)/ubsan/%.o $(B)/tests/tools/%: \
    private SAN_FLAGS = $(UBSAN_FLAGS)
$(B)/libtame.a: $(B)/lib/sanitize.o	# before anything links libtame.a
$(B)/ports/% $(B)/bench/micro $(B)/bench/fresh $(B)/bench/phases: \
    private SAN_TAMED = $(B)/lib/sanitize.o
PRELOAD_OBJS	= $(B)/ubsan/lib/preload.o $(B)/ubsan/libtame.a
$(B)/ubsan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
$(B)/ubsan/lib/sysnames.o: $(B)/sysnames.h
$(B)/ubsan/libtame.a: $(LIB_SRCS:%.c=$(B)/ubsan/%.o)
	rm -f $@
	$(AR) rcs $@ $^
endif

# Names of every native system call, from the kernel headers.
$(B)/sysnames.h:
	@mkdir -p $(@D)
	printf '#include <asm/unistd.h>\n' | $(CC) -E -dM - | \
	    sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/X(\1)/p' | \
	    grep -v '^X(syscalls)$$' | sort > $@

$(B)/lib/sysnames.o: $(B)/sysnames.h

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libtame.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

$(B)/libtame.so.$(VERSION): $(LIB_OBJS) lib/libtame.map
	$(CC) -shared -Wl,-soname,$(SONAME) \
	    -Wl,--version-script=lib/libtame.map $(LDFLAGS) \
	    -o $@ $(LIB_OBJS)
	ln -sf libtame.so.$(VERSION) $(B)/$(SONAME)
	ln -sf $(SONAME) $(B)/libtame.so

# tame-exec is static: one small extra exec, no loader work of its own.
# Built against musl where musl-gcc exists: a static glibc binary costs
# about 0.5 ms more to start here, more than everything else tame-exec
# adds.  musl needs the kernel's headers alone on its include path.
MUSL_CC		?= $(shell command -v musl-gcc 2>/dev/null)
EXEC_SRCS	= lib/tame-exec.c lib/flags.c lib/landlock.c lib/compile.c \
		  lib/match.c lib/policy.c lib/sysnames.c lib/gate.c
ifneq ($(MUSL_CC),)
EXEC_OBJS	= $(EXEC_SRCS:lib/%.c=$(B)/musl/%.o)

$(B)/musl/kernel-headers:
	@mkdir -p $@
	ln -sfn /usr/include/linux $@/linux
	ln -sfn /usr/include/asm-generic $@/asm-generic
	ln -sfn $$($(CC) -print-multiarch | sed 's|^|/usr/include/|')/asm $@/asm

$(B)/musl/%.o: lib/%.c $(B)/sysnames.h | $(B)/musl/kernel-headers
	$(MUSL_CC) $(CPPFLAGS) -isystem $(B)/musl/kernel-headers $(CFLAGS) \
	    -c $< -o $@

$(B)/tame-exec: $(EXEC_OBJS)
	$(MUSL_CC) -static $(LDFLAGS) -o $@ $(EXEC_OBJS)
else
$(B)/tame-exec: $(B)/lib/tame-exec.o $(B)/libtame.a
	$(CC) -static $(LDFLAGS) -o $@ $(B)/lib/tame-exec.o $(B)/libtame.a
endif

PRELOAD_OBJS	?= $(B)/lib/preload.o $(B)/libtame.a
$(B)/libtame-preload.so: $(PRELOAD_OBJS)
	$(CC) -shared $(LDFLAGS) -o $@ $(PRELOAD_OBJS)

# The auditor links libtame.a: it asks the library's own decision code.
$(B)/tame-audit: $(AUDIT_OBJS) $(B)/libtame.a
	$(CC) $(LDFLAGS) -o $@ $(AUDIT_OBJS) $(B)/libtame.a

$(B)/man/tame-audit.1: man/tame-audit.1
	@mkdir -p $(@D)
	cp man/tame-audit.1 $@

# tame-policy prints the table: the man page's lists come from it.
$(B)/tame-policy: $(B)/lib/tame-policy.o $(B)/libtame.a
	$(CC) $(LDFLAGS) -o $@ $(B)/lib/tame-policy.o $(B)/libtame.a

$(B)/man/tame.3: man/tame.3.in $(B)/tame-policy
	@mkdir -p $(@D)
	$(B)/tame-policy --mdoc > $(B)/man/flags.mdoc
	sed -e '/^\.\\" @FLAG-LISTS@$$/{r $(B)/man/flags.mdoc' -e 'd}' \
	    man/tame.3.in > $@

$(B)/man/tame-exec.1: man/tame-exec.1
	@mkdir -p $(@D)
	cp man/tame-exec.1 $@

include tests/tests.mk
-include ports/ports.mk
include ports/upstream/upstream.mk
-include bench/bench.mk
include census/census.mk
include tests/kernels/kernels.mk

deps:
	@sh .ci/deps.sh

install: all
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/tame \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 lib/tame.h $(DESTDIR)$(INCLUDEDIR)/tame.h
	install -m 644 $(B)/libtame.a $(DESTDIR)$(LIBDIR)/libtame.a
	install -m 755 $(B)/libtame.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libtame.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtame.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    lib/libtame.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libtame.pc
	install -m 755 $(B)/libtame-preload.so $(DESTDIR)$(LIBDIR)/tame/
	install -m 755 $(B)/tame-exec $(DESTDIR)$(BINDIR)/tame-exec
	install -m 755 $(B)/tame-audit $(DESTDIR)$(BINDIR)/tame-audit
	install -m 644 $(B)/man/tame.3 $(DESTDIR)$(MANDIR)/man3/tame.3
	install -m 644 $(B)/man/tame-exec.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(B)/man/tame-audit.1 $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/tame.h $(DESTDIR)$(LIBDIR)/libtame.* \
	    $(DESTDIR)$(PKGCONFIGDIR)/libtame.pc $(DESTDIR)$(BINDIR)/tame-exec \
	    $(DESTDIR)$(BINDIR)/tame-audit $(DESTDIR)$(MANDIR)/man3/tame.3 \
	    $(DESTDIR)$(MANDIR)/man1/tame-exec.1 \
	    $(DESTDIR)$(MANDIR)/man1/tame-audit.1 \
	    $(PORT_NAMES:%=$(DESTDIR)$(BINDIR)/tame-%)
	rm -rf $(DESTDIR)$(LIBDIR)/tame

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
