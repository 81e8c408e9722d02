/* SPDX-License-Identifier: ISC */
/*
 * coverage.c: what the binary could do that this run did not.
 *
 * One run sees only the paths its input took.  The binary's dynamic
 * imports say more: a program that imports getaddrinfo may resolve a
 * name on another input.  Each libc function below is written as the
 * call it makes (in strace's words, so that classify.c reads it like a
 * traced one) and libtame decides what that call would need; the table
 * maps functions to system calls, never to flags.  Advisory only: the
 * report keeps it apart from the suggestion.
 */
#include <stdio.h>
#include <string.h>

#include "audit.h"
#include "imports.h"
#include "policy.h"

struct makes {
	const char	*function;
	const char	*call;
	const char	*args;
};

static const struct makes calls[] = {
	{ "fopen", "openat", "-100, \"/input\", 0" },
	{ "fopen64", "openat", "-100, \"/input\", 0" },
	{ "open", "openat", "-100, \"/input\", 0" },
	{ "open64", "openat", "-100, \"/input\", 0" },
	{ "opendir", "openat", "-100, \"/dir\", 0x10000" },
	{ "stat", "newfstatat", "-100, \"/input\", 0x1, 0" },
	{ "access", "faccessat2", "-100, \"/input\", 0, 0" },
	{ "mkstemp", "openat", "-100, \"/tmp/f\", 0xc2, 0600" },
	{ "mkstemp64", "openat", "-100, \"/tmp/f\", 0xc2, 0600" },
	{ "tmpfile", "openat", "-100, \"/tmp/f\", 0xc2, 0600" },
	{ "mkdtemp", "mkdir", "\"/tmp/d\", 0700" },
	{ "unlink", "unlink", "\"/input\"" },
	{ "rename", "rename", "\"/input\", \"/output\"" },
	{ "mkdir", "mkdir", "\"/dir\", 0755" },
	{ "chmod", "chmod", "\"/input\", 0644" },
	{ "fchmod", "fchmod", "3, 0644" },
	{ "chown", "chown", "\"/input\", 0, 0" },
	{ "getpwnam", "openat", "-100, \"/etc/passwd\", 0x80000" },
	{ "getpwuid", "openat", "-100, \"/etc/passwd\", 0x80000" },
	{ "getgrnam", "openat", "-100, \"/etc/group\", 0x80000" },
	{ "getgrgid", "openat", "-100, \"/etc/group\", 0x80000" },
	{ "getaddrinfo", "openat", "-100, \"/etc/resolv.conf\", 0x80000" },
	{ "gethostbyname", "openat", "-100, \"/etc/resolv.conf\", 0x80000" },
	{ "socket", "socket", "0x2, 0x1, 0" },
	{ "connect", "connect", "3, {sa_family=0x2}, 16" },
	{ "bind", "bind", "3, {sa_family=0x2}, 16" },
	{ "listen", "listen", "3, 5" },
	{ "accept", "accept", "3, NULL, NULL" },
	{ "accept4", "accept4", "3, NULL, NULL, 0" },
	{ "sendmsg", "sendmsg", "3, {msg_control=[{cmsg_len=20, "
	    "cmsg_level=0x1, cmsg_type=0x1}]}, 0" },
	{ "tcsetattr", "ioctl", "0, 0x5402, NULL" },
	{ "fork", "clone", "child_stack=NULL, flags=0x1200011" },
	{ "kill", "kill", "1, 0xf" },
	{ "setuid", "setuid", "0" },
	{ "setgid", "setgid", "0" },
};

/* Functions whose call ends what tame() allows: an exec. */
static const char *const execs[] = {
	"execl", "execle", "execlp", "execv", "execve", "execvp", "execvpe",
	"fexecve", "popen", "posix_spawn", "posix_spawnp", "system",
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

static void
add_name(char *list, size_t len, const char *name)
{
	size_t n = strlen(list);

	snprintf(list + n, len - n, "%s%s", n > 0 ? ", " : "", name);
}

int
coverage_unexercised(const struct elf_imports *im, int flags, char *list,
    size_t len)
{
	struct audit *scratch = audit_new();
	struct call_text t;
	const struct need *nd;
	int i, k, missing = 0, have = tame_expand(flags) & TAME_ALL;

	list[0] = '\0';
	for (i = 0; i < (int)N(calls); i++) {
		if (!elf_imports_has(im, calls[i].function))
			continue;
		t = (struct call_text){ .name = calls[i].call,
		    .args = calls[i].args, .len = strlen(calls[i].args),
		    .returned = 1, .err = "", .tgid = -1,
		    .creator = -1 };
		k = classify(scratch, &t);	/* may move scratch->needs */
		nd = &scratch->needs[k];
		if (nd->nalts == 0 || cover_meets(nd, flags, 0))
			continue;
		for (k = 0; k < nd->nalts; k++)
			missing |= nd->alts[k] & ~have;
		add_name(list, len, calls[i].function);
	}
	audit_free(scratch);
	return missing;
}

int
coverage_execs(const struct elf_imports *im, char *list, size_t len)
{
	size_t i;
	int n = 0;

	list[0] = '\0';
	for (i = 0; i < N(execs); i++)
		if (elf_imports_has(im, execs[i])) {
			add_name(list, len, execs[i]);
			n++;
		}
	return n;
}
