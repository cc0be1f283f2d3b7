/* The shared test process (see run_batch.h). */
#include "run/run_batch.h"
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child ends itself with this status when a check left a thread or a
 * process behind: not a crash, the runner just starts a fresh child. */
#define EXIT_RESTART 3

/* What the child writes on the pipe when a check starts: its index and
 * the process running it (in an own-process batch Check's fork mode runs
 * it in a grandchild, in a process group of its own). */
struct started {
	int idx;
	int pid;
};

int (*batch_kill)(pid_t pid, int sig) = kill;
double batch_reap_s = BATCH_REAP_S;
static pid_t abandoned[64];
static size_t n_abandoned;

static bool in_shared;
static jmp_buf end_check;
static bool end_check_armed;

bool batch_shared(void)
{
	return in_shared;
}

void batch_end_check(void)
{
	if (end_check_armed)
		longjmp(end_check, 1);
	_exit(0);
}

/* ---------- the child ---------- */

static const struct batch *cb;	/* the batch, in the child */
static size_t c_first;		/* index into cb of the child's first check */
static SRunner *c_sr;
static int c_written, c_pipe = -1;
static bool c_restart;
static bool c_keep_fd[1024];	/* descriptors open when the running check started */

static void write_record(int idx, const char *line)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%d", cb->rec_dir, idx);
	FILE *f = fopen(path, "a");
	if (!f)
		return;
	fputs(line, f);
	fclose(f);
}

/* Verdicts Check has recorded since the last call go to their records:
 * "R <rtype> <message>", newlines folded. */
static void flush_verdicts(void)
{
	int n = srunner_ntests_run(c_sr);
	if (n <= c_written)
		return;
	TestResult **tr = srunner_results(c_sr);
	for (int j = c_written; j < n; j++) {
		const char *m = tr_msg(tr[j]) ? tr_msg(tr[j]) : "";
		size_t len = strlen(m) + 32;
		char *line = malloc(len);
		snprintf(line, len, "R %d %s\n", tr_rtype(tr[j]), m);
		for (char *p = line + 2; p[1]; p++)
			if (*p == '\n')
				*p = ' ';
		write_record(cb->idx[c_first + (size_t)j], line);
		free(line);
	}
	free(tr);
	c_written = n;
}

static void note_open_fds(void)
{
	memset(c_keep_fd, 0, sizeof(c_keep_fd));
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) < 1024)
			c_keep_fd[atoi(e->d_name)] = true;
	/* the listing's own descriptor is closed by now */
	if (d)
		c_keep_fd[dirfd(d)] = false;
	if (d)
		closedir(d);
}

static int count_entries(const char *path)
{
	int n = 0;
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Checked teardown: runs after every check, passed or failed. */
static void after_check(void)
{
	end_check_armed = false;
	/* What the check opened and left open goes; Check's own message file
	 * was open before the check started and stays. */
	int fds[1024], n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	while (d && (e = readdir(d)) && n < 1024)
		if (e->d_name[0] != '.')
			fds[n++] = atoi(e->d_name);
	int own = d ? dirfd(d) : -1;
	for (int k = 0; k < n; k++)
		if (fds[k] > 2 && fds[k] != own && (fds[k] >= 1024 || !c_keep_fd[fds[k]]))
			close(fds[k]);
	if (d)
		closedir(d);
	/* A thread or a process still running cannot be undone: the next
	 * check gets a fresh test process. */
	pid_t r;
	while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
		;
	if (r == 0 || count_entries("/proc/self/task") > 1)
		c_restart = true;
}

static bool announce(int i)
{
	struct started st = { i, (int)getpid() };
	return write(c_pipe, &st, sizeof(st)) == sizeof(st);
}

static void shared_test(int i)
{
	flush_verdicts();
	if (c_restart)
		_exit(EXIT_RESTART);
	if (!announce(i))
		_exit(EXIT_RESTART);
	note_open_fds();
	if (setjmp(end_check))
		return;		/* batch_end_check(): ended early, no verdict of its own */
	end_check_armed = true;
	cb->fn(i);
	end_check_armed = false;
}

/* An own-process check, in the grandchild Check's fork mode made for it. */
static void own_test(int i)
{
	if (!announce(i))
		_exit(EXIT_RESTART);
	cb->fn(i);
}

/* The child: the checks from `first` on in one process (Check's no-fork
 * mode), or, for an own-process batch, the check at `first` alone in Check's
 * fork mode, whose failed assertion in any thread ends the check's process.
 * That child never touches the device, so the runner can always kill it,
 * even when the check's own process is stuck in the kernel (Check would
 * wait for that one for ever). Verdicts go to the records; then it ends. */
static void child_main(const struct batch *b, size_t first, int pipe_fd)
{
	cb = b;
	c_first = first;
	c_pipe = pipe_fd;
	setpgid(0, 0);
	in_shared = !b->own_process;
	size_t end = b->own_process ? first + 1 : b->n;
	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("batch");
	tcase_set_timeout(tc, 0);	/* the runner keeps the time */
	if (in_shared)
		tcase_add_checked_fixture(tc, NULL, after_check);
	TTest *tt = calloc(end - first, sizeof(*tt));
	for (size_t k = first; k < end; k++) {
		tt[k - first] = (TTest){ b->names[k], in_shared ? shared_test : own_test, __FILE__, __LINE__ };
		_tcase_add_test(tc, &tt[k - first], 0, 0, b->idx[k], b->idx[k] + 1);
	}
	suite_add_tcase(s, tc);
	c_sr = srunner_create(s);
	srunner_set_fork_status(c_sr, in_shared ? CK_NOFORK : CK_FORK);
	srunner_run(c_sr, NULL, NULL, CK_SILENT);
	flush_verdicts();
	_exit(0);
}

/* ---------- the runner's side ---------- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The "R" line of instance idx, if the child got that far. */
static bool read_verdict(const char *rec_dir, int idx, struct outcome *o)
{
	char path[1024], line[8192];
	bool found = false;
	snprintf(path, sizeof(path), "%s/%d", rec_dir, idx);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] != 'R' || line[1] != ' ')
			continue;
		line[strcspn(line, "\n")] = 0;
		char *msg = NULL;
		o->rtype = (int)strtol(line + 2, &msg, 10);
		while (msg && *msg == ' ')
			msg++;
		free(o->msg);
		o->msg = o->rtype == CK_PASS || !msg ? NULL : strdup(msg);
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

static void set_outcome(struct outcome *o, int rtype, const char *msg)
{
	free(o->msg);
	o->rtype = rtype;
	o->msg = msg ? strdup(msg) : NULL;
}

/* Wait for pid until `until` (CLOCK_MONOTONIC); false if it has not ended. */
static bool reap_by(pid_t pid, double until, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno == ECHILD))
			return true;
		if (now_s() >= until)
			return false;
		usleep(10 * 1000);
	}
}

static void kill_both(pid_t pid, pid_t gpid)
{
	batch_kill(-pid, SIGKILL);
	batch_kill(pid, SIGKILL);
	if (gpid > 0 && gpid != pid) {
		batch_kill(-gpid, SIGKILL);
		batch_kill(gpid, SIGKILL);
	}
}

/* Has a process that is not our child ended? (a grandchild) */
static bool ended(pid_t pid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return kill(pid, 0) < 0 && errno == ESRCH;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *st = strrchr(buf, ')');
	return st && (st[2] == 'Z' || st[2] == 'X');
}

static void note_abandoned(pid_t pid)
{
	if (n_abandoned < sizeof(abandoned) / sizeof(abandoned[0]))
		abandoned[n_abandoned] = pid;
	n_abandoned++;
}

size_t batch_abandoned(const pid_t **pids)
{
	if (pids)
		*pids = abandoned;
	return n_abandoned;
}

/* Start a child at b->idx[first]; watch it until it ends, or until it is
 * killed and, if SIGKILL cannot end it (a sleep in the kernel that nothing
 * interrupts), left behind: the runner never waits for it unboundedly.
 * Returns the position of the first check it did not finish (b->n when all
 * ran). */
static size_t run_child(const struct batch *b, size_t first, struct outcome *out)
{
	int p[2];
	if (pipe(p)) {
		for (size_t k = first; k < b->n; k++)
			set_outcome(&out[k], CK_ERROR, "cannot create a pipe for the test process");
		return b->n;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		child_main(b, first, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		for (size_t k = first; k < b->n; k++)
			set_outcome(&out[k], CK_ERROR, "cannot fork the test process");
		return b->n;
	}
	size_t cur = first;	/* position of the check running now */
	pid_t gpid = 0;		/* the process running it, if not the child */
	bool started = false, timed_out = false;
	double deadline = now_s() + b->timeout_s;
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		int left = (int)((deadline - now_s()) * 1000);
		int r = poll(&pf, 1, left > 0 ? left : 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			timed_out = true;
			break;
		}
		struct started st;
		ssize_t got = read(p[0], &st, sizeof(st));
		if (got != sizeof(st))
			break;	/* the child is gone */
		while (cur < b->n && b->idx[cur] != st.idx)
			cur++;
		gpid = st.pid;
		started = true;
		deadline = now_s() + b->timeout_s;
	}
	close(p[0]);
	/* A child that closed the pipe is exiting: it gets what is left of
	 * the check's time to do so (closing a streaming handle can take a
	 * while on an emulated board). One that does not end is killed, and
	 * one that SIGKILL does not end either is asleep in the kernel for
	 * good: left behind after batch_reap_s. */
	int status = 0;
	bool closed = !timed_out;
	bool reaped = closed && reap_by(pid, deadline, &status);
	if (!reaped) {
		if (!timed_out)
			timed_out = true;
		kill_both(pid, gpid);
		reaped = reap_by(pid, now_s() + batch_reap_s, &status);
	}
	pid_t stuck = 0;
	if (!reaped)
		stuck = pid;
	else if (timed_out && gpid > 0 && gpid != pid) {
		/* The child is gone; the check's own process (Check's fork
		 * mode) is not ours to wait for, but may be stuck as well. */
		double until = now_s() + batch_reap_s;
		while (!ended(gpid) && now_s() < until)
			usleep(10 * 1000);
		if (!ended(gpid))
			stuck = gpid;
	}
	if (stuck)
		note_abandoned(stuck);
	/* Every check the child finished has its verdict in its record. */
	size_t end = b->own_process ? first + 1 : b->n, k = first;
	for (; k < end; k++)
		if (!read_verdict(b->rec_dir, b->idx[k], &out[k]))
			break;
	if (k >= end)
		return end;
	bool running = started && k == cur;
	if (timed_out && running) {
		char msg[800];
		int n = snprintf(msg, sizeof(msg), "%s", closed ? "the test process stopped in this check and did not exit within its timeout"
								: "Test timeout expired");
		if (stuck)
			snprintf(msg + n, sizeof(msg) - (size_t)n,
				 "; its test process (pid %d) did not end within %.0f s of SIGKILL (asleep in the "
				 "kernel, not interruptible): left behind", (int)stuck, batch_reap_s);
		/* Before the next check starts: it must know what hangs. */
		int rtype = b->on_timeout ? b->on_timeout(b->idx[k], msg, sizeof(msg)) : CK_ERROR;
		set_outcome(&out[k], rtype, msg);
		return k + 1;
	}
	if (WIFSIGNALED(status) && running) {
		char msg[128];
		snprintf(msg, sizeof(msg), "Received signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
		set_outcome(&out[k], CK_ERROR, msg);
		return k + 1;
	}
	if (!reaped && !running) {
		/* Stuck before or after a check: nothing to blame a check for,
		 * but nothing more to expect from that process either. */
		set_outcome(&out[k], CK_ERROR, "the shared test process was stuck in the kernel before this check started");
		return k + 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_RESTART && !running)
		return k;	/* a fresh process for the rest */
	if (running) {
		char msg[128];
		snprintf(msg, sizeof(msg), "Early exit with return value %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		set_outcome(&out[k], CK_ERROR, msg);
		return k + 1;
	}
	/* The child died between checks: nothing to blame a check for. */
	set_outcome(&out[k], CK_ERROR, "the shared test process ended before this check started");
	return k + 1;
}

void batch_run(const struct batch *b, struct outcome *out)
{
	for (size_t k = 0; k < b->n;)
		k = run_child(b, k, out);
}
