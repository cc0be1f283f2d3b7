/* Host unit tests: the restore journal's file (lib/run/journal.c): what a run
 * writes before its first change is read back exactly, and a damaged
 * journal is refused, never half-applied. */
#include <check.h>
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/journal.h"

static char err[512];

START_TEST(test_roundtrip)
{
	struct ctrl c[3];
	memset(c, 0, sizeof(c));
	c[0].q = (struct v4l2_query_ext_ctrl){ .id = 0x980900, .type = V4L2_CTRL_TYPE_INTEGER };
	c[1].q = (struct v4l2_query_ext_ctrl){ .id = 0x982902, .type = V4L2_CTRL_TYPE_INTEGER64 };
	c[2].q = (struct v4l2_query_ext_ctrl){ .id = 0x982903, .type = V4L2_CTRL_TYPE_STRING,
					      .flags = V4L2_CTRL_FLAG_HAS_PAYLOAD, .elem_size = 5, .elems = 1 };
	struct ctrl_model m = { .c = c, .n = 3 };
	char str[5] = "a\nb";	/* with the NUL and one byte after it */
	struct ctrl_val val[3] = { { .v = -7 }, { .v = -(1LL << 40) }, { .size = 5, .p = str } };
	bool saved[3] = { true, true, true };
	struct snapshot s = { .val = val, .saved = saved, .n = 3 };
	char path[] = "/tmp/journal-test-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(journal_write(path, "/dev/video0", &m, &s, NULL), 0);
	struct journal j;
	ck_assert_msg(journal_read(path, &j, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(j.device, "/dev/video0");
	ck_assert_int_eq(j.pid, getpid());
	ck_assert_uint_eq(j.n, 3);
	ck_assert_uint_eq(j.e[0].id, 0x980900);
	ck_assert_int_eq(j.e[0].val.v, -7);
	ck_assert_int_eq(j.e[1].val.v, -(1LL << 40));
	ck_assert_uint_eq(j.e[2].val.size, 5);
	ck_assert_mem_eq(j.e[2].val.p, "a\nb\0", 5);
	journal_free(&j);
	unlink(path);
}
END_TEST

static int parse(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct journal j;
	int rc = journal_parse(f, &j, err, sizeof(err));
	fclose(f);
	if (!rc)
		journal_free(&j);
	return rc;
}

START_TEST(test_damaged_journal_refused)
{
	ck_assert_int_eq(parse("v4l2-conform-journal 1\ndevice /dev/video0\nctrl 0x00980900 1 v 5\n"), 0);
	ck_assert_int_eq(parse(""), -1);
	ck_assert_int_eq(parse("v4l2-conform-journal 2\n"), -1);
	ck_assert_int_eq(parse("v4l2-conform-journal 1\nctrl 0x00980900 1 v 5x\n"), -1);
	ck_assert_int_eq(parse("v4l2-conform-journal 1\nctrl 0x00980900 1 v\n"), -1);
	ck_assert_int_eq(parse("v4l2-conform-journal 1\nctrl 0x00982903 7 p 2 61\n"), -1);	/* cut short */
	ck_assert_int_eq(parse("v4l2-conform-journal 1\nctrl 0x00982903 7 p 1 zz\n"), -1);
	ck_assert_int_eq(parse("v4l2-conform-journal 1\nctrl 0x00982903 7 q 1 00\n"), -1);
	ck_assert_msg(strstr(err, "line 2: not a v4l2-conform restore journal"), "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tcase_create("file");
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_damaged_journal_refused);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
