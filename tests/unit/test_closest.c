/* The closest valid value (lib/ctrl/closest.c, LC-6). */
#include "unit.h"
#include "ctrl/closest.h"

static struct v4l2_query_ext_ctrl q_of(int64_t min, int64_t max, uint64_t step)
{
	struct v4l2_query_ext_ctrl q = { .type = V4L2_CTRL_TYPE_INTEGER, .minimum = min, .maximum = max, .step = step };
	return q;
}

static void expect(int64_t min, int64_t max, uint64_t step, int64_t req, int64_t wa, int64_t wb)
{
	struct v4l2_query_ext_ctrl q = q_of(min, max, step);
	int64_t a, b;
	ctrl_closest_valid(&q, req, &a, &b);
	ck_assert_msg(a == wa && b == wb, "[%lld, %lld] step %llu, %lld: expected %lld/%lld, got %lld/%lld",
		      (long long)min, (long long)max, (unsigned long long)step, (long long)req, (long long)wa,
		      (long long)wb, (long long)a, (long long)b);
}

START_TEST(test_bounds)
{
	expect(0, 255, 1, 256, 255, 255);	/* above: the top, never the default */
	expect(0, 255, 1, -1, 0, 0);
	expect(-128, 127, 1, INT64_MIN, -128, -128);
	expect(0, 240, 8, 1000, 240, 240);
}
END_TEST

START_TEST(test_grid)
{
	expect(0, 240, 8, 11, 8, 8);		/* 3 above 8: down */
	expect(0, 240, 8, 13, 16, 16);		/* 3 below 16: up, not truncated */
	expect(0, 240, 8, 12, 8, 16);		/* halfway: either */
	expect(2800, 6500, 100, 2849, 2800, 2800);
	expect(0, 10, 4, 7, 8, 8);		/* grid 0 4 8, then the top 10 */
	expect(0, 10, 4, 9, 8, 10);		/* 8 and the top 10 are both 1 away */
	expect(0, 10, 4, 10, 10, 10);
	expect(1, 1000, 1, 500, 500, 500);	/* on the grid: itself */
}
END_TEST

/* Issue 21 item 4: a value the framework writes back never fails LC-6. */
START_TEST(test_taken)
{
	struct v4l2_query_ext_ctrl q = { .type = V4L2_CTRL_TYPE_INTEGER, .minimum = 0, .maximum = 255, .step = 4 };
	bool fw;
	ck_assert(ctrl_closest_taken(&q, 256, 252, &fw) && fw);	/* off-grid max: the grid value below */
	ck_assert(ctrl_closest_taken(&q, 256, 255, &fw) && !fw);	/* the maximum: closest */
	ck_assert(!ctrl_closest_taken(&q, 256, 0, &fw));
	ck_assert(ctrl_closest_taken(&q, 5, 4, &fw) && fw);
	ck_assert(!ctrl_closest_taken(&q, 5, 8, &fw));		/* 8 is not closest, nor the framework's */
	struct v4l2_query_ext_ctrl n = { .type = V4L2_CTRL_TYPE_INTEGER, .minimum = -100, .maximum = -10, .step = 4 };
	ck_assert(ctrl_closest_taken(&n, -9, -12, &fw) && fw);	/* negative, off-grid max */
	ck_assert(ctrl_closest_taken(&n, -9, -10, &fw) && !fw);
	ck_assert(!ctrl_closest_taken(&n, -9, -100, &fw));		/* never the opposite end */
	struct v4l2_query_ext_ctrl w = { .type = V4L2_CTRL_TYPE_INTEGER64, .minimum = -1000000000000LL,
					 .maximum = 1000000000000LL, .step = 3 };
	ck_assert(ctrl_closest_taken(&w, 1000000000001LL, 999999999998LL, &fw) && fw);
	ck_assert(ctrl_closest_taken(&w, 1000000000001LL, 1000000000000LL, &fw) && !fw);
	ck_assert(!ctrl_closest_taken(&w, 1000000000001LL, -1000000000000LL, &fw));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("closest");
	TCase *t = tcase_create("closest");
	tcase_add_test(t, test_bounds);
	tcase_add_test(t, test_grid);
	tcase_add_test(t, test_taken);
	suite_add_tcase(s, t);
	return unit_run(s);
}
