/* SPDX-License-Identifier: ISC */
/*
 * load.c: loading raw filter programs, with TSYNC as tame() loads its
 * own.  Kept apart from config.c (which needs libseccomp) so that the
 * whole-command floor, bench/floor.c, can use it too.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

#include "config.h"

int
config_load_raw(struct sock_filter *insn, unsigned short len)
{
	struct sock_fprog fp = { .len = len, .filter = insn };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_TSYNC, &fp) == 0 ? 0 : -1;
}

int
config_load_allow1(void)
{
	struct sock_filter insn[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return config_load_raw(insn, 1);
}

/*
 * The least a filter that checks an argument can be: RET ALLOW for every
 * call, but openat, ioctl and socket (the argument-checked calls the
 * benchmarks time) load an argument first.  The kernel's cache cannot
 * answer a call whose path reads one, so for those it runs the filter,
 * with what seccomp does around it (the seccomp_data, the program's
 * call); the difference to allow1 is what any argument check costs on
 * this machine, whatever the program says.
 */
int
config_load_args1(void)
{
	struct sock_filter insn[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, args[1])),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return config_load_raw(insn, sizeof(insn) / sizeof(insn[0]));
}

/*
 * A kernel without Landlock, as tests/tools/refuse.c plays one: its
 * probe, landlock_create_ruleset, fails with ENOSYS as before Linux
 * 5.13.  Every other call is allowed, and from the kernel's cache.
 */
int
config_load_no_landlock(void)
{
	struct sock_filter insn[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
		    SYS_landlock_create_ruleset, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return config_load_raw(insn, sizeof(insn) / sizeof(insn[0]));
}
