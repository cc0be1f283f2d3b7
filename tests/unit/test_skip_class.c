/* Skips by reason class (lib/check/skip_class.c, issue 21 item 2): the
 * reasons the suite's checks give, each in its class. */
#include "unit.h"
#include "check/skip_class.h"

static const struct { const char *reason; enum skip_class c; } rows[] = {
	{ "excluded: never written (--exclude-control)", SKIP_EXCLUDED },
	{ "not applicable: the board profile lists it as 'no visible effect'", SKIP_PROFILE },
	{ "skipped: the effect of this control depends on the scene the source delivers (gain, ...); a board profile "
	  "can require it ('require-effect = NAME')", SKIP_SOURCE },
	{ "capture YUYV 320x180, mmap x3; informational: no visible effect of Show Border = 1 in the region",
	  SKIP_INFO },
	{ "inconclusive: the region is clipped over the whole sweep of Brightness (6 steps excused)",
	  SKIP_INCONCLUSIVE },
	{ "capture YUYV 320x180, mmap x3; inconclusive: the region is flat", SKIP_INCONCLUSIVE },
	{ "QUERYCTRL of brightness hangs (timed out twice): not asked again", SKIP_HANG },
	{ "the range covers all of s32: no out-of-range value is representable through S_CTRL", SKIP_DEVICE },
	{ "volatile: the value read back is the hardware's, not the one set", SKIP_DEVICE },
	{ "the node has no input (ENUMINPUT/G_INPUT)", SKIP_DEVICE },
	{ "", SKIP_DEVICE },
};

START_TEST(classes)
{
	ck_assert_msg(skip_class_of(rows[_i].reason) == rows[_i].c, "'%s': expected %s, got %s", rows[_i].reason,
		      skip_class_name(rows[_i].c), skip_class_name(skip_class_of(rows[_i].reason)));
}
END_TEST

START_TEST(names)
{
	ck_assert_int_eq(skip_class_of(NULL), SKIP_DEVICE);
	ck_assert_str_eq(skip_class_name(SKIP_INCONCLUSIVE), "inconclusive");
	ck_assert_str_eq(skip_class_name(SKIP_SOURCE), "source-dependent");
	ck_assert_str_eq(skip_class_name(SKIP_CLASSES), "device");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("skip-class");
	TCase *tc = tcase_create("pure");
	tcase_add_loop_test(tc, classes, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	tcase_add_test(tc, names);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
