/* Host unit tests: a wedged device ends the run (lib/dev/wedge.c). The probe's
 * child is replaced by one that answers or one that never does. */
#include <check.h>
#include "unit.h"
#include <linux/videodev2.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dev/wedge.h"

static void never_answers(const char *device)
{
	(void)device;
	pause();
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void (*orig_probe)(const char *device);

START_TEST(test_probe_answers)
{
	char why[200] = "";
	/* /dev/null answers QUERYCAP with ENOTTY: an answer. */
	ck_assert_int_eq(wedge_probe("/dev/null", 5, why, sizeof(why)), 0);
}
END_TEST

START_TEST(test_probe_times_out)
{
	char why[200];
	wedge_probe_child = never_answers;
	double t0 = now_s();
	ck_assert_int_eq(wedge_probe("/dev/null", 0.3, why, sizeof(why)), 1);
	ck_assert(now_s() - t0 < 2);
	ck_assert_msg(strstr(why, "no answer"), "%s", why);
}
END_TEST

/* A check killed inside S_CTRL on a device that no longer answers: the next
 * check is skipped at once, and so is every later one. */
START_TEST(test_killed_inside_an_ioctl_then_wedged)
{
	char msg[800];
	wedge_init();
	wedge_probe_s = 0.3;
	ck_assert(!wedge_before_check("/dev/null", "getset/roundtrip/gain"));
	wedge_ioctl_begin(VIDIOC_S_CTRL);	/* and never returns */
	wedge_probe_child = never_answers;
	ck_assert(wedge_before_check("/dev/null", "getset/roundtrip/hue"));
	ck_assert_msg(strstr(wedge_reason(), "getset/roundtrip/gain ended inside VIDIOC_S_CTRL"), "%s",
		      wedge_reason());
	ck_assert(wedge_before_check("/dev/null", "getset/roundtrip/saturation"));
	ck_assert(wedge_detected(msg, sizeof(msg)));
}
END_TEST

START_TEST(test_timeout_outside_an_ioctl_or_device_answers)
{
	char msg[800];
	wedge_init();
	ck_assert(!wedge_before_check("/dev/null", "a"));
	ck_assert(!wedge_before_check("/dev/null", "b"));	/* died outside an ioctl: no probe */
	wedge_ioctl_begin(VIDIOC_G_CTRL);
	ck_assert(!wedge_before_check("/dev/null", "c"));	/* the device still answers */
	ck_assert(!wedge_detected(msg, sizeof(msg)));
}
END_TEST

/* The last check of the run is killed inside S_CTRL: no check comes after
 * it to ask, so the runner asks after the run, before it restores. */
START_TEST(test_last_check_wedges)
{
	char msg[800];
	wedge_init();
	wedge_probe_s = 0.3;
	ck_assert(!wedge_before_check("/dev/null", "getset/roundtrip/test-integer"));
	wedge_ioctl_begin(VIDIOC_S_CTRL);
	wedge_probe_child = never_answers;
	ck_assert(wedge_after_run("/dev/null", false));
	ck_assert(wedge_detected(msg, sizeof(msg)));
	ck_assert_msg(strstr(msg, "getset/roundtrip/test-integer ended inside VIDIOC_S_CTRL"), "%s", msg);
}
END_TEST

/* Negative cases: a last check that ended outside an ioctl, or a device that
 * still answers, is not a wedge; a process left asleep in the kernel makes
 * the runner ask even when no ioctl was in flight. */
START_TEST(test_after_run_answers_or_nothing_in_flight)
{
	char msg[800];
	wedge_init();
	wedge_probe_s = 0.3;
	ck_assert(!wedge_before_check("/dev/null", "a"));
	wedge_probe_child = never_answers;
	ck_assert(!wedge_after_run("/dev/null", false));	/* nothing in flight: no probe */
	wedge_probe_child = orig_probe;
	wedge_ioctl_begin(VIDIOC_G_CTRL);
	ck_assert(!wedge_after_run("/dev/null", true));	/* /dev/null answers */
	ck_assert(!wedge_detected(msg, sizeof(msg)));
	wedge_probe_child = never_answers;
	ck_assert(wedge_after_run("/dev/null", true));
	ck_assert(wedge_detected(msg, sizeof(msg)));
	ck_assert_msg(strstr(msg, "left asleep in the kernel after a"), "%s", msg);
}
END_TEST

int main(void)
{
	orig_probe = wedge_probe_child;
	Suite *s = suite_create("wedge");
	TCase *tc = tcase_create("probe");
	tcase_add_test(tc, test_probe_answers);
	tcase_add_test(tc, test_probe_times_out);
	tcase_add_test(tc, test_killed_inside_an_ioctl_then_wedged);
	tcase_add_test(tc, test_timeout_outside_an_ioctl_or_device_answers);
	tcase_add_test(tc, test_last_check_wedges);
	tcase_add_test(tc, test_after_run_answers_or_nothing_in_flight);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
