/*
 * load.c: loading raw filter programs, with TSYNC as tame() loads its
 * own.  Kept apart from config.c (which needs libseccomp) so that the
 * whole-command floor, bench/floor.c, can use it too.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

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
