/* The rule book's decisions (lib/ctrl/rulebook.c, issue 33): which series
 * judges a kernel, and known / may-have / cannot-have / newer / unknown for
 * the constants, on fake kernel releases. */
#include "unit.h"
#include "ctrl/rulebook.h"
#include "ctrl/uapi_7_3.h"
#include <string.h>

static const struct { const char *release; rb_ver ver, book; } series[] = {
	{ "6.1.0-57-amd64", RB_VER(6, 1), RB_VER(6, 1) },
	{ "6.12.118+deb12-amd64", RB_VER(6, 12), RB_VER(6, 12) },
	{ "6.15.2", RB_VER(6, 15), RB_VER(6, 12) },	/* between books: the older one */
	{ "7.2.12+deb13-amd64", RB_VER(7, 2), RB_VER(6, 12) },
	{ "7.3.4+deb13-amd64", RB_VER(7, 3), RB_VER(7, 3) },
	{ "7.4.1", RB_VER(7, 4), RB_VER(7, 3) },
	{ "8.0", RB_VER(8, 0), RB_VER(7, 3) },
	{ "5.10.0-30-amd64", RB_VER(5, 10), RB_VER(6, 1) },	/* older than every book: the oldest */
	{ "linux", 0, RB_VER(7, 3) },			/* unparsable: the newest */
	{ "", 0, RB_VER(7, 3) },
	{ "7", 0, RB_VER(7, 3) },
};

START_TEST(series_decision)
{
	struct rb_kernel k;
	rb_kernel_from_release(&k, series[_i].release);
	ck_assert_msg(k.ver == series[_i].ver && k.book == series[_i].book, "%s: expected %u / book %u, got %u / %u",
		      series[_i].release, series[_i].ver, series[_i].book, k.ver, k.book);
}
END_TEST

static const struct { const char *release; enum rb_kind kind; uint32_t value; enum rb_verdict want; } judged[] = {
	/* HAS_WHICH_MIN_MAX, MIN/MAX_VAL and RECT: 6.15 */
	{ "6.1.0-57-amd64", RB_FLAG, V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX, RB_CANNOT },
	{ "6.12.118+deb12-amd64", RB_FLAG, V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX, RB_CANNOT },
	{ "6.14.1", RB_FLAG, 0x1000, RB_CANNOT },
	{ "6.15.0", RB_FLAG, 0x1000, RB_KNOWN },
	{ "7.3.4+deb13-amd64", RB_FLAG, 0x1000, RB_KNOWN },
	{ "8.0", RB_FLAG, 0x1000, RB_KNOWN },
	{ "6.12.118+deb12-amd64", RB_TYPE, V4L2C_CTRL_TYPE_RECT, RB_CANNOT },
	{ "7.3.4+deb13-amd64", RB_TYPE, V4L2C_CTRL_TYPE_RECT, RB_KNOWN },
	{ "6.1.0-57-amd64", RB_WHICH, V4L2_CTRL_WHICH_MIN_VAL, RB_CANNOT },
	{ "7.3.4+deb13-amd64", RB_WHICH, V4L2_CTRL_WHICH_MAX_VAL, RB_KNOWN },
	/* HEVC_EXT_SPS_*: after 6.12, at or before 7.3 */
	{ "6.12.118+deb12-amd64", RB_TYPE, V4L2C_CTRL_TYPE_HEVC_EXT_SPS_ST_RPS, RB_CANNOT },
	{ "6.13.0", RB_TYPE, V4L2C_CTRL_TYPE_HEVC_EXT_SPS_ST_RPS, RB_MAY },
	{ "7.2.12+deb13-amd64", RB_TYPE, V4L2C_CTRL_TYPE_HEVC_EXT_SPS_LT_RPS, RB_MAY },
	{ "7.3.4+deb13-amd64", RB_TYPE, V4L2C_CTRL_TYPE_HEVC_EXT_SPS_LT_RPS, RB_KNOWN },
	/* AV1: 6.5 */
	{ "6.1.0-57-amd64", RB_TYPE, 0x282, RB_CANNOT },
	{ "6.12.118+deb12-amd64", RB_TYPE, 0x282, RB_KNOWN },
	/* in every book */
	{ "6.1.0-57-amd64", RB_FLAG, 0x0800, RB_KNOWN },
	{ "5.10.0-30-amd64", RB_FLAG, 0x0001, RB_MAY },	/* older than every book: may */
	{ "6.1.0-57-amd64", RB_EVENT_CH, 0x8, RB_KNOWN },
	/* in no book: a failure on a covered kernel, a warning past the newest */
	{ "6.1.0-57-amd64", RB_FLAG, 0x80000, RB_UNKNOWN },
	{ "6.12.118+deb12-amd64", RB_FLAG, 0x2000, RB_UNKNOWN },
	{ "7.3.4+deb13-amd64", RB_FLAG, 0x2000, RB_UNKNOWN },
	{ "7.3.99", RB_TYPE, 0x0108, RB_UNKNOWN },
	{ "7.4.1", RB_FLAG, 0x2000, RB_NEWER },
	{ "7.4.1", RB_TYPE, 0x0108, RB_NEWER },
	{ "8.0", RB_EVENT_CH, 0x10, RB_NEWER },
	{ "8.0", RB_WHICH, 0x0f040000, RB_NEWER },
	{ "linux", RB_FLAG, 0x2000, RB_UNKNOWN },
	/* the id flags are not control flags */
	{ "7.4.1", RB_FLAG, 0x80000000u, RB_NEWER },
	{ "6.1.0-57-amd64", RB_FLAG, 0x80000000u, RB_UNKNOWN },
};

START_TEST(judge)
{
	struct rb_kernel k;
	char why[300];
	rb_kernel_from_release(&k, judged[_i].release);
	enum rb_verdict v = rb_judge(&k, judged[_i].kind, judged[_i].value, NULL);
	ck_assert_msg(v == judged[_i].want, "%s %s 0x%x: expected verdict %d, got %d (%s)", judged[_i].release,
		      rb_kind_name(judged[_i].kind), judged[_i].value, judged[_i].want, v,
		      rb_why(&k, judged[_i].kind, judged[_i].value, why, sizeof(why)));
	ck_assert(rb_fails(v) == (v == RB_CANNOT || v == RB_UNKNOWN));
}
END_TEST

START_TEST(messages)
{
	struct rb_kernel k;
	char b[300];
	rb_kernel_from_release(&k, "6.1.0-57-amd64");
	rb_why(&k, RB_FLAG, 0x1000, b, sizeof(b));
	ck_assert_msg(strstr(b, "V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX") && strstr(b, "since 6.15") &&
		      strstr(b, "6.1.0-57-amd64") && strstr(b, "rule book 6.1") && strstr(b, "FL-13"), "%s", b);
	rb_why(&k, RB_TYPE, V4L2C_CTRL_TYPE_HEVC_EXT_SPS_ST_RPS, b, sizeof(b));
	ck_assert_msg(strstr(b, "after 6.12") && strstr(b, "at or before 7.3"), "%s", b);
	rb_kernel_from_release(&k, "7.4.1");
	rb_why(&k, RB_FLAG, 0x2000, b, sizeof(b));
	ck_assert_msg(strstr(b, "newer than this suite's rule book (covers up to 7.3"), "%s", b);
	rb_kernel_from_release(&k, "7.3.4+deb13-amd64");
	ck_assert_str_eq(rb_banner(&k, b, sizeof(b)), "rule book: 7.3 (kernel 7.3.4+deb13-amd64)");
}
END_TEST

/* Every constant has a rule and an interval that makes sense; the values
 * are distinct per kind. */
START_TEST(table)
{
	size_t n = 0;
	for (const struct rb_const *c; (c = rb_const_at(n)); n++) {
		ck_assert_msg(c->name && c->rule && c->first <= c->sure, "%s", c->name);
		ck_assert_msg(rb_find(c->kind, c->value) == c, "%s: value 0x%x twice", c->name, c->value);
	}
	ck_assert_uint_ge(n, 60);
	ck_assert_uint_eq(rb_newest(), RB_VER(7, 3));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rulebook");
	TCase *tc = tcase_create("pure");
	tcase_add_loop_test(tc, series_decision, 0, (int)(sizeof(series) / sizeof(series[0])));
	tcase_add_loop_test(tc, judge, 0, (int)(sizeof(judged) / sizeof(judged[0])));
	tcase_add_test(tc, messages);
	tcase_add_test(tc, table);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
