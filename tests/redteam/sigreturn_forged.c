/* SPDX-License-Identifier: ISC */
/*
 * sigreturn_forged.c: a forged signal return frame (issue 46, point 7:
 * classes the review did not try).
 *
 * rt_sigreturn loads every register and the signal mask from memory the
 * process writes.  libtame keeps SIGSYS unblocked (mask calls that
 * would block it trap), since a trap with SIGSYS blocked kills without
 * its handler; a forged frame blocks it anyway, and points the program
 * counter at a system call instruction with the registers of a call the
 * promises refuse.  The kernel must still refuse it: SIGSYS is forced
 * to its default action and the process dies.  Here, under
 * pledge("stdio"), the frame makes openat(O_CREAT), and the code it
 * returns to then tries socket(AF_INET) (a connection to the parent)
 * and kill(parent, SIGUSR1), all with every signal blocked.  The parent
 * looks for the file, the connection and the signal.
 */
#include <sys/socket.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "redteam.h"

static const struct rt_listener *lis;
static const char *made;
static void *gadget;
static unsigned char stack[65536] __attribute__((aligned(16)));

/* Where the forged frame's call returns: the result is the argument. */
void	sig_landed(long) __attribute__((noreturn, used));
void	sig_land(void);

#if defined(__x86_64__)
__asm__(".text\n.globl sig_land\n.type sig_land, @function\nsig_land:\n"
	"	mov %rax, %rdi\n	and $-16, %rsp\n	call sig_landed\n"
	"	hlt\n.size sig_land, .-sig_land\n");
#else
__asm__(".text\n.globl sig_land\n.type sig_land, %function\nsig_land:\n"
	"	b sig_landed\n.size sig_land, .-sig_land\n");
#endif

void
sig_landed(long r)
{
	int s;

	(void)r;
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) != -1)
		connect(s, (const struct sockaddr *)&lis->addr,
		    sizeof(lis->addr));
	kill(getppid(), SIGUSR1);
	_exit(0);
}

/* The frame the kernel restores from, rewritten as the attacker likes. */
static void
forge(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	uint64_t *top = (uint64_t *)(stack + sizeof(stack) - 64);

	(void)sig;
	(void)si;
	sigfillset(&uc->uc_sigmask);	/* SIGSYS blocked on return */
#if defined(__x86_64__)
	*top = (uint64_t)(uintptr_t)sig_land;	/* for the gadget's ret */
	uc->uc_mcontext.gregs[REG_RSP] = (greg_t)(uintptr_t)top;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)gadget;
	uc->uc_mcontext.gregs[REG_RAX] = SYS_openat;
	uc->uc_mcontext.gregs[REG_RDI] = AT_FDCWD;
	uc->uc_mcontext.gregs[REG_RSI] = (greg_t)(uintptr_t)made;
	uc->uc_mcontext.gregs[REG_RDX] = O_WRONLY | O_CREAT;
	uc->uc_mcontext.gregs[REG_R10] = 0600;
#else
	uc->uc_mcontext.sp = (uint64_t)(uintptr_t)top;
	uc->uc_mcontext.pc = (uint64_t)(uintptr_t)gadget;
	uc->uc_mcontext.regs[30] = (uint64_t)(uintptr_t)sig_land;
	uc->uc_mcontext.regs[8] = SYS_openat;
	uc->uc_mcontext.regs[0] = (uint64_t)AT_FDCWD;
	uc->uc_mcontext.regs[1] = (uint64_t)(uintptr_t)made;
	uc->uc_mcontext.regs[2] = O_WRONLY | O_CREAT;
	uc->uc_mcontext.regs[3] = 0600;
#endif
}

static int
attack(void *arg)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forge;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR2, &sa, NULL) == -1)
		return RT_SETUP;
	gadget = rt_code_page(rt_svc_ret, rt_svc_ret_len, 0);
	if (*(int *)arg)
		rt_pledge("stdio", NULL);
	raise(SIGUSR2);
	return RT_SETUP + 1;		/* the frame never comes back here */
}

static const char *
try(int tamed, struct rt_listener *l, int *status)
{
	static char what[160];
	struct rt_kid k;

	unlink(made);
	rt_spawn(&k, attack, &tamed);
	*status = rt_reap(&k);
	rt_check(k.status);
	what[0] = '\0';
	if (rt_exists(made))
		strcat(what, ", a file was created");
	if (rt_connected(l))
		strcat(what, ", socket(AF_INET) connected");
	if (rt_got_usr1())
		strcat(what, ", the parent got SIGUSR1");
	return what[0] ? what + 2 : what;
}

int
main(int argc, char **argv)
{
	struct rt_listener l;
	const char *what;
	int st;

	rt_init(argc, argv);
	rt_block_usr1();
	rt_listen_inet(&l);
	lis = &l;
	made = rt_path("made");
	if (strcmp(try(0, &l, &st), "a file was created, socket(AF_INET) "
	    "connected, the parent got SIGUSR1") != 0) {
		rt_na("untamed, the forged frame did not do it all (%s)",
		    rt_how(st));
		return rt_finish();
	}
	if (*(what = try(1, &l, &st)) != '\0')
		rt_escaped("pledge(\"stdio\"): a forged signal frame with "
		    "SIGSYS blocked: %s (%s)", what, rt_how(st));
	else
		rt_held("pledge(\"stdio\"): a forged frame blocking SIGSYS "
		    "still died (%s)", rt_how(st));
	return rt_finish();
}
