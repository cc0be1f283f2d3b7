/* Host unit tests: the probes' decisions (lib/image/probe_judge.c) on synthetic
 * measurements. Each detector gets its negative case here: the measurement a
 * broken control would give must fail (or be inconclusive), never pass. */
#include <check.h>
#include "unit.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/probe_judge.h"

static struct v4l2_query_ext_ctrl int_ctrl(int64_t min, int64_t max, uint64_t step)
{
	struct v4l2_query_ext_ctrl q = { .type = V4L2_CTRL_TYPE_INTEGER, .minimum = min, .maximum = max, .step = step };
	q.default_value = min;
	return q;
}

START_TEST(test_sweep_values)
{
	int64_t v[JUDGE_SWEEP_POINTS];
	struct v4l2_query_ext_ctrl q = int_ctrl(0, 255, 1);
	int n = judge_sweep_values(&q, v);
	ck_assert_int_eq(n, JUDGE_SWEEP_POINTS);
	ck_assert_int_eq(v[0], 0);
	ck_assert_int_eq(v[n - 1], 255);
	for (int i = 1; i < n; i++)
		ck_assert_int_gt(v[i], v[i - 1]);
	/* fewer values than points: each once */
	q = int_ctrl(0, 3, 1);
	ck_assert_int_eq(judge_sweep_values(&q, v), 4);
	ck_assert_int_eq(v[3], 3);
	/* every value on a step */
	q = int_ctrl(-50, 100, 25);
	n = judge_sweep_values(&q, v);
	ck_assert_int_eq(v[0], -50);
	ck_assert_int_eq(v[n - 1], 100);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq((v[i] + 50) % 25, 0);
	q = int_ctrl(7, 7, 1);
	ck_assert_int_eq(judge_sweep_values(&q, v), 1);
}
END_TEST

START_TEST(test_noise_tolerance)
{
	const double still[] = { 10, 10, 10, 10, 10 };
	struct judge_noise n;
	judge_noise_of(still, 5, JUDGE_HALF_CODE, &n);
	ck_assert_double_eq_tol(n.mean, 10, 1e-12);
	ck_assert_double_eq_tol(n.sd, 0, 1e-12);
	ck_assert_double_eq_tol(n.tol, JUDGE_HALF_CODE, 1e-12);	/* no noise: the quantisation floor */
	const double noisy[] = { 1, 2, 3, 4, 5 };
	judge_noise_of(noisy, 5, JUDGE_HALF_CODE, &n);
	ck_assert_double_eq_tol(n.mean, 3, 1e-12);
	ck_assert_double_eq_tol(n.sd, sqrt(2.5), 1e-12);	/* sample sd */
	ck_assert_double_eq_tol(n.tol, JUDGE_HALF_CODE + JUDGE_NOISE_K * sqrt(2.5), 1e-12);
}
END_TEST

/* Unclipped mid-grey points with the given statistics. */
static int points(struct judge_point *p, const double *stat, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (struct judge_point){ .v = i * 40, .stat = stat[i], .p_lo = 60, .p_hi = 180 };
	return n;
}

START_TEST(test_sweep_rising_passes)
{
	const double s[] = { 30, 50, 70, 90, 110, 130, 150 };
	struct judge_point p[7];
	struct judge_sweep_result r;
	judge_sweep(JUDGE_LUMA, p, points(p, s, 7), 1.0, 90, 90.3, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);
	ck_assert_int_eq(r.rises, 6);
	ck_assert_int_eq(r.step, -1);
}
END_TEST

START_TEST(test_sweep_flat_is_no_effect)
{
	/* brightness ignored by the driver: the picture never changes */
	const double s[] = { 90, 90.2, 89.9, 90, 90.1, 90, 90 };
	struct judge_point p[7];
	struct judge_sweep_result r;
	judge_sweep(JUDGE_LUMA, p, points(p, s, 7), 1.0, 90, 90, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_NO_EFFECT);
	ck_assert_int_eq(r.step, 0);
}
END_TEST

START_TEST(test_sweep_inverted)
{
	const double s[] = { 150, 130, 110, 90, 70, 50, 30 };
	struct judge_point p[7];
	struct judge_sweep_result r;
	judge_sweep(JUDGE_LUMA, p, points(p, s, 7), 1.0, 90, 90, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_INVERTED);
	/* a single wrong step in the middle is found where it is */
	const double w[] = { 30, 50, 70, 40, 110, 130, 150 };
	judge_sweep(JUDGE_LUMA, p, points(p, w, 7), 1.0, 90, 90, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_INVERTED);
	ck_assert_int_eq(r.step, 2);
}
END_TEST

START_TEST(test_sweep_clipped_white_is_excused)
{
	/* the last steps saturate: the region is white from the 5th point on */
	const double s[] = { 30, 80, 130, 180, 235, 235, 235 };
	struct judge_point p[7];
	struct judge_sweep_result r;
	points(p, s, 7);
	for (int i = 4; i < 7; i++)
		p[i].p_lo = p[i].p_hi = 235;
	judge_sweep(JUDGE_LUMA, p, 7, 1.0, 130, 130, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);
	ck_assert_int_eq(r.rises, 4);
	ck_assert_int_eq(r.excused, 2);
	/* the same stall without clipping is a failure */
	for (int i = 4; i < 7; i++)
		p[i].p_lo = 200;
	judge_sweep(JUDGE_LUMA, p, 7, 1.0, 130, 130, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_NO_EFFECT);
	ck_assert_int_eq(r.step, 4);
	/* clipping never excuses a fall */
	p[6].stat = 200;
	for (int i = 4; i < 7; i++)
		p[i].p_lo = 235;
	judge_sweep(JUDGE_LUMA, p, 7, 1.0, 130, 130, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_INVERTED);
}
END_TEST

START_TEST(test_sweep_clipped_throughout_is_inconclusive)
{
	const double s[] = { 235, 235, 235, 235, 235, 235, 235 };
	struct judge_point p[7];
	struct judge_sweep_result r;
	points(p, s, 7);
	for (int i = 0; i < 7; i++)
		p[i].p_lo = p[i].p_hi = 235;
	judge_sweep(JUDGE_LUMA, p, 7, 1.0, 235, 235, &r);
	ck_assert_int_eq(r.verdict, JUDGE_INCONCLUSIVE);	/* never a pass */
	ck_assert_int_eq(r.excused, 6);
}
END_TEST

START_TEST(test_sweep_not_back)
{
	const double s[] = { 30, 50, 70, 90, 110, 130, 150 };
	struct judge_point p[7];
	struct judge_sweep_result r;
	judge_sweep(JUDGE_LUMA, p, points(p, s, 7), 1.0, 90, 95, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_NOT_BACK);
	judge_sweep(JUDGE_LUMA, p, 7, 1.0, 90, 90.9, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);	/* within the tolerance */
}
END_TEST

START_TEST(test_saturation_minimum_grey)
{
	const double s[] = { 0.2, 10, 20, 30, 40, 50, 60 };
	struct judge_point p[7];
	struct judge_sweep_result r;
	judge_sweep(JUDGE_CHROMA, p, points(p, s, 7), 1.0, 30, 30, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);
	/* saturation whose minimum leaves colour */
	p[0].stat = 5;
	judge_sweep(JUDGE_CHROMA, p, 7, 1.0, 30, 30, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_NOT_GREY);
	/* colour stalls where the chroma is clipped: excused; unclipped: not */
	const double c[] = { 0.2, 20, 40, 60, 80, 80, 80 };
	points(p, c, 7);
	for (int i = 4; i < 7; i++)
		p[i].chroma_clip = 1;
	judge_sweep(JUDGE_CHROMA, p, 7, 1.0, 40, 40, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);
	ck_assert_int_eq(r.excused, 2);
	p[4].chroma_clip = 0.5;
	judge_sweep(JUDGE_CHROMA, p, 7, 1.0, 40, 40, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_NO_EFFECT);
	ck_assert_int_eq(r.step, 4);
}
END_TEST

START_TEST(test_contrast_spread)
{
	/* spread falls as more of the region clips: excused */
	const double s[] = { 10, 20, 30, 40, 35, 30, 25 };
	struct judge_point p[7];
	struct judge_sweep_result r;
	points(p, s, 7);
	for (int i = 0; i < 7; i++)
		p[i].luma_clip = i < 4 ? 0 : 0.2 * (i - 3);
	judge_sweep(JUDGE_SPREAD, p, 7, 1.0, 30, 30, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);
	ck_assert_int_eq(r.excused, 3);
	/* the same fall without clipping: inverted contrast */
	for (int i = 0; i < 7; i++)
		p[i].luma_clip = 0;
	judge_sweep(JUDGE_SPREAD, p, 7, 1.0, 30, 30, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_INVERTED);
	ck_assert_int_eq(r.step, 3);
}
END_TEST

/* A two-level frame: the left half at level a, the right half at b. */
static void two_levels(struct frame *f, uint8_t a, uint8_t b)
{
	for (unsigned y = 0; y < f->height; y++) {
		memset(f->y + (size_t)y * f->width, a, f->width / 2);
		memset(f->y + (size_t)y * f->width + f->width / 2, b, f->width - f->width / 2);
	}
}

START_TEST(test_tone_curve)
{
	struct frame before = { 0 }, after = { 0 };
	ck_assert_int_eq(frame_alloc(&before, 64, 32), 0);
	ck_assert_int_eq(frame_alloc(&after, 64, 32), 0);
	struct roi r = { 0, 0, 64, 32 };
	uint8_t *lo = calloc(64 * 32, 1), *hi = calloc(64 * 32, 1);	/* all still */
	struct judge_pixel_noise n = { lo, hi, 0.5 };
	struct judge_tone_break br;
	two_levels(&before, 50, 150);
	two_levels(&after, 90, 190);	/* brighter, order kept */
	ck_assert(judge_tone_curve(&before, &after, &r, &n, &br));
	two_levels(&after, 235, 235);	/* clipped: equal is still in order */
	ck_assert(judge_tone_curve(&before, &after, &r, &n, &br));
	/* wrap-around: the bright level comes out dark */
	two_levels(&after, 200, 20);
	ck_assert(!judge_tone_curve(&before, &after, &r, &n, &br));
	ck_assert_uint_eq(br.lo, 50);
	ck_assert_uint_eq(br.hi, 150);
	ck_assert_double_eq_tol(br.med_lo, 200, 1e-9);
	ck_assert_double_eq_tol(br.med_hi, 20, 1e-9);
	/* pixels that did not hold still (an on-screen counter) are left out */
	memset(hi, 255, 64 * 32);
	ck_assert(judge_tone_curve(&before, &after, &r, &n, &br));
	free(lo);
	free(hi);
	frame_free(&before);
	frame_free(&after);
}
END_TEST

START_TEST(test_wrap180)
{
	ck_assert_double_eq_tol(judge_wrap180(0), 0, 1e-12);
	ck_assert_double_eq_tol(judge_wrap180(190), -170, 1e-12);
	ck_assert_double_eq_tol(judge_wrap180(-190), 170, 1e-12);
	ck_assert_double_eq_tol(judge_wrap180(720 + 30), 30, 1e-12);
}
END_TEST

static const int64_t hue_vals[7] = { -180, -120, -60, 0, 60, 120, 180 };

START_TEST(test_hue_rotates)
{
	double rot[7];
	struct judge_hue_result r;
	for (int i = 0; i < 7; i++)
		rot[i] = judge_wrap180(hue_vals[i] * 1.2);	/* 216 degrees wraps to -144 */
	judge_hue(hue_vals, rot, 7, 0, 2.0, 0.1, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);
	ck_assert(r.have[6] && r.have[0] && !r.have[3]);
	ck_assert_double_eq_tol(r.unwrapped[6], 216, 1e-9);	/* unwrapped */
	ck_assert_double_eq_tol(r.unwrapped[0], -216, 1e-9);
	/* the opposite sense is fine too (a driver's hue sign convention) */
	for (int i = 0; i < 7; i++)
		rot[i] = -hue_vals[i] * 0.5;
	judge_hue(hue_vals, rot, 7, 0, 2.0, 0.1, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);
}
END_TEST

START_TEST(test_hue_failures)
{
	double rot[7] = { 0 };
	struct judge_hue_result r;
	/* hue ignored */
	judge_hue(hue_vals, rot, 7, 0, 2.0, 0, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_NO_EFFECT);
	ck_assert(!r.turned_back);
	/* the same sense on both sides (|value|) */
	for (int i = 0; i < 7; i++)
		rot[i] = llabs(hue_vals[i]) * 0.3;
	judge_hue(hue_vals, rot, 7, 0, 2.0, 0, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_SAME_SENSE);
	/* turning back at the top of the range */
	for (int i = 0; i < 7; i++)
		rot[i] = hue_vals[i] * 0.3;
	rot[6] = 10;
	judge_hue(hue_vals, rot, 7, 0, 2.0, 0, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_NO_EFFECT);
	ck_assert(r.turned_back);
	ck_assert_int_eq(r.at, 6);
	ck_assert_int_eq(r.from, 120);
	/* not back at the reference after returning */
	rot[6] = 54;
	judge_hue(hue_vals, rot, 7, 0, 2.0, 0, &r);
	ck_assert_int_eq(r.verdict, JUDGE_PASS);
	judge_hue(hue_vals, rot, 7, 0, 2.0, 5, &r);
	ck_assert_int_eq(r.verdict, JUDGE_FAIL_NOT_BACK);
	/* only the original value swept: inconclusive */
	const int64_t one[1] = { 0 };
	judge_hue(one, rot, 1, 0, 2.0, 0, &r);
	ck_assert_int_eq(r.verdict, JUDGE_INCONCLUSIVE);
}
END_TEST

START_TEST(test_mirror)
{
	const double tol = 1.5;
	ck_assert_int_eq(judge_mirror(40, 0.3, 30, 0.2, tol, 0), JUDGE_PASS);
	ck_assert_int_eq(judge_mirror(0.4, 40, 30, 0.2, tol, 0), JUDGE_FAIL_NO_EFFECT);	/* flip ignored */
	ck_assert_int_eq(judge_mirror(40, 30, 0.3, 0.2, tol, 0), JUDGE_FAIL_WRONG_AXIS);	/* hflip does vflip */
	ck_assert_int_eq(judge_mirror(40, 30, 25, 0.2, tol, 0), JUDGE_FAIL_NOT_MIRROR);	/* some other change */
	ck_assert_int_eq(judge_mirror(40, 0.3, 0.4, 0.2, tol, 0), JUDGE_INCONCLUSIVE);	/* both axes alike */
	ck_assert_int_eq(judge_mirror(40, 0.3, 30, 20, tol, 0), JUDGE_FAIL_NOT_BACK);	/* stays flipped */
}
END_TEST

/* Issue 17: without a profile, only controls whose meaning is a picture
 * change must show one; gain, exposure, white balance, power line frequency
 * are skipped with the reason unless the profile requires them. */
START_TEST(test_effect_required)
{
	const char *why = NULL;
	uint32_t picture[] = { V4L2_CID_BRIGHTNESS, V4L2_CID_CONTRAST, V4L2_CID_SATURATION, V4L2_CID_HUE,
			       V4L2_CID_HFLIP, V4L2_CID_VFLIP, V4L2_CID_GAMMA, V4L2_CID_SHARPNESS, V4L2_CID_TEST_PATTERN };
	for (size_t i = 0; i < sizeof(picture) / sizeof(picture[0]); i++) {
		ck_assert_int_eq(judge_scope_of(picture[i]), JUDGE_PICTURE);
		ck_assert(judge_effect_required(picture[i], false, &why));
		ck_assert_ptr_null(why);
	}
	uint32_t source[] = { V4L2_CID_GAIN, V4L2_CID_ANALOGUE_GAIN, V4L2_CID_DIGITAL_GAIN, V4L2_CID_EXPOSURE,
			      V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CID_AUTOGAIN, V4L2_CID_AUTO_WHITE_BALANCE,
			      V4L2_CID_WHITE_BALANCE_TEMPERATURE, V4L2_CID_POWER_LINE_FREQUENCY };
	for (size_t i = 0; i < sizeof(source) / sizeof(source[0]); i++) {
		ck_assert_int_eq(judge_scope_of(source[i]), JUDGE_SOURCE);
		why = NULL;
		ck_assert(!judge_effect_required(source[i], false, &why));
		ck_assert_ptr_nonnull(why);
		ck_assert(strstr(why, "skipped") && strstr(why, "require-effect"));
		/* the profile can require it: then the probe judges as usual */
		why = NULL;
		ck_assert(judge_effect_required(source[i], true, &why));
		ck_assert_ptr_null(why);
	}
	ck_assert_int_eq(judge_scope_of(0x00f0f001), JUDGE_OTHER);
	ck_assert(judge_effect_required(0x00f0f001, false, &why));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("probe_judge");
	TCase *tc = tcase_create("probe_judge");
	tcase_add_test(tc, test_sweep_values);
	tcase_add_test(tc, test_noise_tolerance);
	tcase_add_test(tc, test_sweep_rising_passes);
	tcase_add_test(tc, test_sweep_flat_is_no_effect);
	tcase_add_test(tc, test_sweep_inverted);
	tcase_add_test(tc, test_sweep_clipped_white_is_excused);
	tcase_add_test(tc, test_sweep_clipped_throughout_is_inconclusive);
	tcase_add_test(tc, test_sweep_not_back);
	tcase_add_test(tc, test_saturation_minimum_grey);
	tcase_add_test(tc, test_contrast_spread);
	tcase_add_test(tc, test_tone_curve);
	tcase_add_test(tc, test_wrap180);
	tcase_add_test(tc, test_hue_rotates);
	tcase_add_test(tc, test_hue_failures);
	tcase_add_test(tc, test_mirror);
	tcase_add_test(tc, test_effect_required);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
