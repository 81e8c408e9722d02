/* SPDX-License-Identifier: ISC */
/*
 * ask.c: the process's side of the supervisor (supervisor.h): one
 * system call that no kernel gives a meaning, which the supervisor's
 * filter sends to the supervisor.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "supervisor.h"
#include "sys.h"
#include "tame_int.h"

static long
ask_claiming(int op, tame_atoms claim, struct tame_ask *q)
{
	q->verdict = TAME_VERDICT_ALLOW;
	/* the last: the unveil rules the filters say are this process's */
	return tame__sys(TAME_ASK_NR, op, (long)(uint32_t)claim,
	    (long)(uint32_t)(claim >> 32), (long)q, sizeof(*q),
	    tame__state.uvid);
}

long
tame__ask(int op, struct tame_ask *q)
{
	/* no more than held: every filter checks the claim (policy.c) */
	return ask_claiming(op, tame__state.held, q);
}

long
tame__ask_narrow(tame_atoms held, int exec_null, tame_atoms exec_held)
{
	struct tame_ask q;

	memset(&q, 0, sizeof(q));
	q.exec_null = exec_null;
	q.exec_held = exec_held;
	return ask_claiming(TAME_ASK_NARROW, held, &q);
}

long
tame__ask_unveil(const struct tame_unveil_rules *rules)
{
	/* the rules, where a request goes; read once by the supervisor */
	return tame__sys(TAME_ASK_NR, TAME_ASK_UNVEIL,
	    (long)(uint32_t)tame__state.held,
	    (long)(uint32_t)(tame__state.held >> 32), (long)rules,
	    sizeof(*rules), tame__state.uvid);
}

int
tame__supervised(void)
{
	return tame__state.supervised;
}
