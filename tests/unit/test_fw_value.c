/* Host unit tests of lib/ctrl/fw_value.c: the framework's value rules on tables
 * worked out from std_validate_elem() and ROUND_TO_RANGE in
 * drivers/media/v4l2-core/v4l2-ctrls-core.c (identical in 6.1.192 and
 * 6.12.118), and what the documentation allows beside them (fw_allowed). */
#include "ctrl/fw_value.h"
#include <check.h>
#include "unit.h"
#include <errno.h>

#define INT V4L2_CTRL_TYPE_INTEGER
#define I64 V4L2_CTRL_TYPE_INTEGER64
#define U8 V4L2_CTRL_TYPE_U8
#define U16 V4L2_CTRL_TYPE_U16
#define U32 V4L2_CTRL_TYPE_U32
#define BOOL V4L2_CTRL_TYPE_BOOLEAN
#define MASK V4L2_CTRL_TYPE_BITMASK

struct row {
	uint32_t type;
	int64_t min, max;
	uint64_t step;
	int64_t in, out;
	const char *why;
};

static const struct row rows[] = {
	/* (max - min) not a multiple of step: the maximum is stored as the
	 * grid value below it (issue 17 (b)); so is anything above it. */
	{ INT, 0, 100, 3, 100, 99, "off-grid max -> grid value below" },
	{ INT, 0, 100, 3, 101, 99, "above max -> max -> grid" },
	{ INT, 0, 100, 3, 98, 99, "within step/2 of max: to the top, then grid" },
	{ INT, 0, 100, 3, 97, 96, "+step/2, floor onto the grid" },
	{ INT, 0, 100, 3, 1, 0, "1+1 = 2 -> 0" },
	{ INT, 0, 100, 3, 2, 3, "2+1 = 3 -> 3" },
	{ INT, 0, 100, 3, -5, 0, "below min -> min" },
	/* issue 21: the off-grid maximum of a 0..255 step 4 control */
	{ INT, 0, 255, 4, 256, 252, "256 -> max 255 -> grid 252" },
	{ INT, 0, 255, 4, 255, 252, "the off-grid max itself -> 252" },
	{ INT, 0, 255, 4, 253, 252, "within step/2 of max -> 252" },
	{ INT, 0, 255, 4, 250, 252, "250+2 = 252" },
	{ INT, -255, 0, 4, -254, -255, "negative range counted from min: -254+2 = -252, offset 3 -> -255" },
	{ INT, -255, 0, 4, -253, -251, "-253+2 = -251, offset 4 -> -251" },
	{ I64, -1000000000002LL, -1LL, 4, 0, -2, "negative s64 range, off-grid max: 0 -> -1 -> grid -2" },
	/* the grid is counted from min, not from 0 */
	{ INT, -10, 10, 4, 10, 10, "max on the grid" },
	{ INT, -10, 10, 4, 7, 6, "7 >= 10-2: max" },
	{ INT, -10, 10, 4, -9, -10, "-9+2 = -7 -> -10" },
	{ INT, -10, 10, 4, -8, -6, "-8+2 = -6" },
	/* negative max: no 'to the top' branch; adding step/2 wraps in s32 */
	{ INT, -100, -10, 4, -9, -12, "max+1 -> -10 clamped -> grid below (-12)" },
	{ INT, -100, -10, 4, INT32_MAX, -100, "INT32_MAX + 2 wraps negative: clamped to the MINIMUM" },
	{ INT, -100, -10, 1, INT32_MAX, -10, "step 1: no wrap, clamped to max" },
	{ INT, INT32_MIN, INT32_MAX, 1, INT32_MIN, INT32_MIN, "full s32 range" },
	{ INT, 0, INT32_MAX, 2, 2147483645, 2147483646, "top of s32" },
	{ INT, 0, 255, 1, 4294967301LL, 5, "the request is an s32: cut to 5" },
	/* U8/U16/U32 elements: value and offset in the element's width */
	{ U8, 0, 255, 1, 300, 44, "a byte: 300 is 44" },
	{ U8, 10, 200, 100, 255, 110, "255 -> max 200 -> grid 110" },
	{ U8, 10, 200, 100, 59, 10, "59+50 = 109 -> 10" },
	{ U8, 10, 200, 100, 60, 110, "60+50 = 110" },
	{ U8, 10, 200, 100, 5, 10, "below min" },
	{ U8, 10, 200, 100, 150, 110, "within step/2 of max: max, then grid" },
	{ U16, 0, 1000, 7, 1000, 994, "off-grid max" },
	{ U16, 0, 1000, 7, 65535, 994, "u16 top" },
	{ U16, 0, 1000, 7, 3, 0, "3+3 = 6 -> 0" },
	{ U16, 0, 1000, 7, 4, 7, "4+3 = 7" },
	{ U32, 0, 4294967295LL, 1, -1, 4294967295LL, "full u32: -1 is 0xffffffff" },
	{ U32, 16, 4096, 16, 4095, 4096, "within step/2 of max" },
	{ U32, 16, 4096, 16, 23, 16, "23+8 = 31 -> 16" },
	{ U32, 16, 4096, 16, 24, 32, "24+8 = 32" },
	/* INTEGER64: the same steps in s64, do_div by the low 32 bits of step */
	{ I64, INT64_MIN, INT64_MAX, 1, INT64_MAX, INT64_MAX, "full s64" },
	{ I64, -1000000000000LL, 1000000000000LL, 3, 1000000000000LL, 999999999998LL, "off-grid max" },
	{ I64, -10, 10, 1, -11, -10, "below min" },
	{ I64, -10, -2, 4, INT64_MAX, -10, "INT64_MAX + 2 wraps: clamped to the minimum" },
	{ I64, 0, 10, 4, 10, 8, "off-grid max" },
	{ I64, 0, 10, 4, 7, 8, "within step/2 of max: max, then grid" },
	/* BOOLEAN !!v, BITMASK v & max, BUTTON/CTRL_CLASS 0 */
	{ BOOL, 0, 1, 1, 2, 1, "!!2" },
	{ BOOL, 0, 1, 1, -1, 1, "!!-1 (clamping would give 0)" },
	{ BOOL, 0, 1, 1, 0, 0, "0" },
	{ MASK, 0, 0x80402010, 0, 0xffffffff, (int32_t)0x80402010, "masked, an s32" },
	{ MASK, 0, 0x80402010, 0, 0x2010, 0x2010, "inside the mask" },
	{ V4L2_CTRL_TYPE_BUTTON, 0, 0, 0, 5, 0, "value forced to 0" },
	{ V4L2_CTRL_TYPE_CTRL_CLASS, 0, 0, 0, 5, 0, "value forced to 0" },
};

static struct v4l2_query_ext_ctrl qr(uint32_t type, int64_t min, int64_t max, uint64_t step)
{
	struct v4l2_query_ext_ctrl q = { .type = type, .minimum = min, .maximum = max, .step = step };
	return q;
}

START_TEST(framework_table)
{
	const struct row *r = &rows[_i];
	struct v4l2_query_ext_ctrl q = qr(r->type, r->min, r->max, r->step);
	int64_t out = 12345;
	ck_assert_int_eq(fw_validate(&q, NULL, 0, r->in, &out), 0);
	ck_assert_msg(out == r->out, "type %u %lld..%lld step %llu, %lld: expected %lld (%s), got %lld", r->type,
		      (long long)r->min, (long long)r->max, (unsigned long long)r->step, (long long)r->in,
		      (long long)r->out, r->why, (long long)out);
}
END_TEST

/* Menus: ERANGE outside [min, max], EINVAL for an item QUERYMENU refuses
 * (skip mask or empty name), else stored as is. vivid's Menu: 1..4, item 2
 * masked. */
START_TEST(menus)
{
	struct v4l2_query_ext_ctrl q = qr(V4L2_CTRL_TYPE_MENU, 1, 4, 1);
	struct menu_item m[4] = { { .index = 1 }, { .index = 2, .err = EINVAL }, { .index = 3 }, { .index = 4 } };
	int64_t out = 0;
	ck_assert_int_eq(fw_validate(&q, m, 4, 0, &out), -ERANGE);
	ck_assert_int_eq(fw_validate(&q, m, 4, 5, &out), -ERANGE);
	ck_assert_int_eq(fw_validate(&q, m, 4, 2, &out), -EINVAL);
	ck_assert_int_eq(fw_validate(&q, m, 4, 3, &out), 0);
	ck_assert_int_eq(out, 3);
	/* The request is an s32: 2^32 + 3 is item 3. */
	ck_assert_int_eq(fw_validate(&q, m, 4, 4294967299LL, &out), 0);
	ck_assert_int_eq(out, 3);
	struct v4l2_query_ext_ctrl iq = qr(V4L2_CTRL_TYPE_INTEGER_MENU, 0, 2, 1);
	ck_assert_int_eq(fw_validate(&iq, NULL, 0, 2, &out), 0);
	ck_assert_int_eq(fw_validate(&iq, NULL, 0, -1, &out), -ERANGE);
}
END_TEST

/* The documentation's "closest valid value": both readings of an off-grid
 * maximum pass, the framework's one says so; the opposite end never. */
START_TEST(allowed_off_grid_max)
{
	struct v4l2_query_ext_ctrl q = qr(INT, 0, 100, 3);
	bool fw;
	ck_assert(fw_max_off_grid(&q));
	ck_assert(fw_allowed(&q, 100, 99, &fw) && fw);
	ck_assert(fw_allowed(&q, 100, 100, &fw) && !fw);	/* kept the maximum: allowed, warn */
	ck_assert(!fw_allowed(&q, 100, 96, &fw));		/* not the closest */
	ck_assert(fw_allowed(&q, 1000, 100, &fw) && !fw);
	ck_assert(fw_allowed(&q, 1000, 99, &fw) && fw);
	ck_assert(!fw_allowed(&q, 1000, 0, &fw));		/* above max never becomes min (SC-6) */
	ck_assert(!fw_allowed(&q, -5, 99, &fw));		/* below min never becomes max (SC-6) */
	ck_assert(fw_allowed(&q, -5, 0, &fw) && fw);
	ck_assert(fw_allowed(&q, 99, 99, &fw) && fw);
	ck_assert(!fw_allowed(&q, 99, 100, &fw));		/* a valid request is stored as is */
	/* off the grid inside the range: either neighbour */
	ck_assert(fw_allowed(&q, 97, 96, &fw) && fw);
	ck_assert(fw_allowed(&q, 97, 99, &fw) && !fw);
	ck_assert(!fw_allowed(&q, 97, 97, &fw));		/* stored off the grid (SC-7) */
	ck_assert(fw_allowed(&q, 100, 99, &fw));
	/* between the last grid value and an off-grid max: max too */
	ck_assert(fw_allowed(&q, 100, 100, &fw));
	struct v4l2_query_ext_ctrl g = qr(INT, 0, 99, 3);
	ck_assert(!fw_max_off_grid(&g));
	ck_assert(!fw_allowed(&g, 99, 96, &fw));
	ck_assert_int_eq(fw_grid_below(&q, 100), 99);
	struct v4l2_query_ext_ctrl n = qr(INT, -10, 10, 4);
	ck_assert_int_eq(fw_grid_below(&n, -7), -10);
}
END_TEST

START_TEST(allowed_other_types)
{
	bool fw;
	struct v4l2_query_ext_ctrl b = qr(BOOL, 0, 1, 1);
	ck_assert(fw_allowed(&b, 2, 1, &fw) && fw);
	ck_assert(fw_allowed(&b, -1, 1, &fw) && fw);
	ck_assert(fw_allowed(&b, -1, 0, &fw) && !fw);	/* clamped to [0, 1]: SC-11 allows it, warn */
	ck_assert(!fw_allowed(&b, 2, 0, &fw));
	struct v4l2_query_ext_ctrl m = qr(MASK, 0, 0xf0, 0);
	ck_assert(fw_allowed(&m, 0xff, 0xf0, &fw) && fw);
	ck_assert(!fw_allowed(&m, 0xff, 0xff, &fw));
	struct v4l2_query_ext_ctrl i = qr(I64, 0, 10, 4);
	ck_assert(fw_allowed(&i, 10, 8, &fw) && fw);
	ck_assert(fw_allowed(&i, 10, 10, &fw) && !fw);
	struct v4l2_query_ext_ctrl g4 = qr(INT, 0, 255, 4);	/* issue 21: 256 -> 252 is VA-1's answer */
	ck_assert(fw_allowed(&g4, 256, 252, &fw) && fw);
	ck_assert(fw_allowed(&g4, 256, 255, &fw) && !fw);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fw-value");
	TCase *tc = tcase_create("pure");
	tcase_add_loop_test(tc, framework_table, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	tcase_add_test(tc, menus);
	tcase_add_test(tc, allowed_off_grid_max);
	tcase_add_test(tc, allowed_other_types);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
