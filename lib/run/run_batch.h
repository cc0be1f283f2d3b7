/* Running the checks of one definition in a shared test process.
 *
 * A process per check (Check's fork mode) costs more than most checks do on
 * an emulated board: the fork, Check's per-test set-up and the exit. Checks
 * that leave nothing behind can share one process instead: Check's no-fork
 * mode runs them one after another in a child of the runner, and isolation
 * is kept where it matters:
 *  - after every check the child closes every file descriptor the check
 *    left open (handles, subscriptions, pipes) and, when the check left a
 *    thread or a process running, ends itself so that the next check starts
 *    in a fresh process;
 *  - a crash costs the check that crashed: the runner starts a new child at
 *    the next check;
 *  - each check has its timeout: the runner watches the child's progress
 *    (the child notes every check it starts in the record log, reclog.h)
 *    and kills it when a check overruns.
 * The shared process outlives a batch: the runner sends it the next one.
 * Verdicts go into the record log ("R" lines) as soon as a check is done,
 * so they survive a later crash of the shared process. The shared process
 * runs its checks without Check's runner (assert_catch.h: Check's per-test
 * message file cost more than most checks); a check with a process of its
 * own runs in Check's fork mode as before. */
#ifndef V4L2C_RUN_BATCH_H
#define V4L2C_RUN_BATCH_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A verdict as Check reports it. */
struct outcome {
	int rtype;		/* CK_PASS, CK_FAILURE or CK_ERROR */
	char *msg;		/* malloc'ed, NULL for a pass */
};

struct batch {
	const int *idx;		/* the instance indices to run, in order */
	const char *const *names;	/* their names (Check's test names) */
	size_t n;
	void (*fn)(int idx);	/* runs one check: the test function */
	unsigned int timeout_s;	/* per check */
	bool own_process;	/* each check in a process of its own (Check's
				 * fork mode, in a child that waits for it) */
	/* A check that timed out: may say what it was blocked in (msg, len
	 * bytes, holds the timeout message) and return the verdict's rtype
	 * (CK_ERROR to leave it a timeout). NULL: a timeout. */
	int (*on_timeout)(int idx, char *msg, size_t len);
};

/* After a check's timeout the runner kills its process and waits this long
 * for it to end; a process that SIGKILL does not end (an uninterruptible
 * sleep in a driver) is left behind, never waited for again. */
#define BATCH_REAP_S 2.0
extern double batch_reap_s;
/* How processes are killed (unit tests replace it to make one unkillable). */
extern int (*batch_kill)(pid_t pid, int sig);
/* The processes left behind so far (the first 64 in *pids). */
size_t batch_abandoned(const pid_t **pids);

/* Run every check of b; out[k] gets the verdict of b->idx[k]. The record
 * log (reclog.h) is emptied first and holds, afterwards, every line the
 * checks of b recorded, until the next batch_run. */
void batch_run(const struct batch *b, struct outcome *out);
/* End the shared test process, which outlives a batch (also done at exit). */
void batch_finish(void);
/* In the shared process: true while a check runs there (not in its own). */
bool batch_shared(void);
/* End the running check now, without a verdict of its own (the record says
 * why: a skip). In a check's own process this ends the process. */
void batch_end_check(void) __attribute__((noreturn));
#endif
