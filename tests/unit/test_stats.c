/* Host unit tests: frame statistics on synthetic frames. */
#include <check.h>
#include "unit.h"
#include <linux/videodev2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/frame.h"
#include "image/stats.h"

static const double PI = 3.14159265358979323846;

static struct frame make(unsigned w, unsigned h, uint8_t y, uint8_t cb, uint8_t cr)
{
	struct frame f = { 0 };
	ck_assert_int_eq(frame_alloc(&f, w, h), 0);
	frame_fill(&f, y, cb, cr);
	return f;
}

static void set_luma_rect(struct frame *f, unsigned x0, unsigned y0, unsigned w, unsigned h, uint8_t v)
{
	for (unsigned y = y0; y < y0 + h; y++)
		memset(f->y + (size_t)y * f->width + x0, v, w);
}

/* Chroma of every sample set to magnitude m at angle deg. */
static void set_chroma_polar(struct frame *f, double m, double deg)
{
	int cb = (int)lround(128 + m * cos(deg * PI / 180)), cr = (int)lround(128 + m * sin(deg * PI / 180));
	memset(f->cb, cb, (size_t)f->cw * f->ch);
	memset(f->cr, cr, (size_t)f->cw * f->ch);
}

static double angle_diff(double a, double b)
{
	double d = fmod(a - b + 540.0, 360.0) - 180.0;
	return fabs(d);
}

START_TEST(test_roi)
{
	struct roi r = roi_centre(640, 360);
	ck_assert_uint_eq(r.x, 160);
	ck_assert_uint_eq(r.y, 90);
	ck_assert_uint_eq(r.w, 320);
	ck_assert_uint_eq(r.h, 180);
	/* the default keeps the top rows (vivid's on-screen text) out */
	r = roi_centre(1920, 1080);
	ck_assert_uint_ge(r.y, 200);
	/* fractions land on even pixels */
	struct roi_frac rf = { 0.101, 0.333, 0.5, 0.9 };
	r = roi_from_frac(&rf, 101, 99);
	ck_assert_uint_eq(r.x % 2, 0);
	ck_assert_uint_eq(r.y % 2, 0);
	ck_assert_uint_le(r.x + r.w, 101);
	ck_assert_uint_le(r.y + r.h, 99);
	/* a degenerate region still has 2x2 pixels inside the frame */
	struct roi_frac tiny = { 1.0, 1.0, 1.0, 1.0 };
	r = roi_from_frac(&tiny, 64, 48);
	ck_assert_uint_eq(r.w, 2);
	ck_assert_uint_eq(r.h, 2);
	ck_assert_uint_eq(r.x, 62);
	ck_assert_uint_eq(r.y, 46);
	struct frame f = make(64, 48, 0, 128, 128);
	ck_assert(roi_fits(&r, &f));
	struct roi out = { 60, 0, 8, 8 };
	ck_assert(!roi_fits(&out, &f));
	struct roi empty = { 0, 0, 0, 8 };
	ck_assert(!roi_fits(&empty, &f));
	frame_free(&f);
}
END_TEST

START_TEST(test_luma_mean_stdev_percentiles)
{
	/* region 40x20 at (10,10): left half 50, right half 150; outside 255 */
	struct frame f = make(64, 48, 255, 128, 128);
	set_luma_rect(&f, 10, 10, 20, 20, 50);
	set_luma_rect(&f, 30, 10, 20, 20, 150);
	struct roi r = { 10, 10, 40, 20 };
	struct frame_stats s;
	stats_frame(&f, &r, &s);
	ck_assert_uint_eq(s.n, 800);
	ck_assert_double_eq_tol(s.luma_mean, 100.0, 1e-9);
	ck_assert_double_eq_tol(s.luma_stdev, 50.0, 1e-9);
	ck_assert_uint_eq(stats_luma_percentile(&s, 0), 50);
	ck_assert_uint_eq(stats_luma_percentile(&s, 50), 50);	/* nearest rank 400 of 800 */
	ck_assert_uint_eq(stats_luma_percentile(&s, 50.2), 150);
	ck_assert_uint_eq(stats_luma_percentile(&s, 100), 150);
	ck_assert_double_eq_tol(stats_luma_fraction_at_or_below(&s, 50), 0.5, 1e-12);
	ck_assert_double_eq_tol(stats_luma_fraction_at_or_above(&s, 151), 0.0, 1e-12);
	ck_assert_double_eq_tol(stats_luma_fraction_at_or_above(&s, 150), 0.5, 1e-12);
	ck_assert_double_eq_tol(stats_luma_mean(&f, &r), 100.0, 1e-9);
	ck_assert_double_eq_tol(stats_luma_stdev(&f, &r), 50.0, 1e-9);
	/* the whole frame sees the 255 border */
	struct roi all = { 0, 0, 64, 48 };
	ck_assert(stats_luma_mean(&f, &all) > 200);
	frame_free(&f);
}
END_TEST

START_TEST(test_ramp_percentiles)
{
	/* 256 wide, each column x has luma x: uniform distribution 0..255 */
	struct frame f = make(256, 4, 0, 128, 128);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 256; x++)
			f.y[y * 256 + x] = (uint8_t)x;
	struct roi r = { 0, 0, 256, 4 };
	struct frame_stats s;
	stats_frame(&f, &r, &s);
	ck_assert_double_eq_tol(s.luma_mean, 127.5, 1e-9);
	ck_assert_double_eq_tol(s.luma_stdev, sqrt((256.0 * 256.0 - 1) / 12.0), 1e-9);
	ck_assert_uint_eq(stats_luma_percentile(&s, 25), 63);
	ck_assert_uint_eq(stats_luma_percentile(&s, 50), 127);
	ck_assert_uint_eq(stats_luma_percentile(&s, 75), 191);
	ck_assert_uint_eq(stats_luma_percentile(&s, 99), 253);
	ck_assert_uint_eq(stats_luma_percentile(&s, 1), 2);
	/* odd region width exercises the histogram's tail loop */
	struct roi odd = { 1, 1, 7, 3 };	/* values 1..7 */
	stats_frame(&f, &odd, &s);
	ck_assert_uint_eq(s.n, 21);
	ck_assert_double_eq_tol(s.luma_mean, 4.0, 1e-9);
	ck_assert_double_eq_tol(s.luma_stdev, 2.0, 1e-9);
	frame_free(&f);
}
END_TEST

START_TEST(test_chroma_and_hue)
{
	struct frame f = make(32, 32, 120, 128, 128);
	struct roi r = { 0, 0, 32, 32 };
	struct frame_stats s;
	/* grey: no chroma, no hue */
	stats_frame(&f, &r, &s);
	ck_assert_double_eq_tol(s.chroma_magnitude_mean, 0, 1e-12);
	ck_assert(isnan(s.hue_deg));
	ck_assert_uint_eq(s.n_hue, 0);
	/* (Cb, Cr) = (30, 40) from neutral: magnitude 50, angle atan2(40, 30) */
	frame_fill(&f, 120, 158, 168);
	stats_frame(&f, &r, &s);
	ck_assert_double_eq_tol(s.chroma_magnitude_mean, 50, 1e-6);
	ck_assert_double_eq_tol(s.hue_deg, atan2(40, 30) * 180 / PI, 1e-3);
	ck_assert_double_eq_tol(s.hue_resultant, 1.0, 1e-4);	/* Q14 unit vectors */
	ck_assert_double_eq_tol(s.cb_mean, 158, 1e-9);
	ck_assert_double_eq_tol(s.cr_mean, 168, 1e-9);
	ck_assert_double_eq_tol(stats_chroma_magnitude_mean(&f, &r), 50, 1e-6);
	/* every quadrant, including angles past 180 (atan2 argument order) */
	for (int deg = 0; deg < 360; deg += 45) {
		set_chroma_polar(&f, 60, deg);
		double h = stats_hue_mean_deg(&f, &r);
		ck_assert_msg(angle_diff(h, deg) < 1.0, "angle %d: got %.2f", deg, h);
	}
	frame_free(&f);
}
END_TEST

START_TEST(test_hue_circular_mean_wraps)
{
	/* half the samples at 350 degrees, half at 10: the circular mean is 0,
	 * an arithmetic mean of angles would say 180 */
	struct frame f = make(32, 32, 120, 128, 128);
	for (unsigned i = 0; i < f.cw * f.ch; i++) {
		double a = (i % 2 ? 350.0 : 10.0) * PI / 180;
		f.cb[i] = (uint8_t)lround(128 + 60 * cos(a));
		f.cr[i] = (uint8_t)lround(128 + 60 * sin(a));
	}
	struct roi r = { 0, 0, 32, 32 };
	struct frame_stats s;
	stats_frame(&f, &r, &s);
	ck_assert_msg(angle_diff(s.hue_deg, 0) < 1.0, "got %.2f", s.hue_deg);
	ck_assert_double_eq_tol(s.hue_resultant, cos(10 * PI / 180), 0.01);
	/* near-grey samples (a third of them, vector (2, 0)) do not pull the
	 * angle: counted, they would move 200 degrees to about 218 */
	set_chroma_polar(&f, 60, 200);
	for (unsigned i = 0; i < f.cw * f.ch; i += 3) {
		f.cb[i] = 130;
		f.cr[i] = 128;
	}
	stats_frame(&f, &r, &s);
	ck_assert_msg(angle_diff(s.hue_deg, 200) < 1.0, "got %.2f", s.hue_deg);
	frame_free(&f);
}
END_TEST

START_TEST(test_hue_rotation)
{
	/* four vertical bars with opposite chroma pairs (like colour bars): their
	 * mean hue is undefined, the rotation between two frames is not */
	struct frame a = make(64, 16, 100, 128, 128), b = make(64, 16, 100, 128, 128);
	const double bar_deg[4] = { 20, 110, 200, 290 }, rot = 30;
	for (unsigned y = 0; y < a.ch; y++)
		for (unsigned x = 0; x < a.cw; x++) {
			double d = bar_deg[x / 8];
			a.cb[y * a.cw + x] = (uint8_t)lround(128 + 50 * cos(d * PI / 180));
			a.cr[y * a.cw + x] = (uint8_t)lround(128 + 50 * sin(d * PI / 180));
			b.cb[y * b.cw + x] = (uint8_t)lround(128 + 50 * cos((d + rot) * PI / 180));
			b.cr[y * b.cw + x] = (uint8_t)lround(128 + 50 * sin((d + rot) * PI / 180));
		}
	struct roi r = { 0, 0, 64, 16 };
	struct frame_stats s;
	stats_frame(&a, &r, &s);
	ck_assert_msg(s.hue_resultant < 0.05, "bars cancel: resultant %.3f", s.hue_resultant);
	double got = stats_hue_rotation_deg(&a, &b, &r);
	ck_assert_msg(fabs(got - rot) < 1.0, "rotation %.2f", got);
	got = stats_hue_rotation_deg(&b, &a, &r);
	ck_assert_msg(fabs(got + rot) < 1.0, "reverse rotation %.2f", got);
	ck_assert_double_eq_tol(stats_hue_rotation_deg(&a, &a, &r), 0, 1e-9);
	/* a rotation of 150 degrees (beyond 90: sign of the real part matters) */
	for (unsigned i = 0; i < b.cw * b.ch; i++) {
		double d = bar_deg[(i % b.cw) / 8] + 150;
		b.cb[i] = (uint8_t)lround(128 + 50 * cos(d * PI / 180));
		b.cr[i] = (uint8_t)lround(128 + 50 * sin(d * PI / 180));
	}
	got = stats_hue_rotation_deg(&a, &b, &r);
	ck_assert_msg(fabs(got - 150) < 1.0, "rotation %.2f", got);
	/* no chroma: no rotation */
	frame_fill(&b, 100, 128, 128);
	ck_assert(isnan(stats_hue_rotation_deg(&a, &b, &r)));
	frame_free(&a);
	frame_free(&b);
}
END_TEST

/* Asymmetric pseudo-random luma. */
static void fill_noise(struct frame *f, uint32_t seed)
{
	for (size_t i = 0; i < (size_t)f->width * f->height; i++) {
		seed = seed * 1664525u + 1013904223u;
		f->y[i] = (uint8_t)(seed >> 24);
	}
}

START_TEST(test_mirror_detection)
{
	const unsigned W = 80, H = 60;
	struct frame ref = make(W, H, 0, 128, 128), hf = make(W, H, 0, 128, 128), vf = make(W, H, 0, 128, 128);
	fill_noise(&ref, 7);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			hf.y[y * W + x] = ref.y[y * W + (W - 1 - x)];
			vf.y[y * W + x] = ref.y[(H - 1 - y) * W + x];
		}
	/* an off-centre region: the mirrored pixels are outside it */
	struct roi r = { 4, 6, 30, 20 };
	ck_assert_double_eq_tol(stats_luma_mad(&hf, &ref, &r, MIRROR_H), 0, 1e-12);
	ck_assert_double_eq_tol(stats_luma_ncc(&hf, &ref, &r, MIRROR_H), 1.0, 1e-9);
	ck_assert(stats_luma_mad(&hf, &ref, &r, MIRROR_NONE) > 30);
	ck_assert(stats_luma_mad(&hf, &ref, &r, MIRROR_V) > 30);
	ck_assert(fabs(stats_luma_ncc(&hf, &ref, &r, MIRROR_V)) < 0.3);

	ck_assert_double_eq_tol(stats_luma_mad(&vf, &ref, &r, MIRROR_V), 0, 1e-12);
	ck_assert_double_eq_tol(stats_luma_ncc(&vf, &ref, &r, MIRROR_V), 1.0, 1e-9);
	ck_assert(stats_luma_mad(&vf, &ref, &r, MIRROR_NONE) > 30);
	ck_assert(stats_luma_mad(&vf, &ref, &r, MIRROR_H) > 30);

	ck_assert_double_eq_tol(stats_luma_mad(&ref, &ref, &r, MIRROR_NONE), 0, 1e-12);
	/* inverted picture: correlation -1 */
	for (size_t i = 0; i < (size_t)W * H; i++)
		hf.y[i] = (uint8_t)(255 - ref.y[i]);
	ck_assert_double_eq_tol(stats_luma_ncc(&hf, &ref, &r, MIRROR_NONE), -1.0, 1e-9);
	/* a left-right symmetric picture is its own mirror: what a probe must
	 * call inconclusive for hflip */
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W / 2; x++)
			ref.y[y * W + (W - 1 - x)] = ref.y[y * W + x];
	struct roi c = roi_centre(W, H);
	ck_assert_double_eq_tol(stats_luma_mad(&ref, &ref, &c, MIRROR_H), 0, 1e-12);
	ck_assert(stats_luma_mad(&ref, &ref, &c, MIRROR_V) > 30);
	/* flat: correlation undefined */
	frame_fill(&vf, 90, 128, 128);
	ck_assert(isnan(stats_luma_ncc(&vf, &ref, &r, MIRROR_NONE)));
	ck_assert_double_eq_tol(stats_luma_mad(&vf, &vf, &r, MIRROR_H), 0, 1e-12);
	/* different sizes */
	struct frame small = make(W / 2, H, 0, 128, 128);
	ck_assert(isnan(stats_luma_mad(&small, &ref, &r, MIRROR_NONE)));
	frame_free(&small);
	frame_free(&ref);
	frame_free(&hf);
	frame_free(&vf);
}
END_TEST

START_TEST(test_frame_difference)
{
	struct frame a = make(32, 16, 100, 120, 140), b = make(32, 16, 100, 120, 140);
	struct roi r = { 4, 2, 16, 8 };	/* 128 luma + 2 x 32 chroma samples */
	ck_assert_double_eq_tol(stats_frame_difference(&a, &b, &r), 0, 1e-12);
	frame_fill(&b, 110, 120, 140);
	ck_assert_double_eq_tol(stats_frame_difference(&a, &b, &r), 10.0 * 128 / 192, 1e-9);
	/* a change of colour alone shows */
	frame_fill(&b, 100, 126, 140);
	ck_assert_double_eq_tol(stats_frame_difference(&a, &b, &r), 6.0 * 32 / 192, 1e-9);
	/* outside the region: no difference */
	memset(b.cb, 120, (size_t)b.cw * b.ch);
	b.y[0] = 0;
	b.y[31] = 0;
	ck_assert_double_eq_tol(stats_frame_difference(&a, &b, &r), 0, 1e-12);
	frame_free(&a);
	frame_free(&b);
}
END_TEST

START_TEST(test_rgb_means)
{
	const unsigned w = 16, h = 8;
	uint8_t rgb[16 * 8 * 3];
	for (unsigned i = 0; i < w * h; i++) {	/* left half pure red, right half pure blue */
		bool left = (i % w) < w / 2;
		rgb[3 * i] = left ? 255 : 0;
		rgb[3 * i + 1] = 0;
		rgb[3 * i + 2] = left ? 0 : 255;
	}
	struct frame f = { 0 };
	struct raw_image ri = { .fourcc = V4L2_PIX_FMT_RGB24, .width = w, .height = h, .nplanes = 1,
				.plane = { rgb }, .len = { sizeof(rgb) } };
	ck_assert_int_eq(frame_convert(&f, &ri), 0);
	struct roi left = { 0, 0, 8, 8 }, all = { 0, 0, 16, 8 };
	double m[3];
	stats_rgb_means(&f, &left, m);
	ck_assert_msg(fabs(m[0] - 255) <= 3 && m[1] <= 3 && m[2] <= 3, "red: %.1f %.1f %.1f", m[0], m[1], m[2]);
	stats_rgb_means(&f, &all, m);
	ck_assert_msg(fabs(m[0] - 127.5) <= 3 && m[1] <= 3 && fabs(m[2] - 127.5) <= 3, "red+blue: %.1f %.1f %.1f",
		      m[0], m[1], m[2]);
	struct frame_stats s;
	stats_frame(&f, &all, &s);
	ck_assert_double_eq_tol(s.r_mean, m[0], 1e-9);
	ck_assert_double_eq_tol(s.b_mean, m[2], 1e-9);
	frame_free(&f);
}
END_TEST

START_TEST(test_mad_exact)
{
	/* b is 10 above a on one half and 10 below on the other: MAD 10 (a
	 * signed sum would cancel to 0) */
	struct frame a = make(40, 20, 100, 128, 128), b = make(40, 20, 110, 128, 128);
	set_luma_rect(&b, 0, 0, 20, 20, 90);
	struct roi r = { 0, 0, 40, 20 };
	ck_assert_double_eq_tol(stats_luma_mad(&a, &b, &r, MIRROR_NONE), 10.0, 1e-12);
	ck_assert_double_eq_tol(stats_luma_mad(&b, &a, &r, MIRROR_H), 10.0, 1e-12);
	struct similarity sim;
	stats_similarity(&a, &b, &r, MIRROR_V, &sim);
	ck_assert_double_eq_tol(sim.luma_mad, 10.0, 1e-12);
	/* b mirrored left-right is 110 on the left: against a ramp region */
	struct roi left = { 0, 0, 20, 20 };
	ck_assert_double_eq_tol(stats_luma_mad(&b, &b, &left, MIRROR_H), 20.0, 1e-12);
	/* rows longer than the internal run of the mirror path (2048) */
	struct frame w1 = make(5000, 2, 0, 128, 128), w2 = make(5000, 2, 0, 128, 128);
	for (unsigned x = 0; x < 5000; x++)
		for (unsigned y = 0; y < 2; y++) {
			w1.y[y * 5000 + x] = (uint8_t)(x * 7);
			w2.y[y * 5000 + (4999 - x)] = (uint8_t)(x * 7);
		}
	struct roi wr = { 3, 0, 4990, 2 };
	ck_assert_double_eq_tol(stats_luma_mad(&w2, &w1, &wr, MIRROR_H), 0, 1e-12);
	ck_assert(stats_luma_mad(&w2, &w1, &wr, MIRROR_NONE) > 20);
	frame_free(&w1);
	frame_free(&w2);
	frame_free(&a);
	frame_free(&b);
}
END_TEST

START_TEST(test_mad_local)
{
	/* b is a's left-right mirror moved by one pixel, v a's top-bottom
	 * mirror moved by two rows */
	const unsigned W = 60, H = 30;
	struct frame a = make(W, H, 0, 128, 128), b = make(W, H, 0, 128, 128), v = make(W, H, 0, 128, 128);
	fill_noise(&a, 11);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			b.y[y * W + x] = x ? a.y[y * W + (W - x)] : 0;
			v.y[y * W + x] = y >= 2 ? a.y[(H - 1 - (y - 2)) * W + x] : 0;
		}
	struct roi r = { 10, 5, 30, 15 };
	ck_assert(stats_luma_mad(&a, &b, &r, MIRROR_H) > 20);
	ck_assert_double_eq_tol(stats_luma_mad_local(&a, &b, &r, MIRROR_H, 0), stats_luma_mad(&a, &b, &r, MIRROR_H), 1e-12);
	ck_assert_double_eq_tol(stats_luma_mad_local(&a, &b, &r, MIRROR_H, 1), 0, 1e-12);
	ck_assert_double_eq_tol(stats_luma_mad_local(&a, &v, &r, MIRROR_V, 2), 0, 1e-12);
	ck_assert(stats_luma_mad_local(&a, &v, &r, MIRROR_V, 1) > 5);	/* two rows need radius 2 */
	/* the wrong axis and the unflipped frame stay far apart */
	ck_assert(stats_luma_mad_local(&a, &b, &r, MIRROR_V, 2) > 5);
	ck_assert(stats_luma_mad_local(&a, &b, &r, MIRROR_NONE, 2) > 5);
	/* vertical bars with a one-pixel glitch at every edge of the flipped
	 * frame (what vivid's flip does): radius 2 forgives it, radius 0 not */
	struct frame bars = make(W, H, 0, 128, 128), fl = make(W, H, 0, 128, 128);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			bars.y[y * W + x] = (uint8_t)(20 + 30 * (x / 10));
			unsigned sx = W - 1 - x;
			fl.y[y * W + x] = (uint8_t)(20 + 30 * (sx / 10));
		}
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 9; x + 1 < W; x += 10)
			fl.y[y * W + x] = fl.y[y * W + x + 2];
	struct roi all = { 0, 0, W, H };
	ck_assert(stats_luma_mad(&fl, &bars, &all, MIRROR_H) > 1);
	ck_assert_double_eq_tol(stats_luma_mad_local(&fl, &bars, &all, MIRROR_H, 2), 0, 1e-12);
	/* regions at the frame edge: the neighbourhood is clipped, not read outside */
	struct roi edge = { 0, 0, 4, 4 };
	ck_assert_double_eq_tol(stats_luma_mad_local(&a, &a, &edge, MIRROR_NONE, 3), 0, 1e-12);
	struct frame small = make(W / 2, H, 0, 128, 128);
	ck_assert(isnan(stats_luma_mad_local(&a, &small, &r, MIRROR_NONE, 1)));
	frame_free(&small);
	frame_free(&bars);
	frame_free(&fl);
	frame_free(&a);
	frame_free(&b);
	frame_free(&v);
}
END_TEST

/* The definition, written the slow way. */
static double naive_mad_local(const struct frame *a, const struct frame *b, const struct roi *r, enum mirror m, int R)
{
	const int W = (int)a->width, H = (int)a->height;
	double sum = 0;
	for (int y = (int)r->y; y < (int)(r->y + r->h); y++)
		for (int x = (int)r->x; x < (int)(r->x + r->w); x++) {
			int mx = m == MIRROR_H ? W - 1 - x : x, my = m == MIRROR_V ? H - 1 - y : y, best = 255;
			for (int yy = my - R; yy <= my + R; yy++)
				for (int xx = mx - R; xx <= mx + R; xx++)
					if (xx >= 0 && xx < W && yy >= 0 && yy < H && abs(a->y[y * W + x] - b->y[yy * W + xx]) < best)
						best = abs(a->y[y * W + x] - b->y[yy * W + xx]);
			sum += best;
		}
	return sum / ((double)r->w * r->h);
}

START_TEST(test_mad_local_matches_definition)
{
	uint32_t seed = 99;
	for (int iter = 0; iter < 60; iter++) {
		seed = seed * 1664525u + 1013904223u;
		unsigned W = 8 + (seed >> 24) % 40, H = 6 + (seed >> 16) % 20;
		struct frame a = make(W, H, 0, 128, 128), b = make(W, H, 0, 128, 128);
		fill_noise(&a, seed);
		/* b: a smoothed copy of a, so that neighbours matter */
		for (unsigned i = 0; i < W * H; i++)
			b.y[i] = (uint8_t)((a.y[i] + a.y[(i + 1) % (W * H)]) / 2);
		seed = seed * 1664525u + 1013904223u;
		struct roi r = { (seed >> 8) % W, (seed >> 16) % H, 0, 0 };
		r.w = 1 + (seed >> 4) % (W - r.x);
		r.h = 1 + (seed >> 20) % (H - r.y);
		enum mirror m = (enum mirror)(iter % 3);
		int R = iter % 4;
		double got = stats_luma_mad_local(&a, &b, &r, m, (unsigned)R), want = naive_mad_local(&a, &b, &r, m, R);
		ck_assert_msg(fabs(got - want) < 1e-9, "%ux%u roi %u,%u %ux%u mirror %d radius %d: got %f want %f", W, H,
			      r.x, r.y, r.w, r.h, (int)m, R, got, want);
		frame_free(&a);
		frame_free(&b);
	}
}
END_TEST

START_TEST(test_rgb_means_odd_region)
{
	/* inside the region one colour, outside another: a region with odd
	 * edges must not pick up a single outside pixel or a wrong chroma row */
	struct frame f = make(32, 24, 0, 0, 0);
	uint8_t yi, cbi, cri, yo, cbo, cro;
	frame_rgb_to_ycbcr(200, 40, 90, &yi, &cbi, &cri);
	frame_rgb_to_ycbcr(0, 255, 0, &yo, &cbo, &cro);
	struct roi r = { 5, 3, 15, 11 };	/* x 5..19, y 3..13 */
	for (unsigned y = 0; y < f.height; y++)
		for (unsigned x = 0; x < f.width; x++) {
			bool in = x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
			f.y[y * f.width + x] = in ? yi : yo;
		}
	/* chroma samples touching the region carry the inside colour */
	for (unsigned y = 0; y < f.ch; y++)
		for (unsigned x = 0; x < f.cw; x++) {
			bool in = 2 * x + 1 >= r.x && 2 * x < r.x + r.w && 2 * y + 1 >= r.y && 2 * y < r.y + r.h;
			f.cb[y * f.cw + x] = in ? cbi : cbo;
			f.cr[y * f.cw + x] = in ? cri : cro;
		}
	uint8_t er, eg, eb;
	frame_ycbcr_to_rgb(yi, cbi, cri, &er, &eg, &eb);
	double m[3];
	stats_rgb_means(&f, &r, m);
	ck_assert_msg(fabs(m[0] - er) < 1 && fabs(m[1] - eg) < 1 && fabs(m[2] - eb) < 1,
		      "got %.2f %.2f %.2f, want %u %u %u", m[0], m[1], m[2], er, eg, eb);
	frame_free(&f);
}
END_TEST

START_TEST(test_bad_region)
{
	struct frame f = make(16, 16, 50, 128, 128);
	struct roi r = { 10, 10, 10, 10 };	/* past the edge */
	struct frame_stats s;
	stats_frame(&f, &r, &s);
	ck_assert(isnan(s.luma_mean));
	ck_assert_uint_eq(s.n, 0);
	ck_assert(isnan(stats_luma_mad(&f, &f, &r, MIRROR_NONE)));
	ck_assert(isnan(stats_frame_difference(&f, &f, &r)));
	frame_free(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");
	tcase_add_test(tc, test_roi);
	tcase_add_test(tc, test_luma_mean_stdev_percentiles);
	tcase_add_test(tc, test_ramp_percentiles);
	tcase_add_test(tc, test_chroma_and_hue);
	tcase_add_test(tc, test_hue_circular_mean_wraps);
	tcase_add_test(tc, test_hue_rotation);
	tcase_add_test(tc, test_mirror_detection);
	tcase_add_test(tc, test_frame_difference);
	tcase_add_test(tc, test_rgb_means);
	tcase_add_test(tc, test_mad_exact);
	tcase_add_test(tc, test_mad_local);
	tcase_add_test(tc, test_mad_local_matches_definition);
	tcase_add_test(tc, test_rgb_means_odd_region);
	tcase_add_test(tc, test_bad_region);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
