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
 *    (the child names every check it starts on a pipe) and kills it when a
 *    check overruns.
 * Verdicts go into each check's record file ("R" lines) as soon as Check
 * has them, so they survive a later crash of the shared process. */
#ifndef V4L2C_RUN_BATCH_H
#define V4L2C_RUN_BATCH_H
#include <stdbool.h>
#include <stddef.h>

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
	const char *rec_dir;	/* record file of instance i: rec_dir/i */
};

/* Run every check of b; out[k] gets the verdict of b->idx[k]. */
void batch_run(const struct batch *b, struct outcome *out);
/* In the shared process: true while a check runs there (not in its own). */
bool batch_shared(void);
/* End the running check now, without a verdict of its own (the record says
 * why: a skip). In a check's own process this ends the process. */
void batch_end_check(void) __attribute__((noreturn));
#endif
