/* SPDX-License-Identifier: ISC */
/*
 * exec_signal_pledger.c: an image exec'd without proc stops the process
 * that pledged (issue 46: "a signal to itself means the calling
 * process").
 *
 * Under any promises a process may signal itself (raise, abort); the
 * filter's "self" is the pid of the process that made it, and a filter
 * outlives exec and fork.  The pledger, pledge("stdio proc exec",
 * "stdio"), forks a child that execs a small static image (no library:
 * stdio is all it has), and that image sends SIGSTOP to its parent,
 * the pledger, whose pid is the filter's "self".  Without proc no image
 * of execpromises "stdio" may signal another process.  The test process
 * above the pledger sees whether it stopped.
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "redteam.h"

struct attempt {
	int		 tamed;
	const char	*image;
};

static int
pledger(void *arg)
{
	const struct attempt *a = arg;
	char *argv[] = { "stopper", NULL }, *envp[] = { NULL };
	pid_t pid;
	int st;

	if (a->tamed)
		rt_pledge("stdio proc exec", "stdio");
	if ((pid = fork()) == 0) {
		execve(a->image, argv, envp);
		_exit(127);
	}
	if (pid == -1 || waitpid(pid, &st, 0) != pid)
		return RT_SETUP;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Did the pledger stop?  If not, how did the image end: the pledger
 * exits with its status (127: not run; 128 + N: signal N; else what its
 * kill returned, as exit_group left it).
 */
static int
try(struct attempt *a, int *how)
{
	struct rt_kid k;
	int stopped;

	rt_spawn(&k, pledger, a);
	stopped = rt_stopped(&k);
	rt_kill(&k);
	rt_check(k.status);
	*how = k.status;
	return stopped;
}

int
main(int argc, char **argv)
{
	struct attempt a = { 0 };
	struct rt_image im;
	int fd, how;

	rt_init(argc, argv);
	/* kill(getppid(), SIGSTOP), then exit with its result */
	rt_img_init(&im, 0x10000000);
	rt_img_call(&im, SYS_getppid, 0);
	rt_img_call(&im, SYS_kill, 2, RT_PREV, (uint64_t)SIGSTOP);
	rt_img_exit(&im);
	a.image = rt_path("stopper");
	if ((fd = rt_img_write(&im, a.image)) == -1)
		rt_fatal("%s", a.image);
	close(fd);
	if (!try(&a, &how)) {
		rt_na("untamed, the image did not stop its parent");
		return rt_finish();
	}
	a.tamed = 1;
	if (try(&a, &how))
		rt_escaped("execpromises \"stdio\": an exec'd image stopped "
		    "the process that pledged (SIGSTOP) without proc");
	else
		rt_held("execpromises \"stdio\": the exec'd image could not "
		    "signal the pledger (the pledger: %s)", rt_how(how));
	return rt_finish();
}
