/* Host unit tests: board profile parser (lib/image/profile.c). */
#include <check.h>
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/profile.h"

static char err[512];

static int parse(const char *text, struct profile *p)
{
	err[0] = 0;
	return profile_parse(text, "t.profile", p, err, sizeof(err));
}

START_TEST(test_defaults)
{
	struct profile p;
	ck_assert_int_eq(parse("# nothing but comments\n\n   \n", &p), 0);
	ck_assert(!p.have_roi);
	ck_assert_uint_eq(p.max_latency, PROFILE_DEFAULT_MAX_LATENCY);
	ck_assert_uint_eq(p.n_set, 0);
	ck_assert_uint_eq(p.width, 0);
	ck_assert_uint_eq(p.fps, 0);
	struct roi r = profile_roi(&p, 640, 360);
	struct roi c = roi_centre(640, 360);
	ck_assert(r.x == c.x && r.y == c.y && r.w == c.w && r.h == c.h);
	profile_free(&p);
}
END_TEST

START_TEST(test_full_profile)
{
	const char *text =
		"# vivid\n"
		"roi = 0.1, 0.2 ,0.9,1   # trailing comment\n"
		"capture-size=320x180\n"
		"frame-rate = 25\n"
		"set.osd-text-mode = None\n"
		"set.0x00f0f003 = 3\n"
		"scene.vertical-flip.test-pattern = 3\n"
		"no-effect = gain, volume\n"
		"no-effect = mute\n"
		"distinct-items = test-pattern\n"
		"max-latency = 12\n"
		"suspend-wait = 750\n";
	struct profile p;
	ck_assert_msg(parse(text, &p) == 0, "%s", err);
	ck_assert(p.have_roi);
	ck_assert_double_eq(p.roi.x0, 0.1);
	ck_assert_double_eq(p.roi.y0, 0.2);
	ck_assert_double_eq(p.roi.x1, 0.9);
	ck_assert_double_eq(p.roi.y1, 1.0);
	ck_assert_uint_eq(p.width, 320);
	ck_assert_uint_eq(p.height, 180);
	ck_assert_uint_eq(p.max_latency, 12);
	ck_assert_uint_eq(p.suspend_wait_ms, 750);
	ck_assert_uint_eq(p.n_set, 3);
	ck_assert_str_eq(p.set[0].probe, "");
	ck_assert_str_eq(p.set[0].ctrl, "osd-text-mode");
	ck_assert_str_eq(p.set[0].value, "None");
	ck_assert_uint_eq(p.set[0].line, 5);
	ck_assert_uint_eq(p.fps, 25);
	ck_assert_str_eq(p.set[1].ctrl, "0x00f0f003");
	ck_assert_str_eq(p.set[2].probe, "vertical-flip");
	ck_assert_str_eq(p.set[2].ctrl, "test-pattern");
	ck_assert_str_eq(p.set[2].value, "3");
	ck_assert_uint_eq(p.n_no_effect, 3);
	ck_assert(profile_is_no_effect(&p, "gain", 0x980913));
	ck_assert(profile_is_no_effect(&p, "mute", 0));
	ck_assert(!profile_is_no_effect(&p, "brightness", 0x980900));
	ck_assert(profile_is_distinct_items(&p, "test-pattern", 0xf0f000));
	ck_assert(!profile_is_distinct_items(&p, "gain", 0x980913));
	/* ids match by value, slugs exactly */
	ck_assert(profile_name_matches("0x00f0f003", "vertical-movement", 0xf0f003));
	ck_assert(profile_name_matches("0xF0F003", NULL, 0xf0f003));
	ck_assert(!profile_name_matches("0x00f0f003", "x", 0xf0f002));
	ck_assert(!profile_name_matches("gain", "gain-2", 1));
	struct roi r = profile_roi(&p, 640, 360);
	ck_assert_uint_eq(r.x, 64);
	ck_assert_uint_eq(r.y, 72);
	ck_assert_uint_eq(r.x + r.w, 576);
	ck_assert_uint_eq(r.y + r.h, 360);
	profile_free(&p);
	ck_assert_uint_eq(p.n_set, 0);
}
END_TEST

/* Each malformed line gives one line of error naming the file and line. */
static const struct { const char *text; const char *want; } bad[] = {
	{ "roi = 0.1,0.2,0.9\n", "t.profile:1: roi needs four fractions" },
	{ "roi = 0.1,0.2,0.9,0.95,1\n", "t.profile:1: roi needs four fractions" },
	{ "roi = 0.5,0.2,0.4,0.9\n", "t.profile:1: roi: right must exceed left" },
	{ "roi = 0.1,0.2,1.5,0.9\n", "t.profile:1: roi needs four fractions" },
	{ "roi = a,b,c,d\n", "t.profile:1: roi needs four fractions" },
	{ "\n\nroi = 0,0,1,1\nroi = 0,0,1,1\n", "t.profile:4: roi given twice (first on line 3)" },
	{ "colour = red\n", "t.profile:1: unknown key 'colour'" },
	{ "just words\n", "t.profile:1: expected KEY = VALUE" },
	{ "set.brightness =\n", "t.profile:1: set.brightness has no value" },
	{ " = 3\n", "t.profile:1: a line with '=' but no key" },
	{ "set.Brightness = 3\n", "t.profile:1: set.Brightness: 'Brightness' is not a control name" },
	{ "set.0xzz = 3\n", "t.profile:1: set.0xzz: '0xzz' is not a control name" },
	{ "set.gain = 3\nset.gain = 4\n", "t.profile:2: set.gain given twice (first on line 1)" },
	{ "scene.vertical-flip = 3\n", "t.profile:1: scene.vertical-flip: use scene.PROBED-CONTROL.CONTROL" },
	{ "scene..test-pattern = 3\n", "t.profile:1: scene..test-pattern: use scene.PROBED-CONTROL.CONTROL" },
	{ "no-effect = gain, Volume\n", "t.profile:1: no-effect: 'Volume' is not a control name" },
	{ "no-effect = ,\n", "t.profile:1: no-effect needs at least one control name" },
	{ "max-latency = -1\n", "t.profile:1: max-latency needs a number of frames" },
	{ "max-latency = 5 frames\n", "t.profile:1: max-latency needs a number of frames" },
	{ "capture-size = 320\n", "t.profile:1: capture-size needs WIDTHxHEIGHT" },
	{ "capture-size = 0x180\n", "t.profile:1: capture-size needs WIDTHxHEIGHT" },
	{ "frame-rate = 0\n", "t.profile:1: frame-rate needs frames a second" },
	{ "set.test-pattern = a-menu-item-name-that-goes-on-and-on-far-beyond-sixty-three-chars\n",
	  "t.profile:1: set.test-pattern: the value is longer than 63 characters" },
	{ "suspend-wait = 1s\n", "t.profile:1: suspend-wait needs milliseconds" },
	{ "suspend-wait = 1\nsuspend-wait = 2\n", "t.profile:2: suspend-wait given twice (first on line 1)" },
	{ "frame-rate = 25\nframe-rate = 30\n", "t.profile:2: frame-rate given twice (first on line 1)" },
};

START_TEST(test_malformed)
{
	struct profile p;
	const char *text = bad[_i].text;
	ck_assert_int_eq(parse(text, &p), -1);
	ck_assert_msg(!strncmp(err, bad[_i].want, strlen(bad[_i].want)), "for %s got '%s'", text, err);
	ck_assert_msg(!strchr(err, '\n'), "one line: '%s'", err);
	/* a failed parse leaves an empty profile */
	ck_assert_uint_eq(p.n_set, 0);
	ck_assert(!p.have_roi);
}
END_TEST

START_TEST(test_load_file)
{
	char path[] = "/tmp/test_profile_XXXXXX";
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	const char *text = "roi=0,0,1,1\r\nno-effect=gain\nrequire-effect = 0x009a0902, gain-2\n";	/* CRLF tolerated: \r is space */
	ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	struct profile p;
	ck_assert_msg(profile_load(path, &p, err, sizeof(err)) == 0, "%s", err);
	ck_assert(p.have_roi && p.roi.x1 == 1.0);
	ck_assert(profile_is_no_effect(&p, "gain", 0));
	ck_assert(profile_requires_effect(&p, "exposure-time-absolute", 0x009a0902));
	ck_assert(profile_requires_effect(&p, "gain-2", 0x980913));
	ck_assert(!profile_requires_effect(&p, "gain", 0x980913));
	profile_free(&p);
	unlink(path);
	ck_assert_int_eq(profile_load("/nonexistent/x.profile", &p, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "/nonexistent/x.profile: cannot read the profile") == err, "%s", err);
}
END_TEST

static char exit_path[64];
static void unlink_exit_path(void)
{
	unlink(exit_path);
}
static void unlink_path_at_exit(const char *path)
{
	snprintf(exit_path, sizeof(exit_path), "%s", path);
	atexit(unlink_exit_path);
}

START_TEST(test_load_or_exit_exits_2)
{
	char path[] = "/tmp/test_profile_XXXXXX";
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	ck_assert(write(fd, "bogus\n", 6) == 6);
	close(fd);
	unlink_path_at_exit(path);
	ck_assert(freopen("/dev/null", "w", stderr));	/* the one-line error is expected */
	profile_load_or_exit(path);	/* exits with status 2 */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("profile");
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_full_profile);
	tcase_add_loop_test(tc, test_malformed, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_load_file);
	tcase_add_exit_test(tc, test_load_or_exit_exits_2, 2);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
