/* SPDX-License-Identifier: ISC */
/*
 * stty: print the size or the settings of a terminal.
 *
 *	stty [-F device] size ...
 *	stty [-F device] -g
 *
 * "size" prints the rows and columns of the terminal (TIOCGWINSZ), -g
 * its settings in GNU stty's form, which GNU stty can set again: the
 * four mode words and every control character, in hex, separated by
 * colons.  The terminal is the standard input, or the device named by
 * -F, opened O_RDONLY | O_NONBLOCK so that a modem line does not wait
 * for its carrier.  Nothing is ever changed, so the modes of GNU stty
 * and its listing without operands are not supported: an operand other
 * than "size" is an invalid argument, none at all an error (status 1).
 * Messages and statuses as GNU stty's: "'standard input': Inappropriate
 * ioctl for device" and 1 when that is not a terminal.
 *
 * Once the device is open, stty needs descriptor I/O and terminal
 * ioctls only: tame(TAME_STDIO | TAME_IOCTL).  Built with
 * -DTAME_TEST_HOOK and run with TAME_TEST_HOOK=1, it then tries TIOCSTI,
 * which types into the terminal and which no flag allows.
 */
#include <sys/ioctl.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#ifndef NO_TAME
#include <tame.h>
#endif

static void	 narrow(int);
static void	 print_size(int, const char *);
static void	 print_settings(int, const char *);
static void	 usage(void) __attribute__((noreturn));

int
main(int argc, char *argv[])
{
	const char *device = NULL, *name = "'standard input'";
	int ch, fd = STDIN_FILENO, gflag = 0, i;

	while ((ch = getopt(argc, argv, "F:g")) != -1) {
		switch (ch) {
		case 'F':
			device = name = optarg;
			break;
		case 'g':
			gflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "size") != 0)
			errx(1, "invalid argument '%s'", argv[i]);
	if (gflag && argc > 0)
		errx(1, "when specifying an output style, modes may not be "
		    "set");
	if (!gflag && argc == 0)
		errx(1, "missing operand: only 'size' and -g are supported");

	if (device != NULL &&
	    (fd = open(device, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		err(1, "%s", device);
	narrow(fd);

	if (gflag)
		print_settings(fd, name);
	for (i = 0; i < argc; i++)	/* GNU stty prints each "size" */
		print_size(fd, name);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "write error");
	return 0;
}

/* The terminal is open: keep its ioctls and descriptor I/O. */
static void
narrow(int fd)
{
#ifndef NO_TAME
	if (tame(TAME_STDIO | TAME_IOCTL) == -1)
		err(1, "tame");
#ifdef TAME_TEST_HOOK
	/* for the tests: stty must never type into the terminal */
	if (getenv("TAME_TEST_HOOK") != NULL)
		ioctl(fd, TIOCSTI, "x");
#endif
#endif
	(void)fd;
}

static void
print_size(int fd, const char *name)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == -1)
		err(1, "%s", name);
	printf("%u %u\n", ws.ws_row, ws.ws_col);
}

/* iflag:oflag:cflag:lflag:cc0:cc1:..., in hex, as GNU stty -g. */
static void
print_settings(int fd, const char *name)
{
	struct termios t;
	size_t i;

	if (tcgetattr(fd, &t) == -1)
		err(1, "%s", name);
	printf("%lx:%lx:%lx:%lx", (unsigned long)t.c_iflag,
	    (unsigned long)t.c_oflag, (unsigned long)t.c_cflag,
	    (unsigned long)t.c_lflag);
	for (i = 0; i < sizeof(t.c_cc) / sizeof(t.c_cc[0]); i++)
		printf(":%x", t.c_cc[i]);
	putchar('\n');
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-F device] size | -g\n",
	    program_invocation_short_name);
	exit(1);
}
