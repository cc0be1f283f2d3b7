/* The shared test process (lib/run_batch.c): a failed assertion, a crash
 * and a hang each cost exactly their own check; a skip ends a check without
 * a failure; what a check leaves open is closed before the next; a check
 * that leaves a thread running sends the next one to a fresh process. */
#include "unit.h"
#include "run_batch.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	struct batch b = { idx, names, N, dispatch, 1, dir };
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

int main(void)
{
	Suite *s = suite_create("run_batch");
	TCase *tc = tcase_create("batch");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, each_check_costs_only_itself);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
