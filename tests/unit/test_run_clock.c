/* Host unit tests: the runner's timeout clock (lib/run/run_clock.c) does not
 * count the time a starved guest was not run, counts everything a sleeping
 * driver's hang takes, and stays bounded. */
#include <check.h>
#include "unit.h"
#include "run/run_clock.h"

START_TEST(test_slices_on_time_count_in_full)
{
	struct run_clock c;
	run_clock_start(&c, 30);
	for (int i = 0; i < 100; i++)
		run_clock_account(&c, 0.2, 0.2 + RUN_CLOCK_SLACK_S / 2);
	ck_assert(c.stolen == 0);	/* a driver asleep for good: its hang takes the whole timeout */
}
END_TEST

START_TEST(test_a_late_slice_is_not_counted)
{
	struct run_clock c;
	run_clock_start(&c, 30);
	run_clock_account(&c, 0.2, 1.2);	/* the guest was not run for about a second */
	ck_assert(c.stolen > 0.9 && c.stolen < 1.0);
	double before = run_clock_now(&c);
	struct run_clock fresh;
	run_clock_start(&fresh, 30);
	ck_assert(run_clock_now(&fresh) - before > 0.9);	/* the counted clock is behind by it */
}
END_TEST

START_TEST(test_the_discount_is_capped)
{
	struct run_clock c;
	run_clock_start(&c, 2);
	for (int i = 0; i < 10; i++)
		run_clock_account(&c, 0.2, 1.2);
	struct run_clock fresh;
	run_clock_start(&fresh, 0);
	double behind = run_clock_now(&fresh) - run_clock_now(&c);
	ck_assert(behind > 1.99 && behind < 2.01);	/* never more than the cap: every wait ends */
}
END_TEST

START_TEST(test_poll_waits_one_slice_at_most)
{
	struct run_clock c;
	run_clock_start(&c, 30);
	struct pollfd pf = { .fd = -1, .events = POLLIN };	/* ignored by poll: a pure wait */
	double t0 = run_clock_now(&c);
	ck_assert_int_eq(run_clock_poll(&c, &pf, t0 + 10), 0);
	double took = run_clock_now(&c) - t0;
	ck_assert(took < RUN_CLOCK_SLICE_S + 0.5);
	ck_assert_int_eq(run_clock_poll(&c, &pf, t0 - 1), 0);	/* past the deadline: no wait */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("run_clock");
	TCase *tc = tcase_create("run_clock");
	tcase_add_test(tc, test_slices_on_time_count_in_full);
	tcase_add_test(tc, test_a_late_slice_is_not_counted);
	tcase_add_test(tc, test_the_discount_is_capped);
	tcase_add_test(tc, test_poll_waits_one_slice_at_most);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
