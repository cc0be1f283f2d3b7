/* Host unit tests: the judges on R'G'B' and Bayer sources (issue 26 item 3).
 *  - A sample whose R', G' or B' sat at 0 or 255 is clipped, though Y'CbCr
 *    shows nothing (the kernel's test pattern generator clamps each
 *    component after applying the controls in Y'CbCr); the side-effect
 *    rules and the sweep's clip shares discount it. Negative cases: the
 *    same values one code inside the range, and the same picture from a
 *    Y'CbCr source, are not clipped, and a real side effect there is found.
 *  - A Bayer sensor's flip mirrors the picture, not the mosaic's colour
 *    sites: the binned or debayered frame is the mirror image only up to
 *    one site of each colour. The allowance judge_site_allowance() derives
 *    from the format lets that pass; negative cases: without a mosaic there
 *    is no allowance, and a flip that does not mirror (or that changes the
 *    histogram) still fails with it. */
#include <check.h>
#include "unit.h"
#include <linux/videodev2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/probe_judge.h"
#include "image/side_judge.h"
#include "image/stats.h"

/* ---- R'G'B' clip ---- */

#define W 64
#define H 32

/* An RGB24 picture of four vertical bars; bar k has colour c[k]. */
static void rgb_bars(uint8_t *buf, const uint8_t c[4][3])
{
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			memcpy(buf + ((size_t)y * W + x) * 3, c[x * 4 / W], 3);
}

static void convert(struct frame *f, uint32_t fourcc, const uint8_t *buf, unsigned w, unsigned h, size_t len)
{
	struct raw_image r = { .fourcc = fourcc, .width = w, .height = h, .nplanes = 1 };
	r.plane[0] = buf;
	r.len[0] = len;
	ck_assert_int_eq(frame_convert(f, &r), 0);
}

/* Red clamped at 255 in every bar: Y' 100..170, Cb and Cr inside the
 * nominal limits. */
static const uint8_t RED_CLAMPED[4][3] = { { 255, 96, 64 }, { 255, 40, 120 }, { 255, 128, 100 }, { 255, 64, 200 } };
static const uint8_t INSIDE[4][3] = { { 254, 96, 64 }, { 254, 40, 120 }, { 254, 128, 100 }, { 254, 64, 200 } };

START_TEST(test_rgb_clip_counted)
{
	static uint8_t buf[W * H * 3];
	struct frame f = { 0 }, g = { 0 };
	const struct roi r = { 0, 0, W, H };
	rgb_bars(buf, RED_CLAMPED);
	convert(&f, V4L2_PIX_FMT_RGB24, buf, W, H, sizeof(buf));
	ck_assert(f.has_clip);
	/* nothing at the Y'CbCr limits */
	for (size_t i = 0; i < (size_t)W * H; i++)
		ck_assert(f.y[i] > JUDGE_Y_BLACK && f.y[i] < JUDGE_Y_WHITE);
	for (size_t i = 0; i < (size_t)f.cw * f.ch; i++)
		ck_assert(f.cb[i] > JUDGE_C_MIN && f.cb[i] < JUDGE_C_MAX && f.cr[i] > JUDGE_C_MIN && f.cr[i] < JUDGE_C_MAX);
	/* yet every sample is clipped in R'G'B' */
	ck_assert(side_sample_clipped(&f, 0, 0));
	ck_assert(side_sample_clipped(&f, f.cw - 1, f.ch - 1));
	ck_assert(fabs(judge_luma_clip(&f, &r) - 1.0 / 3) < 1e-9);	/* one of R', G', B' */
	ck_assert(fabs(judge_chroma_clip(&f, &r) - 1) < 1e-9);
	/* a copy keeps the map */
	ck_assert_int_eq(frame_copy(&g, &f), 0);
	ck_assert(g.has_clip && side_sample_clipped(&g, 3, 3));

	/* negative: one code inside the range is not clipped */
	rgb_bars(buf, INSIDE);
	convert(&f, V4L2_PIX_FMT_RGB24, buf, W, H, sizeof(buf));
	ck_assert(!side_sample_clipped(&f, 0, 0));
	ck_assert(judge_luma_clip(&f, &r) == 0 && judge_chroma_clip(&f, &r) == 0);

	/* negative: the clamped picture carried as Y'CbCr (YUYV) has no R'G'B'
	 * clip map; its own samples decide, as before */
	rgb_bars(buf, RED_CLAMPED);
	convert(&f, V4L2_PIX_FMT_RGB24, buf, W, H, sizeof(buf));
	static uint8_t yuyv[W * H * 2];
	ck_assert_uint_gt(frame_pack(&f, V4L2_PIX_FMT_YUYV, 0, yuyv, sizeof(yuyv)), 0);
	convert(&g, V4L2_PIX_FMT_YUYV, yuyv, W, H, sizeof(yuyv));
	ck_assert(!g.has_clip);
	ck_assert(!side_sample_clipped(&g, 0, 0));
	ck_assert(judge_luma_clip(&g, &r) == 0);
	frame_free(&f);
	frame_free(&g);
}
END_TEST

/* What the TPG does to a saturation step on clamped bars: the luma of the
 * clamped samples moves. The side-effect rule leaves them out; on
 * unclipped bars the same move is found. */
START_TEST(test_rgb_clip_discounted_by_side_rules)
{
	static uint8_t buf[W * H * 3];
	struct frame a = { 0 }, b = { 0 };
	const struct roi r = { 0, 0, W, H };
	struct side_shift s, noise[4] = { 0 };
	struct side_tol t;
	double moved, tol;
	side_tol_of(noise, 4, &t);
	static const uint8_t moved_c[4][3] = { { 255, 90, 58 }, { 255, 34, 114 }, { 255, 122, 94 }, { 255, 58, 194 } };
	rgb_bars(buf, RED_CLAMPED);
	convert(&a, V4L2_PIX_FMT_RGB24, buf, W, H, sizeof(buf));
	rgb_bars(buf, moved_c);
	convert(&b, V4L2_PIX_FMT_RGB24, buf, W, H, sizeof(buf));
	side_shift_of(&a, &b, &r, &s);
	ck_assert_uint_eq(s.n, 0);	/* every sample clipped: nothing to judge */
	ck_assert_uint_gt(s.total, 0);
	ck_assert_ptr_null(side_moved(&s, &t, SIDE_KEEP_LUMA, &moved, &tol));
	/* the clipped share of the effect (PB-5) */
	ck_assert(fabs(range_clipped_share(&a, &b, &b, &r, 0.5) - 1) < 1e-9);

	/* negative: the same luma move one code inside the range is a side effect */
	static const uint8_t in_a[4][3] = { { 250, 96, 64 }, { 250, 40, 120 }, { 250, 128, 100 }, { 250, 64, 200 } };
	static const uint8_t in_b[4][3] = { { 250, 90, 58 }, { 250, 34, 114 }, { 250, 122, 94 }, { 250, 58, 194 } };
	rgb_bars(buf, in_a);
	convert(&a, V4L2_PIX_FMT_RGB24, buf, W, H, sizeof(buf));
	rgb_bars(buf, in_b);
	convert(&b, V4L2_PIX_FMT_RGB24, buf, W, H, sizeof(buf));
	side_shift_of(&a, &b, &r, &s);
	ck_assert_uint_eq(s.n, s.total);
	ck_assert_str_eq(side_moved(&s, &t, SIDE_KEEP_LUMA, &moved, &tol), "mean luma");
	ck_assert(moved < -3);
	ck_assert(range_clipped_share(&a, &b, &b, &r, 0.5) == 0);
	frame_free(&a);
	frame_free(&b);
}
END_TEST

/* ---- Bayer mosaics ---- */

#define SW 120	/* sensor: bars 15 pixels wide, so that every other edge falls inside a 2x2 cell */
#define SH 32

/* Colour of picture column x: eight bars (none clamped) whose neighbours
 * differ in every component, so that a 2x2 cell across an edge mixes into
 * a colour neither bar has; or their mirror image. */
static const uint8_t BARS8[8][3] = { { 200, 40, 120 }, { 60, 180, 30 }, { 150, 90, 220 }, { 30, 140, 90 },
				     { 220, 200, 40 }, { 90, 30, 160 }, { 180, 120, 60 }, { 40, 60, 200 } };
static const uint8_t *pic(unsigned x, bool mirrored)
{
	if (mirrored)
		x = SW - 1 - x;
	return BARS8[x * 8 / SW];
}

/* An RGGB mosaic of the picture: each site takes its colour from the
 * picture at that position; a flip mirrors the picture, the sites stay
 * (vimc-sensor.c tpg_s_hflip). */
static void mosaic(uint8_t *raw, bool mirrored)
{
	for (unsigned y = 0; y < SH; y++)
		for (unsigned x = 0; x < SW; x++) {
			const unsigned c = (y & 1) == 0 ? ((x & 1) ? 1 : 0) : ((x & 1) ? 2 : 1);
			raw[(size_t)y * SW + x] = pic(x, mirrored)[c];
		}
}

/* A debayer: each colour the mean of its sites in the 3x3 neighbourhood
 * (vimc-debayer.c's mean window of 3), to RGB24. */
static void debayer(const uint8_t *raw, uint8_t *rgb)
{
	for (int y = 0; y < SH; y++)
		for (int x = 0; x < SW; x++) {
			int sum[3] = { 0, 0, 0 }, n[3] = { 0, 0, 0 };
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++) {
					const int yy = y + dy, xx = x + dx;
					if (yy < 0 || xx < 0 || yy >= SH || xx >= SW)
						continue;
					const int c = (yy & 1) == 0 ? ((xx & 1) ? 1 : 0) : ((xx & 1) ? 2 : 1);
					sum[c] += raw[yy * SW + xx];
					n[c]++;
				}
			for (int c = 0; c < 3; c++)
				rgb[((size_t)y * SW + x) * 3 + c] = (uint8_t)(sum[c] / n[c]);
		}
}

/* The mirror judge as suite_probe.c calls it, with the tolerance of a
 * noiseless source (half a code). */
static enum judge_verdict mirror_verdict(const struct frame *base, const struct frame *fl, enum judge_mosaic mo,
					 unsigned sensor_w, double *right, double *site)
{
	const struct roi r = roi_centre(base->width, base->height);
	const double tol = JUDGE_HALF_CODE;
	double hist;
	*right = stats_luma_mad_local(fl, base, &r, MIRROR_H, 2);
	const double wrong = stats_luma_mad_local(fl, base, &r, MIRROR_V, 2);
	const double same = stats_luma_mad_local(fl, base, &r, MIRROR_NONE, 2);
	const struct roi mr = side_roi_mirror(&r, base->width, base->height, MIRROR_H);
	judge_site_allowance(base, &mr, MIRROR_H, mo, judge_site_radius(mo, base->width, sensor_w), site, &hist);
	return judge_mirror(same, *right, wrong, 0, tol, *site);
}

START_TEST(test_bayer_mirror_binned)
{
	static uint8_t raw[SW * SH], rawf[SW * SH];
	struct frame base = { 0 }, fl = { 0 };
	double right, site;
	mosaic(raw, false);
	mosaic(rawf, true);
	convert(&base, V4L2_PIX_FMT_SRGGB8, raw, SW, SH, sizeof(raw));
	convert(&fl, V4L2_PIX_FMT_SRGGB8, rawf, SW, SH, sizeof(rawf));
	ck_assert_int_eq(judge_mosaic_of(base.fourcc, 0), MOSAIC_BINNED);
	ck_assert_uint_eq(judge_site_radius(MOSAIC_BINNED, base.width, SW), 1);
	/* the colour sites did not move: not the exact mirror */
	ck_assert_int_eq(mirror_verdict(&base, &fl, MOSAIC_NONE, SW, &right, &site), JUDGE_FAIL_NOT_MIRROR);
	ck_assert(right > JUDGE_HALF_CODE && site == 0);
	/* within one site of each colour: the mirror */
	ck_assert_int_eq(mirror_verdict(&base, &fl, MOSAIC_BINNED, SW, &right, &site), JUDGE_PASS);
	ck_assert(site > 0 && right <= JUDGE_HALF_CODE + site);

	/* the histogram (PB-4): the Cb distance of the binned flip is beyond the
	 * noise, within the allowance */
	const struct roi r = roi_centre(base.width, base.height);
	const struct roi mr = side_roi_mirror(&r, base.width, base.height, MIRROR_H);
	struct side_hist hb, hf;
	double luma, hist;
	side_hist_of(&base, &r, &hb);
	side_hist_of(&fl, &mr, &hf);
	const double d = side_hist_distance(&hb, &hf, NULL);
	judge_site_allowance(&base, &r, MIRROR_H, MOSAIC_BINNED, 1, &luma, &hist);
	ck_assert(d > JUDGE_HALF_CODE);
	ck_assert(d <= JUDGE_HALF_CODE + hist);

	/* negative: a flip that does nothing, or that shifts instead of
	 * mirroring, still fails with the allowance */
	ck_assert_int_eq(mirror_verdict(&base, &base, MOSAIC_BINNED, SW, &right, &site), JUDGE_FAIL_NO_EFFECT);
	static uint8_t shifted[SW * SH];
	for (unsigned y = 0; y < SH; y++)
		for (unsigned x = 0; x < SW; x++)
			shifted[y * SW + x] = raw[y * SW + (x + 32) % SW];
	convert(&fl, V4L2_PIX_FMT_SRGGB8, shifted, SW, SH, sizeof(shifted));
	ck_assert_int_eq(mirror_verdict(&base, &fl, MOSAIC_BINNED, SW, &right, &site), JUDGE_FAIL_NOT_MIRROR);
	/* negative: a flip that also darkens to a third changes the histogram
	 * beyond the allowance (which edges every 7.5 pixels make large) */
	ck_assert(hist < 30);
	for (size_t i = 0; i < sizeof(rawf); i++)
		rawf[i] = (uint8_t)(rawf[i] / 3);
	convert(&fl, V4L2_PIX_FMT_SRGGB8, rawf, SW, SH, sizeof(rawf));
	side_hist_of(&fl, &mr, &hf);
	ck_assert(side_hist_distance(&hb, &hf, NULL) > JUDGE_HALF_CODE + hist);
	frame_free(&base);
	frame_free(&fl);
}
END_TEST

START_TEST(test_bayer_mirror_debayered)
{
	static uint8_t raw[SW * SH], rawf[SW * SH], rgb[SW * SH * 3], rgbf[SW * SH * 3];
	struct frame base = { 0 }, fl = { 0 };
	double right, site;
	mosaic(raw, false);
	mosaic(rawf, true);
	debayer(raw, rgb);
	debayer(rawf, rgbf);
	convert(&base, V4L2_PIX_FMT_RGB24, rgb, SW, SH, sizeof(rgb));
	convert(&fl, V4L2_PIX_FMT_RGB24, rgbf, SW, SH, sizeof(rgbf));
	/* an RGB frame is debayered only when the source's bus code is Bayer */
	ck_assert_int_eq(judge_mosaic_of(V4L2_PIX_FMT_RGB24, 0), MOSAIC_NONE);
	ck_assert_int_eq(judge_mosaic_of(V4L2_PIX_FMT_RGB24, 0x2008 /* YUYV8_2X8 */), MOSAIC_NONE);
	ck_assert_int_eq(judge_mosaic_of(V4L2_PIX_FMT_RGB24, 0x3014 /* SRGGB8_1X8 */), MOSAIC_DEBAYERED);
	ck_assert_uint_eq(judge_site_radius(MOSAIC_DEBAYERED, SW, SW), 1);
	ck_assert_uint_eq(judge_site_radius(MOSAIC_DEBAYERED, 3 * SW, SW), 3);	/* scaled up */
	ck_assert_uint_eq(judge_site_radius(MOSAIC_NONE, SW, SW), 0);
	ck_assert_int_eq(mirror_verdict(&base, &fl, MOSAIC_NONE, SW, &right, &site), JUDGE_FAIL_NOT_MIRROR);
	ck_assert_int_eq(mirror_verdict(&base, &fl, MOSAIC_DEBAYERED, SW, &right, &site), JUDGE_PASS);
	/* negative: the unflipped picture is no mirror, allowance or not */
	ck_assert_int_eq(mirror_verdict(&base, &base, MOSAIC_DEBAYERED, SW, &right, &site), JUDGE_FAIL_NO_EFFECT);
	frame_free(&base);
	frame_free(&fl);
}
END_TEST

/* A debayered frame's bar edge is a mean of clamped sites: the widened
 * clip map counts it; a frame without a map is left alone. */
START_TEST(test_clip_widen)
{
	static uint8_t buf[W * H * 3];
	struct frame f = { 0 };
	static const uint8_t c[4][3] = { { 255, 0, 255 }, { 127, 127, 127 }, { 0, 255, 0 }, { 0, 255, 0 } };
	rgb_bars(buf, c);
	convert(&f, V4L2_PIX_FMT_RGB24, buf, W, H, sizeof(buf));
	ck_assert(frame_src_clipped(&f, 0, 0) && !frame_src_clipped(&f, 16, 5) && frame_src_clipped(&f, 32, 5));
	frame_clip_widen(&f, 1);
	ck_assert(frame_src_clipped(&f, 16, 5) && frame_src_clipped(&f, 31, 5));
	ck_assert(!frame_src_clipped(&f, 17, 5) && !frame_src_clipped(&f, 30, 5));
	frame_fill(&f, 128, 128, 128);
	frame_clip_widen(&f, 1);
	ck_assert(!f.has_clip && !frame_src_clipped(&f, 0, 0));
	frame_free(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rgb_judge");
	TCase *tc = tcase_create("rgb_judge");
	tcase_add_test(tc, test_rgb_clip_counted);
	tcase_add_test(tc, test_rgb_clip_discounted_by_side_rules);
	tcase_add_test(tc, test_bayer_mirror_binned);
	tcase_add_test(tc, test_bayer_mirror_debayered);
	tcase_add_test(tc, test_clip_widen);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
