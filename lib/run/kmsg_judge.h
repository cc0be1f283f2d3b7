/* Which kernel messages turn a verdict (issue 14). An Oops, a BUG (KASAN
 * included), a hung task, or a WARNING whose call trace runs through a
 * driver module or the V4L2 core while a check ran make that check fail,
 * with the report's first line and the faulting function in the message;
 * every other message of level warning or worse stays a warning. */
#ifndef V4L2C_KMSG_JUDGE_H
#define V4L2C_KMSG_JUDGE_H
#include <stdbool.h>
#include <stddef.h>
#include "check/results.h"

struct kmsg_rec {
	int level;		/* 0 emerg .. 7 debug */
	double t;		/* seconds, on the runner's CLOCK_MONOTONIC */
	const char *text;	/* first line of the record */
};

struct kreport {
	size_t first, end;	/* records [first, end) */
	double t;		/* when its first line was logged */
	bool fatal;		/* fails the check that was running */
	bool kills;		/* an Oops: the process it names died there */
	char summary[300];	/* "BUG: kernel NULL pointer dereference ... in fx_s_ctrl [v4l2c_fixture]" */
};

/* Group records into reports (a header line and what follows it up to the
 * next header or the end of the trace) and judge each. Returns how many
 * were written to out (at most max). */
size_t kjudge_reports(const struct kmsg_rec *r, size_t n, struct kreport *out, size_t max);

/* The runner's hooks. In the test process, first thing: this check's pid
 * and start time on the kernel log's clock, as a line "PID SECONDS" for the
 * check's record (the runner hands them back to kjudge_apply). */
void kjudge_check_started(char *line, size_t len);
/* After the checks [0, n) of a definition ran (their results res[0..n),
 * each one's pid and start time from kjudge_check_started in pid[] and
 * start[], 0 where the check did not start): read the new kernel messages
 * from fd (kmsg_open) and fail the check each fatal report belongs to: the
 * check whose process the report names, else the one running when it was
 * logged. The other messages of level <= 4 go into other, one per line;
 * returns their number. */
int kjudge_apply(int fd, struct result *res, const int *pid, const double *start, size_t n, char *other,
		 size_t len);
#endif
