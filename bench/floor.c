/*
 * floor.c: tame() replaced by the cheapest seccomp filter there is, one
 * RET ALLOW, for the benchmarks only.  Linked with ports/cat/cat.c it
 * makes cat-floor: what any filter at all costs a whole cat process on
 * this machine (attaching it, the slower system call entry, releasing
 * it at exit), the floor under tame-cat's ratio.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <unistd.h>

int	tame(int);

int
tame(int flags)
{
	static struct sock_filter allow[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { 1, allow };

	(void)flags;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_TSYNC, &prog);
}
