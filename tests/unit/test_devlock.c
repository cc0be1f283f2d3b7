/* Host unit tests: one run per device (lib/dev/devlock.c). /dev/null stands in
 * for the device; the locks go to a temporary folder (V4L2C_LOCK_DIR). */
#include <check.h>
#include "unit.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dev/devlock.h"

static char dir[] = "/tmp/devlock-test-XXXXXX";
static char err[512];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In a child: try the lock; exit 0 got it, 2 refused with the holder named.
 * inherited: the parent's lock descriptor, closed first (a forked check of
 * the runner keeps it on purpose: the lock lives as long as the run). */
static pid_t try_in_child(bool wait, pid_t want_holder, int inherited)
{
	pid_t c = fork();
	if (c == 0) {
		int holder;
		if (inherited >= 0)
			close(inherited);
		int fd = devlock_acquire("/dev/null", wait, &holder, err, sizeof(err));
		if (fd >= 0)
			_exit(0);
		char want[64];
		snprintf(want, sizeof(want), "device in use by pid %d", (int)want_holder);
		_exit(holder == want_holder && strstr(err, want) ? 2 : 3);
	}
	return c;
}

static int status_of(pid_t c)
{
	int st;
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_second_run_refused_with_the_pid)
{
	int fd = devlock_acquire("/dev/null", false, NULL, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(status_of(try_in_child(false, getpid(), fd)), 2);
	devlock_release(fd);
	ck_assert_int_eq(status_of(try_in_child(false, 0, -1)), 0);
}
END_TEST

START_TEST(test_wait_gets_it_when_the_holder_ends)
{
	int fd = devlock_acquire("/dev/null", false, NULL, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	double t0 = now_s();
	pid_t c = try_in_child(true, getpid(), fd);
	usleep(300 * 1000);
	ck_assert_int_eq(waitpid(c, NULL, WNOHANG), 0);	/* still waiting */
	devlock_release(fd);
	ck_assert_int_eq(status_of(c), 0);
	ck_assert(now_s() - t0 >= 0.3);
}
END_TEST

/* A run killed with SIGKILL leaves no stale lock: the kernel drops it. */
START_TEST(test_killed_holder_frees_the_device)
{
	int pipefd[2];
	ck_assert_int_eq(pipe(pipefd), 0);
	pid_t holder = fork();
	if (holder == 0) {
		int fd = devlock_acquire("/dev/null", false, NULL, err, sizeof(err));
		if (write(pipefd[1], fd >= 0 ? "y" : "n", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	char got;
	ck_assert_int_eq(read(pipefd[0], &got, 1), 1);
	ck_assert_int_eq(got, 'y');
	ck_assert_int_eq(status_of(try_in_child(false, holder, -1)), 2);
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	ck_assert_int_eq(status_of(try_in_child(false, 0, -1)), 0);
}
END_TEST

START_TEST(test_same_device_same_lock)
{
	char a[4200], b[4200];
	ck_assert_int_eq(devlock_path("/dev/null", a, sizeof(a), err, sizeof(err)), 0);
	ck_assert_int_eq(devlock_path("/dev/../dev/null", b, sizeof(b), err, sizeof(err)), 0);
	ck_assert_str_eq(a, b);
	ck_assert_msg(strstr(a, "char-1-3.lock"), "%s", a);
	ck_assert_int_eq(devlock_path("/nonexistent/video9", a, sizeof(a), err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "/nonexistent/video9"), "%s", err);
}
END_TEST

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	setenv("V4L2C_LOCK_DIR", dir, 1);
	Suite *s = suite_create("devlock");
	TCase *tc = tcase_create("lock");
	tcase_add_test(tc, test_second_run_refused_with_the_pid);
	tcase_add_test(tc, test_wait_gets_it_when_the_holder_ends);
	tcase_add_test(tc, test_killed_holder_frees_the_device);
	tcase_add_test(tc, test_same_device_same_lock);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd)) {
		/* a left-over temporary folder is harmless */
	}
	return rc;
}
