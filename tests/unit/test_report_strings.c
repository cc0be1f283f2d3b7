/* Host unit tests: hostile driver strings in results.json (lib/check/results.c):
 * control and menu names are 32 raw bytes that may hold control characters
 * or bytes that are not UTF-8; the file must parse whatever they are, and
 * artifact file names made from check names never leave their folder. */
#include <check.h>
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/results.h"

static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_str(f, s);
	fclose(f);
	return buf;
}

#define ck_json(in, want) do { char *_j = json_of(in); ck_assert_str_eq(_j, want); free(_j); } while (0)

START_TEST(test_control_characters_escaped)
{
	ck_json("a\x01\x1b[31m\x7f\t\n\"\\", "\"a\\u0001\\u001b[31m\\u007f\\t\\n\\\"\\\\\"");
	ck_json("<script>]]>'", "\"<script>]]>'\"");
}
END_TEST

START_TEST(test_valid_utf8_passes)
{
	ck_json("\xc2\xa7" "18 \xe2\x82\xac \xf0\x9f\x98\x80", "\"\xc2\xa7" "18 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}
END_TEST

/* Each of these would make a strict UTF-8 reader (Python's) refuse the file. */
START_TEST(test_invalid_utf8_escaped)
{
	ck_json("\xff\xfe", "\"\\u00ff\\u00fe\"");
	ck_json("\xc0\xaf", "\"\\u00c0\\u00af\"");			/* overlong '/' */
	ck_json("\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\"");		/* overlong, 3 bytes */
	ck_json("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");		/* surrogate U+D800 */
	ck_json("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"");	/* above U+10FFFF */
	ck_json("\xf5\x80\x80\x80", "\"\\u00f5\\u0080\\u0080\\u0080\"");
	ck_json("\xe2\x82", "\"\\u00e2\\u0082\"");			/* cut short by the 32-byte field */
}
END_TEST

/* A name that fills all 32 bytes: the record keeps 31 and a NUL. */
START_TEST(test_full_width_name_in_record)
{
	struct result_set rs = { 0 };
	struct result *r = results_add(&rs);
	char name[32];
	memset(name, 'N', sizeof(name));
	snprintf(r->ctrl_name, sizeof(r->ctrl_name), "%.31s", name);
	ck_assert_uint_eq(strlen(r->ctrl_name), 31);
	results_free(&rs);
}
END_TEST

START_TEST(test_artifact_file_names)
{
	char out[64];
	results_file_name("probe/luma-up/brightness", out, sizeof(out));
	ck_assert_str_eq(out, "probe_luma-up_brightness");
	results_file_name("../../x", out, sizeof(out));
	ck_assert_str_eq(out, "_._.._x");
	ck_assert_ptr_null(strchr(out, '/'));
	results_file_name(".hidden\x01<a>\xff", out, sizeof(out));
	ck_assert_str_eq(out, "_hidden__a__");
	results_file_name("", out, sizeof(out));
	ck_assert_str_eq(out, "_");
	results_file_name("abcdefgh", out, 4);
	ck_assert_str_eq(out, "abc");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_strings");
	TCase *tc = tcase_create("json");
	tcase_add_test(tc, test_control_characters_escaped);
	tcase_add_test(tc, test_valid_utf8_passes);
	tcase_add_test(tc, test_invalid_utf8_escaped);
	tcase_add_test(tc, test_full_width_name_in_record);
	tcase_add_test(tc, test_artifact_file_names);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
