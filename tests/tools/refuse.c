/* SPDX-License-Identifier: ISC */
/*
 * refuse: run a command as on a machine that refuses some system calls.
 * A seccomp filter makes each named call fail with the given errno, which
 * is what a kernel without the feature (landlock_create_ruleset: ENOSYS)
 * or a locked-down one (ptrace: EPERM, as under Yama) answers; then the
 * command is executed.
 *
 *	refuse call=ERRNO ... -- command [arg ...]
 *
 * Calls: landlock_create_ruleset, landlock (all three landlock_* calls:
 * a kernel before 5.13), openat2 (a kernel before 5.6), ptrace, unshare
 * (no namespaces for the caller: user.max_user_namespaces=0, a
 * container's policy).  Errnos: ENOSYS, EPERM.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <err.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset	444
#endif
#ifndef __NR_openat2
#define __NR_openat2	437
#endif

static const struct {
	const char	*name;
	int		 nr;
} calls[] = {
	{ "landlock_create_ruleset", __NR_landlock_create_ruleset },
	{ "landlock", __NR_landlock_create_ruleset },
	{ "landlock", __NR_landlock_create_ruleset + 1 },	/* add_rule */
	{ "landlock", __NR_landlock_create_ruleset + 2 },	/* restrict */
	{ "openat2", __NR_openat2 },
	{ "ptrace", __NR_ptrace },
	{ "unshare", __NR_unshare },
};

static const struct {
	const char	*name;
	int		 e;
} errnos[] = {
	{ "ENOSYS", ENOSYS },
	{ "EPERM", EPERM },
};

#define N(a)	(int)(sizeof(a) / sizeof((a)[0]))
#define MAXRULES	8

int
main(int argc, char *argv[])
{
	struct sock_filter insns[2 + 2 * MAXRULES];
	struct sock_fprog prog;
	char *eq;
	int i, k, n = 0, nr, e;

	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, nr));
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if ((eq = strchr(argv[i], '=')) == NULL || n > 2 * MAXRULES)
			errx(2, "usage: refuse call=ERRNO ... -- command");
		*eq = '\0';
		for (e = -1, k = 0; k < N(errnos); k++)
			if (strcmp(errnos[k].name, eq + 1) == 0)
				e = errnos[k].e;
		for (nr = -1, k = 0; k < N(calls); k++) {
			if (strcmp(calls[k].name, argv[i]) != 0 || e == -1)
				continue;
			if (n > 2 * MAXRULES - 1)
				errx(2, "too many calls");
			nr = calls[k].nr;
			insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP |
			    BPF_JEQ | BPF_K, (unsigned)nr, 0, 1);
			insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET |
			    BPF_K, SECCOMP_RET_ERRNO | (unsigned)e);
		}
		if (nr == -1 || e == -1)
			errx(2, "unknown call or errno: %s=%s", argv[i], eq + 1);
	}
	if (i + 1 >= argc)
		errx(2, "usage: refuse call=ERRNO ... -- command");
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = insns;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == -1)
		err(1, "seccomp");
	execvp(argv[i + 1], argv + i + 1);
	err(127, "%s", argv[i + 1]);
}
