/* SPDX-License-Identifier: ISC */
/*
 * exec_crafted_image.c: an image exec'd under execpromises, crafted so
 * that its code sits where the pledging image's code was (issue 46, the
 * instruction-pointer ranges).
 *
 * The filter tells the pledged image from the images it execs by the
 * address a call comes from: inside the executable mappings recorded at
 * pledge(), a call is judged by the promises; outside, by execpromises.
 * An exec'd image places its code where it likes.  The pledger here,
 * pledge("stdio rpath proc exec", "stdio rpath exec"), builds static
 * ELF images of its own in memfds (no library, one PT_LOAD at a fixed
 * address, from its own /proc/self/maps) and execs each in a child:
 *
 *  - one image per "syscall; ret" of the pledger: its own system call
 *    instruction at that very address, making openat2 with O_CREAT
 *    (cpath is in neither set, but the handler's openat2 is let through
 *    from the gate's address, where no layer is made while exec is held);
 *  - one image whose code lies inside the pledger's own code range,
 *    sending SIGUSR1 to the parent (proc is a promise of the pledger,
 *    not of the execpromises).
 *
 * The parent looks for the files and for the signal.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/openat2.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int			 tamed;
	int			 n;		/* gadgets */
	const struct rt_gadget	*g;
	uint64_t		 code_lo;	/* the pledger's code */
	pid_t			 parent;
};

static const char *
made(int i)
{
	return rt_path("made-%d", i);
}

/* An image whose system call instruction is at the gadget's address. */
static int
at_gadget(uint64_t addr, const char *path)
{
	struct rt_image im;
	struct open_how how = { .flags = O_WRONLY | O_CREAT, .mode = 0600 };
	uint64_t a[4];
	long pg = sysconf(_SC_PAGESIZE);

	rt_img_init(&im, (addr & ~(uint64_t)(pg - 1)) - (uint64_t)pg);
	a[0] = (uint64_t)AT_FDCWD;
	a[1] = rt_img_str(&im, path);
	a[2] = rt_img_data(&im, &how, sizeof(how));
	a[3] = sizeof(how);
	rt_img_load(&im, SYS_openat2, 4, a);
	rt_img_goto(&im, addr);
	rt_img_svc(&im);
	rt_img_exit(&im);
	return rt_img_write(&im, NULL);
}

/* An image inside the pledger's code range: kill(parent, SIGUSR1). */
static int
in_range(uint64_t lo, pid_t parent)
{
	struct rt_image im;

	rt_img_init(&im, lo);
	rt_img_call(&im, SYS_kill, 2, (uint64_t)parent, (uint64_t)SIGUSR1);
	rt_img_exit(&im);
	return rt_img_write(&im, NULL);
}

static void
run(int fd)
{
	char path[64];
	char *argv[] = { "crafted", NULL }, *envp[] = { NULL };
	pid_t pid;
	int st;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((pid = fork()) == 0) {
		execve(path, argv, envp);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
}

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	int i, fd[RT_MAXGADGETS], rfd;

	/* all made before the pledge: memfd_create is not stdio */
	for (i = 0; i < a->n; i++)
		if ((fd[i] = at_gadget(a->g[i].addr, made(i))) == -1)
			return RT_SETUP;
	if ((rfd = in_range(a->code_lo, a->parent)) == -1)
		return RT_SETUP;
	if (a->tamed)
		rt_pledge("stdio rpath proc exec", "stdio rpath exec");
	run(rfd);
	for (i = 0; i < a->n; i++)
		run(fd[i]);
	return 0;
}

int
main(int argc, char **argv)
{
	static struct rt_gadget g[RT_MAXGADGETS];
	struct attempt a = { 0 };
	struct rt_kid k;
	uint64_t hi;
	int i, n;

	rt_init(argc, argv);
	rt_block_usr1();
	a.parent = getpid();
	if (rt_own_code(&a.code_lo, &hi) == -1)
		rt_fatal("no code mapping of this program in /proc/self/maps");
	if ((n = rt_gadgets(g, RT_MAXGADGETS)) == 0) {
		rt_na("no \"syscall; ret\" in this process's code");
		return rt_finish();
	}
	a.g = g;
	/* the control: untamed, the first image makes its file */
	a.n = 1;
	rt_spawn(&k, attack, &a);
	rt_reap(&k);
	if (!rt_exists(made(0)) || !rt_got_usr1()) {
		rt_na("untamed, the crafted images did not run (%s)",
		    rt_how(k.status));
		return rt_finish();
	}
	unlink(made(0));
	a.n = n;
	a.tamed = 1;
	rt_spawn(&k, attack, &a);
	rt_reap(&k);
	rt_check(k.status);
	if (rt_got_usr1())
		rt_escaped("execpromises \"stdio rpath exec\": an image with "
		    "its code inside the pledger's range sent SIGUSR1 to "
		    "another process (proc is the pledger's promise)");
	for (i = 0; i < n && !rt_exists(made(i)); i++)
		;
	if (i < n)
		rt_escaped("execpromises \"stdio rpath exec\": an image with "
		    "its system call at the pledger's \"syscall; ret\" %s "
		    "created a file", g[i].where);
	else
		rt_held("execpromises \"stdio rpath exec\": none of %d images "
		    "at the pledger's \"syscall; ret\" created a file", n);
	return rt_finish();
}
