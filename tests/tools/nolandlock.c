/*
 * nolandlock: run a command as on a kernel without Landlock.  A seccomp
 * filter makes landlock_create_ruleset() fail with ENOSYS, which is what
 * such a kernel answers, then the command is executed.
 *
 *	nolandlock command [arg ...]
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <err.h>
#include <errno.h>
#include <stddef.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset	444
#endif

int
main(int argc, char *argv[])
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
		    __NR_landlock_create_ruleset, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };

	if (argc < 2)
		errx(2, "usage: nolandlock command [arg ...]");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == -1)
		err(1, "seccomp");
	execvp(argv[1], argv + 1);
	err(127, "%s", argv[1]);
}
