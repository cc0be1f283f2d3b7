/* The checks' records, in memory the runner shares with its test processes.
 *
 * A check's verdict, its warnings, skips, notes, measurements and its start
 * time used to go into a file per check that the runner read back: about
 * twenty file system calls per check, more than a quick check itself costs
 * on an emulated board. They go instead into a log in a shared anonymous
 * mapping made by the runner before it forks: a line is written with no
 * system call, and what a test process wrote before it crashed or was
 * killed is still there for the runner to read (the memory is the
 * runner's, not the dead process's). One writer at a time (the shared test
 * process, or the own process of the check it waits for); the runner reads
 * after that process has ended, or its progress while it runs. */
#ifndef V4L2C_RECLOG_H
#define V4L2C_RECLOG_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* One line of a check's record: tag 'T' (start), 'K' (kernel-log marks),
 * 'R' (Check's verdict), 'W', 'S', 'I', 'M', 'P', 'A' (verdict.h). */
struct rec_line {
	int idx;		/* the check instance */
	char tag;
	const char *text;	/* NUL-terminated, no newline */
};

/* Map the log (once; later calls do nothing). 0, or -1 with errno. */
int reclog_init(void);
/* Empty it: the runner, before it starts a batch. */
void reclog_reset(void);
/* Append a line for check idx (newlines in text folded to spaces). A line
 * that does not fit is dropped and counted (reclog_dropped). */
void reclog_add(int idx, char tag, const char *text);
size_t reclog_dropped(void);
/* Lines in the order written: *pos starts at 0; false at the end. */
bool reclog_next(size_t *pos, struct rec_line *out);

/* Progress of the running test process: which check (its position in the
 * batch) started last, in which process, when (CLOCK_MONOTONIC). seq
 * counts the starts, so a watcher sees that a new check began. */
struct reclog_progress {
	unsigned long seq;
	size_t pos;
	pid_t pid;
	double started;
};
void reclog_started(size_t pos, pid_t pid, double t);
void reclog_progress(struct reclog_progress *p);
#endif
