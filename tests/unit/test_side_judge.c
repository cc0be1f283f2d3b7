/* Host unit tests: the side-effect and range decisions (lib/image/side_judge.c)
 * on synthetic frames. The negative cases: the picture a broken control
 * gives (a tint from brightness, a luma shift from saturation, faded
 * colours from hue, a lifted black from a flip, a range that stops at half)
 * must be found; clipping and unchanged pictures must not be. */
#include <check.h>
#include "unit.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/probe_judge.h"
#include "image/side_judge.h"

/* Eight vertical bars of distinct colour, not clipped unless dy pushes
 * the luma to the top (saturating at 255). */
static void bars(struct frame *f, int dy, int dcb, int dcr, double cgain)
{
	ck_assert_int_eq(frame_alloc(f, 64, 32), 0);
	for (unsigned y = 0; y < f->height; y++)
		for (unsigned x = 0; x < f->width; x++)
			{
			int v = 40 + 20 * (int)(x * 8 / f->width) + dy;
			f->y[y * f->width + x] = (uint8_t)(v > 255 ? 255 : v);
		}
	for (unsigned y = 0; y < f->ch; y++)
		for (unsigned x = 0; x < f->cw; x++) {
			int k = x * 8 / f->cw;
			f->cb[y * f->cw + x] = (uint8_t)(128 + lround((k * 10 - 35) * cgain) + dcb);
			f->cr[y * f->cw + x] = (uint8_t)(128 + lround((35 - k * 9) * cgain) + dcr);
		}
	f->has_chroma = true;
}

START_TEST(test_side_shift)
{
	struct frame a = { 0 }, b = { 0 };
	struct roi r = { 0, 0, 64, 32 };
	struct side_shift s, noise[4] = { 0 };
	struct side_tol t;
	double moved, tol;
	side_tol_of(noise, 4, &t);
	ck_assert(fabs(t.dy - JUDGE_HALF_CODE) < 1e-9);
	bars(&a, 0, 0, 0, 1);
	/* a pure luma offset keeps the chroma */
	bars(&b, 30, 0, 0, 1);
	side_shift_of(&a, &b, &r, &s);
	ck_assert(fabs(s.dy - 30) < 1e-9);
	ck_assert_ptr_null(side_moved(&s, &t, SIDE_KEEP_CHROMA, &moved, &tol));
	ck_assert_ptr_nonnull(side_moved(&s, &t, SIDE_KEEP_LUMA, &moved, &tol));
	/* a tint: Cb offset */
	bars(&b, 30, 4, 0, 1);
	side_shift_of(&a, &b, &r, &s);
	ck_assert_str_eq(side_moved(&s, &t, SIDE_KEEP_CHROMA, &moved, &tol), "mean Cb");
	/* faded colours: magnitude */
	bars(&b, 0, 0, 0, 0.5);
	side_shift_of(&a, &b, &r, &s);
	ck_assert_ptr_nonnull(side_moved(&s, &t, SIDE_KEEP_MAGNITUDE, &moved, &tol));
	ck_assert_ptr_null(side_moved(&s, &t, SIDE_KEEP_LUMA, &moved, &tol));
	/* clipped samples are left out: everything white */
	bars(&b, 200, 9, 0, 1);
	side_shift_of(&a, &b, &r, &s);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_ptr_null(side_moved(&s, &t, SIDE_KEEP_CHROMA, &moved, &tol));
	frame_free(&a);
	frame_free(&b);
}
END_TEST

START_TEST(test_histogram)
{
	struct frame a = { 0 }, b = { 0 };
	struct roi r = { 8, 4, 32, 16 };
	struct side_hist ha, hb;
	bars(&a, 0, 0, 0, 1);
	side_hist_of(&a, &r, &ha);
	/* the mirrored region of a mirrored picture has the same histogram */
	frame_copy(&b, &a);
	for (unsigned y = 0; y < a.height; y++)
		for (unsigned x = 0; x < a.width; x++)
			b.y[y * a.width + x] = a.y[y * a.width + a.width - 1 - x];
	for (unsigned y = 0; y < a.ch; y++)
		for (unsigned x = 0; x < a.cw; x++) {
			b.cb[y * a.cw + x] = a.cb[y * a.cw + a.cw - 1 - x];
			b.cr[y * a.cw + x] = a.cr[y * a.cw + a.cw - 1 - x];
		}
	struct roi m = side_roi_mirror(&r, a.width, a.height, MIRROR_H);
	ck_assert_uint_eq(m.x, 24);
	side_hist_of(&b, &m, &hb);
	ck_assert(side_hist_distance(&ha, &hb, NULL) < 1e-9);
	/* a lifted black level moves the luma histogram by that much */
	for (size_t i = 0; i < (size_t)b.width * b.height; i++)
		b.y[i] += 8;
	side_hist_of(&b, &m, &hb);
	const char *which;
	ck_assert(fabs(side_hist_distance(&ha, &hb, &which) - 8) < 1e-9);
	ck_assert_str_eq(which, "luma");
	struct roi s = side_roi_shift(&r, a.width, a.height, -100, 2);
	ck_assert_uint_eq(s.x, 0);
	ck_assert_uint_eq(s.y, 6);
	frame_free(&a);
	frame_free(&b);
}
END_TEST

START_TEST(test_range)
{
	struct v4l2_query_ext_ctrl q = { .type = V4L2_CTRL_TYPE_INTEGER, .minimum = 0, .maximum = 255, .step = 1 };
	int64_t v[RANGE_POINTS];
	ck_assert(range_values(&q, v));
	ck_assert_int_eq(v[0], 0);
	ck_assert_int_eq(v[1], 64);
	ck_assert_int_eq(v[2], 191);
	ck_assert_int_eq(v[3], 255);
	q.maximum = 3;
	ck_assert(!range_values(&q, v));
	int ex;
	ck_assert_int_eq(range_judge(5, 10, 5, 0, 0, 1, &ex), RANGE_PASS);
	ck_assert_int_eq(range_judge(5, 10, 0.2, 0, 0, 1, &ex), RANGE_FLAT_TOP);
	ck_assert_int_eq(range_judge(0.2, 10, 5, 0, 0, 1, &ex), RANGE_FLAT_BOTTOM);
	/* clipped: the effect has nowhere left to go */
	ck_assert_int_eq(range_judge(5, 10, 0.2, 0, 1, 1, &ex), RANGE_PASS);
	ck_assert_int_eq(ex, 1);
	ck_assert_int_eq(range_judge(0, 0, 0, NAN, NAN, 1, &ex), RANGE_NO_EFFECT);
	/* the clipped share of an effect */
	struct frame a = { 0 }, b = { 0 }, c = { 0 };
	struct roi r = { 0, 0, 64, 32 };
	bars(&a, 0, 0, 0, 1);
	bars(&b, 20, 0, 0, 1);
	bars(&c, 200, 0, 0, 1);
	ck_assert(range_clipped_share(&a, &b, &b, &r, 1) < 0.01);
	ck_assert(range_clipped_share(&a, &b, &c, &r, 1) > 0.99);
	ck_assert(isnan(range_clipped_share(&a, &a, &a, &r, 1)));
	frame_free(&a);
	frame_free(&b);
	frame_free(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("side_judge");
	TCase *tc = tcase_create("side_judge");
	tcase_add_test(tc, test_side_shift);
	tcase_add_test(tc, test_histogram);
	tcase_add_test(tc, test_range);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
