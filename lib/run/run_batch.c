/* The shared test process (see run_batch.h). */
#include "run/run_batch.h"
#include "run/run_clock.h"
#include "dev/fd_keep.h"
#include "run/assert_catch.h"
#include "run/reclog.h"
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child ends itself with this status when a check left a thread or a
 * process behind: not a crash, the runner just starts a fresh child. */
#define EXIT_RESTART 3

int (*batch_kill)(pid_t pid, int sig) = kill;
double batch_reap_s = BATCH_REAP_S;
static pid_t abandoned[64];
static size_t n_abandoned;

static bool in_shared;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool batch_shared(void)
{
	return in_shared;
}

void batch_end_check(void)
{
	if (assert_catch_armed())
		assert_catch_leave();
	_exit(0);
}

/* ---------- the child ---------- */

static const struct batch *cb;	/* the batch, in the child */
static size_t c_first;		/* index into cb of the child's first check */
static SRunner *c_sr;
static int c_written;
static bool c_restart;

/* The verdict of the check at position k: "R <rtype> <message>". */
static void record_verdict(size_t k, int rtype, const char *msg)
{
	size_t len = strlen(msg) + 32;
	char *line = malloc(len);
	snprintf(line, len, "%d %s", rtype, msg);
	reclog_add(cb->idx[k], 'R', line);
	free(line);
}

/* Own-process batch: the verdicts Check has recorded since the last call. */
static void flush_verdicts(void)
{
	int n = srunner_ntests_run(c_sr);
	if (n <= c_written)
		return;
	TestResult **tr = srunner_results(c_sr);
	for (int j = c_written; j < n; j++)
		record_verdict(c_first + (size_t)j, tr_rtype(tr[j]), tr_msg(tr[j]) ? tr_msg(tr[j]) : "");
	free(tr);
	c_written = n;
}

/* What a check leaves open. The descriptors open before the shared
 * process's first check are listed once (c_keep, the highest c_hi); after
 * every check, everything above c_hi is closed at once (close_range), and
 * below it whatever is not kept, no /proc listing per check. Nothing but
 * the checks opens descriptors in this process, so after that clean-up the
 * open ones are kept ones. Threads: the link count of /proc/self/task is
 * 2 + the number of threads (the kernel's proc_task_getattr), one fstat. */
static bool c_keep[FD_KEEP_MAX];
static int c_hi = 2, c_task_fd = -1;
static nlink_t c_task_links;

static void keep_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int own = d ? dirfd(d) : -1;
	while (d && (e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] != '.' && fd != own && fd < FD_KEEP_MAX) {
			c_keep[fd] = true;
			if (fd > c_hi)
				c_hi = fd;
		}
	}
	if (d)
		closedir(d);
	struct stat st;
	c_task_fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c_task_fd >= 0 && c_task_fd < FD_KEEP_MAX && !fstat(c_task_fd, &st)) {
		c_task_links = st.st_nlink;
		c_keep[c_task_fd] = true;
		if (c_task_fd > c_hi)
			c_hi = c_task_fd;
	} else if (c_task_fd >= 0) {
		close(c_task_fd);
		c_task_fd = -1;
	}
}

/* Where close_range is missing (a kernel before 5.9): the listing. */
static void close_above_listed(int hi)
{
	int fds[1024], n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	while (d && (e = readdir(d)) && n < 1024)
		if (e->d_name[0] != '.')
			fds[n++] = atoi(e->d_name);
	int own = d ? dirfd(d) : -1;
	for (int k = 0; k < n; k++)
		if (fds[k] > hi && fds[k] != own)
			close(fds[k]);
	if (d)
		closedir(d);
}

static void after_check(void)
{
	if (close_range((unsigned int)c_hi + 1, ~0U, 0))
		close_above_listed(c_hi);
	for (int fd = 3; fd <= c_hi; fd++) {
		if (!c_keep[fd])
			close(fd);	/* EBADF when it is not open: nothing to do */
		else if (fcntl(fd, F_GETFD) < 0)
			c_keep[fd] = false;	/* the check closed it: not ours to keep now */
	}
	/* A thread or a process still running cannot be undone: the next
	 * check gets a fresh test process. */
	pid_t r;
	while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
		;
	struct stat st;
	if (r == 0 || c_task_fd < 0 || fstat(c_task_fd, &st) || st.st_nlink != c_task_links)
		c_restart = true;
}

/* The checks of b from `first` on, one after another, without Check's
 * runner (assert_catch.h); each verdict is in the record log as soon as
 * the check and its clean-up are done. A check that left a thread or a
 * process behind ends the process, before the next check or after the
 * last. */
static void shared_checks(const struct batch *b, size_t first)
{
	char msg[BUFSIZ];
	cb = b;
	for (size_t k = first; k < b->n; k++) {
		if (c_restart)
			_exit(EXIT_RESTART);
		reclog_started(k, getpid(), now_s());
		bool failed = assert_catch_run(b->fn, b->idx[k], msg, sizeof(msg));
		after_check();
		record_verdict(k, failed ? CK_FAILURE : CK_PASS, failed ? msg : "");
	}
	if (c_restart)
		_exit(EXIT_RESTART);
}

/* What the runner sends the shared process for a batch: this, then n ints
 * (the instance indices). */
struct command {
	void (*fn)(int idx);
	size_t n, first;
};

static bool read_full(int fd, void *buf, size_t len)
{
	for (size_t got = 0; got < len;) {
		ssize_t r = read(fd, (char *)buf + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* The shared test process: it outlives a batch (a fork and an exit per
 * check definition cost more on an emulated board than the definition's
 * quick checks), running each batch the runner sends and answering one
 * byte when it is done. It ends when the runner closes its end, after a
 * check left a thread or a process behind, or killed with a check that
 * overran. */
static void shared_main(int cmd, int done)
{
	keep_open_fds();
	fd_keep_use_base(c_keep);	/* v_run_check's note: a copy, no listing */
	struct command h;
	while (read_full(cmd, &h, sizeof(h))) {
		int *idx = calloc(h.n + 1, sizeof(*idx));
		if (!read_full(cmd, idx, h.n * sizeof(*idx)))
			_exit(0);
		struct batch b = { .idx = idx, .n = h.n, .fn = h.fn };
		shared_checks(&b, h.first);
		free(idx);
		if (write(done, "d", 1) != 1)
			_exit(0);
	}
	_exit(0);
}

/* An own-process check, in the grandchild Check's fork mode made for it. */
static void own_test(int i)
{
	reclog_started(c_first, getpid(), now_s());
	cb->fn(i);
}

/* An own-process check: the check at `first` alone in Check's fork mode,
 * whose failed assertion in any thread ends the check's process. This
 * child never touches the device, so the runner can always kill it, even
 * when the check's own process is stuck in the kernel (Check would wait for
 * that one for ever). Its verdict goes to the record log; then it ends. */
static void own_main(const struct batch *b, size_t first)
{
	cb = b;
	c_first = first;
	setpgid(0, 0);
	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("batch");
	tcase_set_timeout(tc, 0);	/* the runner keeps the time */
	TTest *tt = calloc(1, sizeof(*tt));
	*tt = (TTest){ b->names[first], own_test, __FILE__, __LINE__ };
	_tcase_add_test(tc, tt, 0, 0, b->idx[first], b->idx[first] + 1);
	suite_add_tcase(s, tc);
	c_sr = srunner_create(s);
	srunner_set_fork_status(c_sr, CK_FORK);
	srunner_run(c_sr, NULL, NULL, CK_SILENT);
	flush_verdicts();
	_exit(0);
}

/* ---------- the runner's side ---------- */

/* The verdicts in the record log ("R" lines) of the checks at positions
 * [first, end): out[k] of each found; got[k] tells which. */
static void read_verdicts(const struct batch *b, size_t first, size_t end, struct outcome *out, bool *got)
{
	size_t pos = 0;
	struct rec_line l;
	while (reclog_next(&pos, &l)) {
		if (l.tag != 'R')
			continue;
		for (size_t k = first; k < end; k++) {
			if (b->idx[k] != l.idx)
				continue;
			char *msg = NULL;
			struct outcome *o = &out[k];
			o->rtype = (int)strtol(l.text, &msg, 10);
			while (msg && *msg == ' ')
				msg++;
			free(o->msg);
			o->msg = o->rtype == CK_PASS || !msg ? NULL : strdup(msg);
			got[k] = true;
			break;
		}
	}
}

static void set_outcome(struct outcome *o, int rtype, const char *msg)
{
	free(o->msg);
	o->rtype = rtype;
	o->msg = msg ? strdup(msg) : NULL;
}

/* Wait for pid until `until` (CLOCK_MONOTONIC); false if it has not ended. */
/* Reaped by `until` on clock c (run_clock.h: the seconds the guest ran). */
static bool reap_on(pid_t pid, struct run_clock *c, double until, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno == ECHILD))
			return true;
		if (run_clock_now(c) >= until)
			return false;
		run_clock_nap(c, 0.01);
	}
}

/* Reaped within `s` seconds of the guest's time from now. */
static bool reap_by(pid_t pid, double s, int *status)
{
	struct run_clock c;
	run_clock_start(&c, RUN_CLOCK_CAP * s);
	return reap_on(pid, &c, run_clock_now(&c) + s, status);
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

/* The runner's side of the shared test process (shared_main). */
static pid_t srv_pid;
static int srv_cmd = -1, srv_done = -1;

static void server_forget(void)
{
	if (srv_cmd >= 0)
		close(srv_cmd);
	if (srv_done >= 0)
		close(srv_done);
	srv_cmd = srv_done = -1;
	srv_pid = 0;
}

void batch_finish(void)
{
	if (!srv_pid)
		return;
	pid_t pid = srv_pid;
	server_forget();	/* its end of the command pipe: it exits */
	int status;
	if (!reap_by(pid, batch_reap_s, &status)) {
		batch_kill(-pid, SIGKILL);
		batch_kill(pid, SIGKILL);
		if (!reap_by(pid, batch_reap_s, &status))
			note_abandoned(pid);
	}
}

static void finish_at_exit(void)
{
	batch_finish();
}

static bool server_start(void)
{
	static bool registered;
	int cmd[2], done[2];
	if (pipe(cmd))
		return false;
	if (pipe(done)) {
		close(cmd[0]);
		close(cmd[1]);
		return false;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(cmd[1]);
		close(done[0]);
		setpgid(0, 0);
		in_shared = true;
		shared_main(cmd[0], done[1]);
	}
	close(cmd[0]);
	close(done[1]);
	if (pid < 0) {
		close(cmd[1]);
		close(done[0]);
		return false;
	}
	/* Not inherited by the checks' own processes the runner forks. */
	fcntl(cmd[1], F_SETFD, FD_CLOEXEC);
	fcntl(done[0], F_SETFD, FD_CLOEXEC);
	srv_pid = pid;
	srv_cmd = cmd[1];
	srv_done = done[0];
	if (!registered)
		atexit(finish_at_exit);
	registered = true;
	return true;
}

static bool server_send(const struct batch *b, size_t first)
{
	struct command h = { b->fn, b->n, first };
	sigset_t pipe_set, old;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	bool ok = write(srv_cmd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
		  write(srv_cmd, b->idx, b->n * sizeof(*b->idx)) == (ssize_t)(b->n * sizeof(*b->idx));
	/* A SIGPIPE raised by a dead server is taken here, not delivered. */
	struct timespec zero = { 0, 0 };
	while (sigtimedwait(&pipe_set, NULL, &zero) > 0)
		;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

/* Run b from position `first`: in the shared test process (started if
 * there is none), or for an own-process batch in a child of its own. Watch
 * it until the batch is done or the process ends, or until it is killed
 * and, if SIGKILL cannot end it (a sleep in the kernel that nothing
 * interrupts), left behind: the runner never waits for it unboundedly.
 * Returns the position of the first check it did not finish (b->n when all
 * ran). */
static size_t run_child(const struct batch *b, size_t first, struct outcome *out)
{
	struct reclog_progress pr;
	reclog_progress(&pr);
	unsigned long seen = pr.seq;
	pid_t pid;
	int watch;	/* readable: a byte when the batch is done; EOF when the process is gone */
	if (!b->own_process) {
		if (srv_pid && !server_send(b, first)) {
			batch_finish();
			reclog_progress(&pr);
			seen = pr.seq;
		}
		if (!srv_pid && (!server_start() || !server_send(b, first))) {
			batch_finish();
			for (size_t k = first; k < b->n; k++)
				set_outcome(&out[k], CK_ERROR, "cannot start the shared test process");
			return b->n;
		}
		pid = srv_pid;
		watch = srv_done;
	} else {
		int p[2];
		if (pipe(p)) {
			for (size_t k = first; k < b->n; k++)
				set_outcome(&out[k], CK_ERROR, "cannot create a pipe for the test process");
			return b->n;
		}
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			own_main(b, first);
		}
		close(p[1]);
		if (pid < 0) {
			close(p[0]);
			for (size_t k = first; k < b->n; k++)
				set_outcome(&out[k], CK_ERROR, "cannot fork the test process");
			return b->n;
		}
		watch = p[0];
	}
	size_t cur = first;	/* position of the check running now */
	pid_t gpid = 0;		/* the process running it, if not the child */
	bool started = false, timed_out = false, done = false;
	/* The check's time is the guest's (run_clock.h): on a busy host the
	 * guest is not run for whole seconds, and that is not the check's. */
	struct run_clock rc;
	run_clock_start(&rc, RUN_CLOCK_CAP * b->timeout_s);
	double deadline = run_clock_now(&rc) + b->timeout_s;
	/* Each check notes its start in the record log; the runner looks there
	 * only when the deadline it knows of has passed, so a batch of quick
	 * checks wakes it once, when it is done (the waits are slices, to see
	 * the time the guest was not given). */
	for (;;) {
		struct pollfd pf = { .fd = watch, .events = POLLIN };
		int r = run_clock_poll(&rc, &pf, deadline);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 && run_clock_now(&rc) < deadline)
			continue;
		if (r > 0) {
			char c;
			ssize_t got = read(watch, &c, 1);
			if (got < 0 && errno == EINTR)
				continue;
			done = got == 1;
			break;	/* done, or the process is gone */
		}
		reclog_progress(&pr);
		if (pr.seq != seen) {
			seen = pr.seq;
			cur = pr.pos;
			gpid = pr.pid;
			started = true;
			/* The check's own clock from its start: what the guest was
			 * not given before the runner saw it start is not known,
			 * and so counted (the conservative side). */
			run_clock_start(&rc, RUN_CLOCK_CAP * b->timeout_s);
			deadline = pr.started + b->timeout_s;
			if (deadline > run_clock_now(&rc))
				continue;
		}
		timed_out = true;
		break;
	}
	if (done) {
		/* The shared process finished the batch and waits for the next. */
		bool *got = calloc(b->n + 1, sizeof(*got));
		read_verdicts(b, first, b->n, out, got);
		size_t k = first;
		while (k < b->n && got[k])
			k++;
		for (size_t j = k; j < b->n; j++)
			set_outcome(&out[j], CK_ERROR, "no verdict from the shared test process (runner error)");
		free(got);
		return b->n;
	}
	reclog_progress(&pr);
	if (pr.seq != seen) {
		cur = pr.pos;
		gpid = pr.pid;
		started = true;
		if (!timed_out) {
			run_clock_start(&rc, RUN_CLOCK_CAP * b->timeout_s);
			deadline = pr.started + b->timeout_s;
		}
	}
	if (!b->own_process)
		server_forget();	/* gone, or to be killed below */
	else
		close(watch);
	/* A child that closed the pipe is exiting: it gets what is left of
	 * the check's time to do so (closing a streaming handle can take a
	 * while on an emulated board). One that does not end is killed, and
	 * one that SIGKILL does not end either is asleep in the kernel for
	 * good: left behind after batch_reap_s. */
	int status = 0;
	bool closed = !timed_out;
	bool reaped = closed && reap_on(pid, &rc, deadline, &status);
	if (!reaped) {
		if (!timed_out)
			timed_out = true;
		kill_both(pid, gpid);
		reaped = reap_by(pid, batch_reap_s, &status);
	}
	pid_t stuck = 0;
	if (!reaped)
		stuck = pid;
	else if (timed_out && gpid > 0 && gpid != pid) {
		/* The child is gone; the check's own process (Check's fork
		 * mode) is not ours to wait for, but may be stuck as well. */
		struct run_clock gc;
		run_clock_start(&gc, RUN_CLOCK_CAP * batch_reap_s);
		double until = run_clock_now(&gc) + batch_reap_s;
		while (!ended(gpid) && run_clock_now(&gc) < until)
			run_clock_nap(&gc, 0.01);
		if (!ended(gpid))
			stuck = gpid;
	}
	if (stuck)
		note_abandoned(stuck);
	/* Every check the child finished has its verdict in its record. */
	size_t end = b->own_process ? first + 1 : b->n, k = first;
	bool *got = calloc(b->n + 1, sizeof(*got));
	read_verdicts(b, first, end, out, got);
	while (k < end && got[k])
		k++;
	free(got);
	if (k >= end)
		return end;
	bool running = started && k == cur;
	if (timed_out && running) {
		char msg[800];
		int n = snprintf(msg, sizeof(msg), "%s", closed ? "the test process stopped in this check and did not exit within its timeout"
								: "Test timeout expired");
		if (rc.stolen >= 1)
			n += snprintf(msg + n, sizeof(msg) - (size_t)n, " (%.0f s more that the guest was not run were not counted)",
				      rc.stolen < rc.cap ? rc.stolen : rc.cap);
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
	if (reclog_init()) {
		for (size_t k = 0; k < b->n; k++)
			set_outcome(&out[k], CK_ERROR, "cannot map the record log for the test process");
		return;
	}
	reclog_reset();
	for (size_t k = 0; k < b->n;)
		k = run_child(b, k, out);
}
