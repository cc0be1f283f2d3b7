/* The shared test process (lib/run/run_batch.c): a failed assertion, a crash
 * and a hang each cost exactly their own check; a skip ends a check without
 * a failure; what a check leaves open is closed before the next; a check
 * that leaves a thread running sends the next one to a fresh process; a
 * check whose process SIGKILL cannot end (asleep in the kernel for good) is
 * left behind after a bounded wait, in the shared process and in Check's
 * fork mode alike, and the rest of the batch runs. */
#include "unit.h"
#include "run/run_batch.h"
#include "run/reclog.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char shared_file[256];	/* checks leave what they saw here */

static void note(const char *fmt, long v)
{
	FILE *f = fopen(shared_file, "a");
	fprintf(f, fmt, v);
	fclose(f);
}

static void *sleeper(void *a)
{
	(void)a;
	sleep(30);
	return NULL;
}

static void c_pass(void) { note("pid %ld\n", (long)getpid()); }
static void c_fail(void) { ck_abort_msg("expected 1, got 2"); }
static void c_segv(void) { raise(SIGSEGV); }
static void c_hang(void) { sleep(30); }
static void c_skip(void) { batch_end_check(); ck_abort_msg("not reached"); }
static void c_leak(void) { note("leaked fd %ld\n", (long)open("/dev/null", O_RDONLY)); }
static void c_fd_after(void) { int fd = open("/dev/null", O_RDONLY); note("next fd %ld\n", (long)fd); close(fd); }
static void c_thread(void) { pthread_t t; pthread_create(&t, NULL, sleeper, NULL); note("pid %ld\n", (long)getpid()); }

static void (*const table[])(void) = { c_pass, c_fail, c_segv, c_hang, c_pass, c_skip, c_leak, c_fd_after, c_thread, c_pass };
enum { N = sizeof(table) / sizeof(table[0]) };

static void dispatch(int i) { table[i](); }

START_TEST(each_check_costs_only_itself)
{
	char dir[] = "/tmp/v4l2c-batch-XXXXXX";
	ck_assert(mkdtemp(dir));
	snprintf(shared_file, sizeof(shared_file), "%s/seen", dir);
	int idx[N];
	const char *names[N];
	for (int i = 0; i < N; i++) {
		idx[i] = i;
		names[i] = "check";
	}
	struct outcome out[N] = { { 0 } };
	struct batch b = { idx, names, N, dispatch, 1 };
	batch_run(&b, out);
	ck_assert_int_eq(out[0].rtype, CK_PASS);
	ck_assert_int_eq(out[1].rtype, CK_FAILURE);
	ck_assert_str_eq(out[1].msg, "expected 1, got 2");
	ck_assert_int_eq(out[2].rtype, CK_ERROR);
	ck_assert_msg(strstr(out[2].msg, "signal 11"), "got %s", out[2].msg);
	ck_assert_int_eq(out[3].rtype, CK_ERROR);
	ck_assert_str_eq(out[3].msg, "Test timeout expired");
	for (int i = 4; i < N; i++)
		ck_assert_msg(out[i].rtype == CK_PASS, "check %d: %d %s", i, out[i].rtype, out[i].msg ? out[i].msg : "");
	/* what the checks saw */
	FILE *f = fopen(shared_file, "r");
	long pid[4] = { 0 }, leaked = -1, next = -2;
	int np = 0;
	char line[128];
	while (fgets(line, sizeof(line), f)) {
		long v;
		if (sscanf(line, "pid %ld", &v) == 1 && np < 4)
			pid[np++] = v;
		sscanf(line, "leaked fd %ld", &leaked);
		sscanf(line, "next fd %ld", &next);
	}
	fclose(f);
	ck_assert_int_eq(np, 4);	/* checks 0, 4, 8 and 9 */
	ck_assert_msg(pid[1] != pid[0], "a fresh process after the crash and the hang");
	ck_assert_msg(pid[2] == pid[1], "checks that leave nothing behind share the process");
	ck_assert_msg(pid[3] != pid[2], "a fresh process after a check left a thread running");
	ck_assert_msg(leaked >= 0 && next == leaked, "the leaked descriptor %ld is closed before the next check (it got %ld)",
		      leaked, next);
}
END_TEST

/* ---- a process that SIGKILL cannot end ----
 * A driver's uninterruptible sleep cannot be made on the host: the check
 * names its process in a file, and the runner's kill() leaves that one
 * alone. Before the runner bounded its waits, these tests hung. */
static char unkillable_file[256];

static long unkillable_pid(void)
{
	long pid = 0;
	FILE *f = fopen(unkillable_file, "r");
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return pid;
}

static int fake_kill(pid_t pid, int sig)
{
	long u = unkillable_pid();
	if (u && (pid == u || pid == -u))
		return 0;	/* "asleep in the kernel": the signal does nothing */
	return kill(pid, sig);
}

static void c_unkillable(void)
{
	FILE *f = fopen(unkillable_file, "w");
	fprintf(f, "%ld\n", (long)getpid());
	fclose(f);
	note("pid %ld\n", (long)getpid());
	sleep(60);
}

static void (*const table2[])(void) = { c_pass, c_unkillable, c_fail, c_pass };
enum { N2 = sizeof(table2) / sizeof(table2[0]) };

static void dispatch2(int i) { table2[i](); }

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run_with_unkillable(bool own_process)
{
	char dir[] = "/tmp/v4l2c-batch-XXXXXX";
	ck_assert(mkdtemp(dir));
	snprintf(shared_file, sizeof(shared_file), "%s/seen", dir);
	snprintf(unkillable_file, sizeof(unkillable_file), "%s/unkillable", dir);
	int idx[N2];
	const char *names[N2];
	for (int i = 0; i < N2; i++) {
		idx[i] = i;
		names[i] = "check";
	}
	struct outcome out[N2] = { { 0 } };
	struct batch b = { idx, names, N2, dispatch2, 1, own_process };
	batch_kill = fake_kill;
	batch_reap_s = 0.3;
	size_t before = batch_abandoned(NULL);
	double t0 = now_s();
	batch_run(&b, out);
	double took = now_s() - t0;
	long stuck = unkillable_pid();
	kill((pid_t)stuck, SIGKILL);	/* the test's own clean-up */
	ck_assert_msg(took < 4, "the batch took %.1f s: the runner waited for the unkillable process", took);
	ck_assert_int_eq(out[0].rtype, CK_PASS);
	ck_assert_int_eq(out[1].rtype, CK_ERROR);
	ck_assert_msg(strstr(out[1].msg, "Test timeout expired") && strstr(out[1].msg, "left behind"), "%s", out[1].msg);
	char pid[32];
	snprintf(pid, sizeof(pid), "pid %ld", stuck);
	ck_assert_msg(strstr(out[1].msg, pid), "names %s: %s", pid, out[1].msg);
	ck_assert_int_eq(out[2].rtype, CK_FAILURE);
	ck_assert_str_eq(out[2].msg, "expected 1, got 2");
	ck_assert_int_eq(out[3].rtype, CK_PASS);
	const pid_t *pids;
	ck_assert_int_eq(batch_abandoned(&pids), before + 1);
	ck_assert_int_eq(pids[before], stuck);
	batch_kill = kill;
}

START_TEST(unkillable_shared_process_is_left_behind)
{
	run_with_unkillable(false);
}
END_TEST

/* The first two "pid N" lines the checks left in shared_file; how many. */
static int first_two_pids(long pid[2])
{
	FILE *f = fopen(shared_file, "r");
	int np = 0;
	char line[128];
	pid[0] = pid[1] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (np < 2 && sscanf(line, "pid %ld", &pid[np]) == 1)
			np++;
	if (f)
		fclose(f);
	return np;
}

/* Checks with threads or processes: Check's fork mode would wait for the
 * stuck process for ever; its waiting child is killed instead. */
START_TEST(unkillable_own_process_is_left_behind)
{
	run_with_unkillable(true);
	/* each check had a process of its own */
	long pid[2];
	ck_assert_int_eq(first_two_pids(pid), 2);
	ck_assert_msg(pid[0] != pid[1], "own processes");
}
END_TEST

/* ---- the shared process's own assertion handling (assert_catch.h) ----
 * Its failure messages are Check's own, word for word: the same failing
 * assertions run once in the shared process and once in Check's fork mode
 * (a process of their own, Check's _ck_assert_failed). */
static void f_bare(void) { int one = 1; ck_assert(one == 2); }
static void f_msg(void) { ck_assert_msg(0, "expected %d, got %s", 5, "six"); }
static void f_int(void) { int a = 1, b = 2; ck_assert_int_eq(a, b); }
static void f_str(void) { const char *a = "left", *b = "right"; ck_assert_str_eq(a, b); }
static void f_abort(void) { ck_abort_msg("cannot open %s", "/dev/video9"); }
static void f_abort_bare(void) { ck_abort(); }
static void f_holds(void) { for (int i = 0; i < 1000; i++) ck_assert_int_ge(i, 0); }
/* Longer than Check's messages can be (its fork mode ends the process:
 * "Message string too long"): the shared process keeps it, cut as Check
 * formats it, at BUFSIZ. */
static void f_long(void)
{
	static char big[10000];
	memset(big, 'x', sizeof(big) - 1);
	ck_abort_msg("%s", big);
}

static void (*const table3[])(void) = { f_bare, f_msg, f_int, f_str, f_abort, f_abort_bare, f_holds, f_long };
enum { N3 = sizeof(table3) / sizeof(table3[0]) };

static void dispatch3(int i) { table3[i](); }

START_TEST(shared_failures_read_as_checks_own)
{
	int idx[N3];
	const char *names[N3];
	for (int i = 0; i < N3; i++) {
		idx[i] = i;
		names[i] = "check";
	}
	struct outcome shared[N3] = { { 0 } }, own[N3] = { { 0 } };
	struct batch b = { idx, names, N3, dispatch3, 5, false };
	batch_run(&b, shared);
	b.own_process = true;
	batch_run(&b, own);
	for (int i = 0; i < N3 - 2; i++) {
		ck_assert_msg(shared[i].rtype == CK_FAILURE && own[i].rtype == CK_FAILURE, "check %d: %d %d", i,
			      shared[i].rtype, own[i].rtype);
		ck_assert_str_eq(shared[i].msg, own[i].msg);
	}
	ck_assert_int_eq(shared[N3 - 2].rtype, CK_PASS);
	ck_assert_int_eq(own[N3 - 2].rtype, CK_PASS);
	ck_assert_int_eq(shared[N3 - 1].rtype, CK_FAILURE);
	ck_assert_int_eq(strlen(shared[N3 - 1].msg), BUFSIZ - 1);
}
END_TEST

/* ---- records survive their process; the shared process outlives a batch ---- */
static void r_note_then_crash(void)
{
	reclog_add(0, 'W', "written before the crash");
	raise(SIGSEGV);
}
static void r_pid(void) { note("pid %ld\n", (long)getpid()); }

static void (*const table4[])(void) = { r_note_then_crash, r_pid };

static void dispatch4(int i) { table4[i](); }

START_TEST(records_survive_and_the_process_outlives_a_batch)
{
	char dir[] = "/tmp/v4l2c-batch-XXXXXX";
	ck_assert(mkdtemp(dir));
	snprintf(shared_file, sizeof(shared_file), "%s/seen", dir);
	int idx[2] = { 0, 1 }, one = 1;
	const char *names[2] = { "check", "check" };
	struct outcome out[2] = { { 0 } }, again = { 0 };
	struct batch b = { idx, names, 2, dispatch4, 5, false };
	batch_run(&b, out);
	ck_assert_int_eq(out[0].rtype, CK_ERROR);
	ck_assert_int_eq(out[1].rtype, CK_PASS);
	size_t pos = 0;
	struct rec_line l;
	bool found = false;
	while (reclog_next(&pos, &l))
		found |= l.idx == 0 && l.tag == 'W' && !strcmp(l.text, "written before the crash");
	ck_assert_msg(found, "the line the crashed check wrote is in the record log");
	struct batch b2 = { &one, names, 1, dispatch4, 5, false };
	batch_run(&b2, &again);
	ck_assert_int_eq(again.rtype, CK_PASS);
	batch_finish();
	long pid[2];
	ck_assert_int_eq(first_two_pids(pid), 2);
	ck_assert_msg(pid[0] == pid[1], "the next batch ran in the same shared process (%ld, %ld)", pid[0], pid[1]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("run_batch");
	TCase *tc = tcase_create("batch");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, each_check_costs_only_itself);
	tcase_add_test(tc, unkillable_shared_process_is_left_behind);
	tcase_add_test(tc, unkillable_own_process_is_left_behind);
	tcase_add_test(tc, shared_failures_read_as_checks_own);
	tcase_add_test(tc, records_survive_and_the_process_outlives_a_batch);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
