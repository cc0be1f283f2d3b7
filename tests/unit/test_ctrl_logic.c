/* Host unit tests of the pure control logic: the framework's value rules
 * (VA-1/3/5), validity, slugs, and the JSON writer's escaping. */
#include "ctrl/ctrl_manual.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "check/results.h"
#include <check.h>
#include "unit.h"
#include <stdlib.h>
#include <string.h>

static struct v4l2_query_ext_ctrl qint(int64_t min, int64_t max, uint64_t step)
{
	struct v4l2_query_ext_ctrl q = { .type = V4L2_CTRL_TYPE_INTEGER, .minimum = min, .maximum = max,
					 .step = step };
	return q;
}

START_TEST(clamp_and_round)
{
	struct v4l2_query_ext_ctrl q = qint(0, 240, 8);
	ck_assert_int_eq(ctrl_expected_scalar(&q, -5), 0);
	ck_assert_int_eq(ctrl_expected_scalar(&q, 1000), 240);
	ck_assert_int_eq(ctrl_expected_scalar(&q, 3), 0);	/* 3+4=7 -> 0 */
	ck_assert_int_eq(ctrl_expected_scalar(&q, 4), 8);	/* 4+4=8 -> 8 */
	ck_assert_int_eq(ctrl_expected_scalar(&q, 237), 240);	/* within step/2 of max */
	ck_assert_int_eq(ctrl_expected_scalar(&q, 235), 232);
	struct v4l2_query_ext_ctrl n = qint(-128, 128, 1);
	ck_assert_int_eq(ctrl_expected_scalar(&n, -129), -128);
	ck_assert_int_eq(ctrl_expected_scalar(&n, 7), 7);
	/* Grid anchored at min, not at 0. */
	struct v4l2_query_ext_ctrl o = qint(1, 21, 5);
	ck_assert_int_eq(ctrl_expected_scalar(&o, 8), 6);
	ck_assert_int_eq(ctrl_expected_scalar(&o, 9), 11);
}
END_TEST

START_TEST(int64_full_range)
{
	struct v4l2_query_ext_ctrl q = { .type = V4L2_CTRL_TYPE_INTEGER64, .minimum = INT64_MIN,
					 .maximum = INT64_MAX, .step = 1 };
	ck_assert(ctrl_expected_scalar(&q, INT64_MAX) == INT64_MAX);
	ck_assert(ctrl_expected_scalar(&q, INT64_MIN) == INT64_MIN);
	struct v4l2_query_ext_ctrl s = { .type = V4L2_CTRL_TYPE_INTEGER64, .minimum = -1000000000000LL,
					 .maximum = 1000000000000LL, .step = 1000 };
	ck_assert(ctrl_expected_scalar(&s, 1499) == 1000);
	ck_assert(ctrl_expected_scalar(&s, 1500) == 2000);
	ck_assert(ctrl_expected_scalar(&s, INT64_MAX) == 1000000000000LL);
}
END_TEST

START_TEST(boolean_bitmask_button)
{
	struct v4l2_query_ext_ctrl b = { .type = V4L2_CTRL_TYPE_BOOLEAN, .maximum = 1, .step = 1 };
	ck_assert_int_eq(ctrl_expected_scalar(&b, 2), 1);
	ck_assert_int_eq(ctrl_expected_scalar(&b, -1), 1);
	ck_assert_int_eq(ctrl_expected_scalar(&b, 0), 0);
	struct v4l2_query_ext_ctrl m = { .type = V4L2_CTRL_TYPE_BITMASK, .maximum = 0x80402010 };
	ck_assert_int_eq(ctrl_expected_scalar(&m, 0xffffffff), (int32_t)0x80402010);
	ck_assert_int_eq(ctrl_expected_scalar(&m, 0x10), 0x10);
	struct v4l2_query_ext_ctrl k = { .type = V4L2_CTRL_TYPE_BUTTON };
	ck_assert_int_eq(ctrl_expected_scalar(&k, 77), 0);
}
END_TEST

/* Who may change a control without a request: the device, for a control
 * it flags VOLATILE or INACTIVE (an auto mode drives it); any other flag
 * leaves a change to blame on the request (the atomicity checks' catch). */
START_TEST(self_moving_flags)
{
	ck_assert(ctrl_flags_self_moving(V4L2_CTRL_FLAG_VOLATILE));
	ck_assert(ctrl_flags_self_moving(V4L2_CTRL_FLAG_INACTIVE));
	ck_assert(ctrl_flags_self_moving(V4L2_CTRL_FLAG_INACTIVE | V4L2_CTRL_FLAG_SLIDER));
	ck_assert(!ctrl_flags_self_moving(0));
	ck_assert(!ctrl_flags_self_moving(V4L2_CTRL_FLAG_UPDATE | V4L2_CTRL_FLAG_SLIDER | V4L2_CTRL_FLAG_GRABBED |
					  V4L2_CTRL_FLAG_EXECUTE_ON_WRITE | V4L2_CTRL_FLAG_MODIFY_LAYOUT));
	ck_assert(!ctrl_flags_self_moving(V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY));
}
END_TEST

START_TEST(validity)
{
	struct menu_item items[4] = { { 1, 0, "a", 0 }, { 2, 22 /* EINVAL */, "", 0 }, { 3, 0, "c", 0 },
				      { 4, 0, "d", 0 } };
	struct ctrl menu = { .q = { .type = V4L2_CTRL_TYPE_MENU, .minimum = 1, .maximum = 4, .step = 1 },
			     .menu = items, .n_menu = 4 };
	ck_assert(ctrl_value_valid(&menu, 1));
	ck_assert(!ctrl_value_valid(&menu, 2));	/* skipped */
	ck_assert(!ctrl_value_valid(&menu, 0));
	ck_assert(!ctrl_value_valid(&menu, 5));
	ck_assert_int_eq(ctrl_menu_first_skipped(&menu), 2);
	int64_t other;
	ck_assert(ctrl_other_value(&menu, 1, &other));
	ck_assert_int_eq(other, 3);
	struct ctrl gain = { .q = qint(0, 240, 8) };
	ck_assert(ctrl_value_valid(&gain, 16));
	ck_assert(!ctrl_value_valid(&gain, 17));
	ck_assert(!ctrl_value_valid(&gain, 248));
	ck_assert(ctrl_other_value(&gain, 16, &other));
	ck_assert_int_eq(other, 240);
	ck_assert_int_eq(ctrl_middle_value(&gain), 120);
	struct ctrl one = { .q = qint(5, 5, 1) };
	ck_assert(!ctrl_other_value(&one, 5, &other));
}
END_TEST

START_TEST(slugs)
{
	char s[64];
	ctrl_slugify("Horizontal Flip", s, sizeof(s));
	ck_assert_str_eq(s, "horizontal-flip");
	ctrl_slugify("Integer 32 Bits", s, sizeof(s));
	ck_assert_str_eq(s, "integer-32-bits");
	ctrl_slugify("  Gain, Automatic  ", s, sizeof(s));
	ck_assert_str_eq(s, "gain-automatic");
	ctrl_slugify("", s, sizeof(s));
	ck_assert_str_eq(s, "unnamed");
	ctrl_slugify("S/PDIF (In)", s, 6);
	ck_assert_str_eq(s, "s-pdi");
}
END_TEST

START_TEST(json_escaping)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_str(f, "a\"b\\c\nd\x01\xff \xc2\xa7" "18 \xc2");
	fclose(f);
	ck_assert_str_eq(buf, "\"a\\\"b\\\\c\\nd\\u0001\\u00ff \xc2\xa7" "18 \\u00c2\"");
	free(buf);
}
END_TEST

/* The compound types are the uapi's (issue 25: vicodec's FWHT parameters,
 * type 0x220, were "not a known control type"). */
START_TEST(compound_types_from_uapi)
{
	ck_assert_str_eq(ctrl_type_name(V4L2_CTRL_TYPE_FWHT_PARAMS), "fwht-params");
	ck_assert_int_eq(V4L2_CTRL_TYPE_FWHT_PARAMS, 0x220);
	ck_assert_str_eq(ctrl_type_name(V4L2_CTRL_TYPE_MPEG2_SEQUENCE), "mpeg2-sequence");
	ck_assert_str_eq(ctrl_type_name(V4L2_CTRL_TYPE_HDR10_CLL_INFO), "hdr10-cll-info");
	ck_assert_str_eq(ctrl_type_name(V4L2_CTRL_TYPE_VP9_FRAME), "vp9-frame");
	ck_assert_str_eq(ctrl_type_name(0x282), "av1-frame");
	/* 7.3 (uapi_7_3.h): RECT 0x107 and the HEVC extended SPS RPS types. */
	ck_assert_str_eq(ctrl_type_name(0x0107), "rect");
	ck_assert_uint_eq(ctrl_type_struct_size(0x0107), 16);
	ck_assert_uint_eq(ctrl_type_struct_size(0x0275), 80);
	ck_assert_uint_eq(ctrl_type_struct_size(0x0276), 4);
	ck_assert(!ctrl_type_known(0x0108));
	/* QC-16 sizes: the uapi structures (x86-64 values of 6.1 and 6.12). */
	ck_assert_uint_eq(ctrl_type_struct_size(V4L2_CTRL_TYPE_FWHT_PARAMS), 40);
	ck_assert_uint_eq(ctrl_type_struct_size(V4L2_CTRL_TYPE_AREA), 8);
	ck_assert_uint_eq(ctrl_type_struct_size(V4L2_CTRL_TYPE_H264_SPS), sizeof(struct v4l2_ctrl_h264_sps));
	ck_assert_uint_eq(ctrl_type_struct_size(V4L2_CTRL_TYPE_INTEGER), 0);
	/* AV1 (6.5+): the 6.12 uapi sizes (uapi_av1.h; checked against the 6.12
	 * headers by harness/test_coverage.py). */
	ck_assert_uint_eq(ctrl_type_struct_size(0x282), 1784);
	ck_assert_uint_eq(ctrl_type_struct_size(0x280), 12);
}
END_TEST

/* The documented auto/manual pairs a refused inactive control is made
 * active through (ctrl_manual.h); a control no auto mode governs has none. */
START_TEST(manual_pairs)
{
	uint32_t a;
	int32_t m;
	ck_assert(ctrl_manual_of(V4L2_CID_EXPOSURE_ABSOLUTE, &a, &m));
	ck_assert_uint_eq(a, V4L2_CID_EXPOSURE_AUTO);
	ck_assert_int_eq(m, V4L2_EXPOSURE_MANUAL);
	ck_assert(ctrl_manual_of(V4L2_CID_WHITE_BALANCE_TEMPERATURE, &a, &m));
	ck_assert_uint_eq(a, V4L2_CID_AUTO_WHITE_BALANCE);
	ck_assert_int_eq(m, 0);
	ck_assert(ctrl_manual_of(V4L2_CID_GAIN, &a, &m) && a == V4L2_CID_AUTOGAIN && m == 0);
	ck_assert(ctrl_manual_of(V4L2_CID_FOCUS_ABSOLUTE, &a, &m) && a == V4L2_CID_FOCUS_AUTO && m == 0);
	ck_assert(ctrl_manual_of(V4L2_CID_HUE, &a, &m) && a == V4L2_CID_HUE_AUTO && m == 0);
	/* negative: no auto control governs brightness, nor an auto control itself */
	ck_assert(!ctrl_manual_of(V4L2_CID_BRIGHTNESS, &a, &m));
	ck_assert(!ctrl_manual_of(V4L2_CID_EXPOSURE_AUTO, &a, &m));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ctrl-logic");
	TCase *tc = tcase_create("pure");
	tcase_add_test(tc, clamp_and_round);
	tcase_add_test(tc, int64_full_range);
	tcase_add_test(tc, boolean_bitmask_button);
	tcase_add_test(tc, self_moving_flags);
	tcase_add_test(tc, validity);
	tcase_add_test(tc, slugs);
	tcase_add_test(tc, json_escaping);
	tcase_add_test(tc, compound_types_from_uapi);
	tcase_add_test(tc, manual_pairs);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
