/* MIN/MAX judgements and the kernel series (lib/ctrl/minmax.c, kseries.c):
 * the negative cases of the minmax checks that need no device. */
#include "unit.h"
#include "ctrl/kseries.h"
#include "ctrl/minmax.h"
#include <stdlib.h>
#include <string.h>

START_TEST(test_series)
{
	ck_assert_int_eq(kseries_parse("7.3.4+deb13-amd64"), KSERIES(7, 3));
	ck_assert_int_eq(kseries_parse("6.1.0-57-amd64"), KSERIES(6, 1));
	ck_assert_int_eq(kseries_parse("6.12.118+deb12-amd64"), KSERIES(6, 12));
	ck_assert_int_eq(kseries_parse("6.15"), KSERIES(6, 15));
	ck_assert_int_eq(kseries_parse("garbage"), 0);
	ck_assert_int_eq(kseries_parse("7"), 0);
	ck_assert_int_eq(kseries_parse("7.x"), 0);
	/* 6.12 < 6.15 <= 7.3: numeric, not textual, order */
	ck_assert(kseries_parse("6.12.1") < KSERIES_MINMAX);
	ck_assert(kseries_parse("6.15.0") >= KSERIES_MINMAX);
	ck_assert(kseries_parse("7.3.4") >= KSERIES_MINMAX);
	ck_assert_str_eq(kseries_str(KSERIES(7, 3)), "7.3");
}
END_TEST

START_TEST(test_numeric_types)
{
	ck_assert(minmax_numeric(V4L2_CTRL_TYPE_INTEGER));
	ck_assert(minmax_numeric(V4L2_CTRL_TYPE_INTEGER64));
	ck_assert(minmax_numeric(V4L2_CTRL_TYPE_BITMASK));
	ck_assert(minmax_numeric(V4L2_CTRL_TYPE_U16));
	ck_assert(!minmax_numeric(V4L2_CTRL_TYPE_STRING));
	ck_assert(!minmax_numeric(V4L2_CTRL_TYPE_BUTTON));
	ck_assert(!minmax_numeric(V4L2_CTRL_TYPE_CTRL_CLASS));
	ck_assert(!minmax_numeric(V4L2_CTRL_TYPE_AREA));
	ck_assert(!minmax_numeric(V4L2_CTRL_TYPE_RECT));
}
END_TEST

START_TEST(test_array_equal)
{
	struct ctrl c;
	memset(&c, 0, sizeof(c));
	c.q.type = V4L2_CTRL_TYPE_U16;
	c.q.elem_size = 2;
	c.q.elems = 4;
	c.q.flags = V4L2_CTRL_FLAG_HAS_PAYLOAD;
	uint16_t buf[4] = { 1000, 1000, 1000, 1000 };
	struct ctrl_val v = { .size = sizeof(buf), .p = buf };
	uint32_t bad = 99;
	int64_t badv = 0;
	ck_assert(minmax_all_equal(&c, &v, 1000, &bad, &badv));
	buf[2] = 999;		/* one element off: found, with its index */
	ck_assert(!minmax_all_equal(&c, &v, 1000, &bad, &badv));
	ck_assert_uint_eq(bad, 2);
	ck_assert_int_eq(badv, 999);

	struct ctrl s;
	memset(&s, 0, sizeof(s));
	s.q.type = V4L2_CTRL_TYPE_BITMASK;
	s.q.elem_size = 4;
	s.q.elems = 1;
	struct ctrl_val m = { .v = (int32_t)0xf0ffu };	/* sign-extended as read */
	ck_assert(minmax_all_equal(&s, &m, 0xf0ff, &bad, &badv));
	ck_assert(minmax_all_equal(&s, &m, (int32_t)0xf0ffu, &bad, &badv));
}
END_TEST

START_TEST(test_between)
{
	ck_assert(minmax_elem_between(V4L2_CTRL_TYPE_INTEGER, 0, 255, 128));
	ck_assert(minmax_elem_between(V4L2_CTRL_TYPE_INTEGER, 0, 255, 255));
	ck_assert(!minmax_elem_between(V4L2_CTRL_TYPE_INTEGER, 0, 255, 256));
	ck_assert(!minmax_elem_between(V4L2_CTRL_TYPE_INTEGER, -128, 127, -129));
	ck_assert(minmax_elem_between(V4L2_CTRL_TYPE_INTEGER64, -(1LL << 40), (1LL << 40) - 1, -(1LL << 40)));
	/* A bitmask: within the maximum's bits, not below it numerically. */
	ck_assert(minmax_elem_between(V4L2_CTRL_TYPE_BITMASK, 0, 0xf0ff, 0x5));
	ck_assert(!minmax_elem_between(V4L2_CTRL_TYPE_BITMASK, 0, 0xf0ff, 0x100));
}
END_TEST

START_TEST(test_rect)
{
	struct v4l2_rect lo = { 0, 0, 1, 1 }, hi = { 0, 0, 1000, 2000 }, cur = { 200, 100, 300, 400 };
	char why[160];
	ck_assert(minmax_rect_between(&lo, &hi, &cur, why, sizeof(why)));	/* vivid's default */
	cur.height = 2001;
	ck_assert(!minmax_rect_between(&lo, &hi, &cur, why, sizeof(why)));
	ck_assert(strstr(why, "300x2001") != NULL);
	cur.height = 400;
	cur.width = 0;
	ck_assert(!minmax_rect_between(&lo, &hi, &cur, why, sizeof(why)));
	struct v4l2_rect big = { 0, 0, 2000, 1 };	/* minimum above maximum */
	ck_assert(!minmax_rect_between(&big, &hi, &cur, why, sizeof(why)));
	ck_assert(minmax_rect_documented(0x00981ae1));	/* V4L2_CID_UVC_REGION_OF_INTEREST_RECT */
	ck_assert(!minmax_rect_documented(0x00f01000));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("minmax");
	TCase *t = tcase_create("minmax");
	tcase_add_test(t, test_series);
	tcase_add_test(t, test_numeric_types);
	tcase_add_test(t, test_array_equal);
	tcase_add_test(t, test_between);
	tcase_add_test(t, test_rect);
	suite_add_tcase(s, t);
	return unit_run(s);
}
