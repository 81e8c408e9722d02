/* SPDX-License-Identifier: ISC */
/*
 * hook.c: the live-sandbox proof of a program that pledges itself
 * (check-pledged), preloaded into its pledged build; never installed.
 *
 * It stands in for pledge() by name and calls libtame's.  Once a call
 * succeeds whose promises lack the word in PLEDGED_HOOK (rpath, wpath,
 * cpath, inet or unix), it makes, at once and in the program's own
 * process, the one call that word would allow: the program's own filter
 * must kill it, after the line that names the promise.  With
 * PLEDGED_HOOK_AT set, only after a call whose promises are exactly
 * those (tmux: its client's last pledge, not its server's).  A program that
 * never narrows that far runs as it would; the test then fails, as it
 * saw no death.
 */
#define _GNU_SOURCE
#include <sys/socket.h>
#include <sys/stat.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does the promise list hold the word? */
static int
holds(const char *promises, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = promises; (p = strstr(p, word)) != NULL; p += n)
		if ((p == promises || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

/* The call the word would allow, made without it. */
static void
forbidden(const char *word)
{
	dprintf(2, "pledged-hook: a call that needs %s\n", word);
	if (strcmp(word, "rpath") == 0)
		open("/etc/hostname", O_RDONLY);
	else if (strcmp(word, "wpath") == 0)
		open("/dev/null", O_WRONLY);
	else if (strcmp(word, "cpath") == 0)
		mkdir("/tmp/pledged-hook", 0700);
	else if (strcmp(word, "inet") == 0)
		socket(AF_INET, SOCK_STREAM, 0);
	else if (strcmp(word, "unix") == 0)
		socket(AF_UNIX, SOCK_STREAM, 0);
	dprintf(2, "pledged-hook: the call was let through\n");
	_exit(97);
}

int
pledge(const char *promises, const char *execpromises)
{
	static int (*real)(const char *, const char *);
	const char *word = getenv("PLEDGED_HOOK");
	const char *at = getenv("PLEDGED_HOOK_AT");
	int r;

	if (real == NULL &&
	    (real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT,
	    "pledge")) == NULL) {
		dprintf(2, "pledged-hook: no pledge() after this one\n");
		_exit(98);
	}
	r = real(promises, execpromises);
	if (r == 0 && promises != NULL && word != NULL && *word != '\0' &&
	    !holds(promises, word) && (at == NULL || *at == '\0' ||
	    strcmp(at, promises) == 0))
		forbidden(word);
	return r;
}
