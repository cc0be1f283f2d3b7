/* bench-stats: how fast are the frame statistics, against a memcpy of the
 * same captured frame? Run by `make bench`; figures go to bench/RESULTS.md.
 *
 * For 640x480 and 1920x1080 a YUYV frame (what vivid and most webcams
 * deliver) holding 75% colour bars plus noise is built once. Each operation
 * is timed in batches of at least 50 ms; the best batch counts (least
 * disturbed by other load). The reference is memcpy of the YUYV frame
 * (2 bytes a pixel) into another buffer; a ratio of 3 means the operation
 * takes as long as three such copies.
 *
 * usage: bench-stats [--quick] */
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image/frame.h"
#include "image/stats.h"

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* What a timed operation sees. */
struct ctx {
	const uint8_t *raw;
	size_t raw_len;
	uint8_t *dst;
	struct raw_image ri;
	struct frame a, b, conv;
	struct roi full, centre;
	volatile double sink;
};

typedef void (*op_fn)(struct ctx *c);

static void op_memcpy(struct ctx *c) { memcpy(c->dst, c->raw, c->raw_len); c->sink += c->dst[c->raw_len / 2]; }
static void op_convert(struct ctx *c) { frame_convert(&c->conv, &c->ri); c->sink += c->conv.y[7]; }
static void op_stats_full(struct ctx *c) { struct frame_stats s; stats_frame(&c->a, &c->full, &s); c->sink += s.luma_mean; }
static void op_stats_centre(struct ctx *c) { struct frame_stats s; stats_frame(&c->a, &c->centre, &s); c->sink += s.luma_mean; }
static void op_luma_full(struct ctx *c) { struct frame_stats s; stats_frame_luma(&c->a, &c->full, &s); c->sink += s.luma_mean; }
static void op_chroma_full(struct ctx *c) { c->sink += stats_chroma_magnitude_mean(&c->a, &c->full); }
static void op_rgb_full(struct ctx *c) { double m[3]; stats_rgb_means(&c->a, &c->full, m); c->sink += m[0]; }
static void op_mad3_full(struct ctx *c)
{
	for (int m = MIRROR_NONE; m <= MIRROR_V; m++)
		c->sink += stats_luma_mad(&c->a, &c->b, &c->full, (enum mirror)m);
}
static void op_mad3_centre(struct ctx *c)
{
	for (int m = MIRROR_NONE; m <= MIRROR_V; m++)
		c->sink += stats_luma_mad(&c->a, &c->b, &c->centre, (enum mirror)m);
}
static void op_local3_centre(struct ctx *c)
{
	for (int m = MIRROR_NONE; m <= MIRROR_V; m++)
		c->sink += stats_luma_mad_local(&c->a, &c->b, &c->centre, (enum mirror)m, 2);
}
static void op_sim3_full(struct ctx *c)
{
	struct similarity s;
	for (int m = MIRROR_NONE; m <= MIRROR_V; m++) {
		stats_similarity(&c->a, &c->b, &c->full, (enum mirror)m, &s);
		c->sink += s.luma_ncc;
	}
}
static void op_diff_full(struct ctx *c) { c->sink += stats_frame_difference(&c->a, &c->b, &c->full); }
static void op_huerot_full(struct ctx *c) { c->sink += stats_hue_rotation_deg(&c->a, &c->b, &c->full); }

/* Seconds per call: the best of `batches` batches of >= min_s each. */
static double time_op(struct ctx *c, op_fn fn, int batches, double min_s)
{
	fn(c);	/* warm up */
	double best = 1e30;
	for (int b = 0; b < batches; b++) {
		long n = 0;
		double t0 = now_s(), t;
		do {
			fn(c);
			n++;
			t = now_s() - t0;
		} while (t < min_s);
		if (t / n < best)
			best = t / n;
	}
	return best;
}

static void make_yuyv(uint8_t *buf, unsigned w, unsigned h, uint32_t seed)
{
	/* 75% bars (BT.601 values), noise of +-4 on luma */
	static const uint8_t bars[8][3] = { { 180, 128, 128 }, { 162, 44, 142 }, { 131, 156, 44 }, { 112, 72, 58 },
					    { 84, 184, 198 }, { 65, 100, 212 }, { 35, 212, 114 }, { 16, 128, 128 } };
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x += 2) {
			const uint8_t *c = bars[x * 8 / w];
			uint8_t *p = buf + ((size_t)y * w + x) * 2;
			seed = seed * 1664525u + 1013904223u;
			p[0] = (uint8_t)(c[0] + ((seed >> 24) & 7) - 4);
			p[1] = c[1];
			p[2] = (uint8_t)(c[0] + ((seed >> 16) & 7) - 4);
			p[3] = c[2];
		}
}

int main(int argc, char **argv)
{
	const bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	const int batches = quick ? 2 : 7;
	const double min_s = quick ? 0.01 : 0.05;
	static const unsigned sizes[][2] = { { 640, 480 }, { 1920, 1080 } };
	static const struct { const char *name; op_fn fn; } ops[] = {
		{ "memcpy YUYV frame (reference)", op_memcpy },
		{ "convert YUYV -> frame", op_convert },
		{ "stats_frame, whole frame", op_stats_full },
		{ "stats_frame, centre patch", op_stats_centre },
		{ "stats_frame_luma, whole frame", op_luma_full },
		{ "chroma part alone (stats_chroma_magnitude_mean), whole frame", op_chroma_full },
		{ "R'G'B' part alone (stats_rgb_means), whole frame", op_rgb_full },
		{ "stats_luma_mad x3 (as is, H, V mirror), whole frame", op_mad3_full },
		{ "stats_luma_mad x3 (as is, H, V mirror), centre patch", op_mad3_centre },
		{ "stats_luma_mad_local x3, radius 2 (the flip probe), centre patch", op_local3_centre },
		{ "stats_similarity x3 (MAD + NCC), whole frame", op_sim3_full },
		{ "stats_frame_difference, whole frame", op_diff_full },
		{ "stats_hue_rotation_deg, whole frame", op_huerot_full },
	};
	const size_t nops = sizeof(ops) / sizeof(ops[0]);

	printf("bench-stats: best of %d batches of >= %.0f ms; ratio = time / memcpy of the same YUYV frame\n\n",
	       batches, min_s * 1000);
	printf("| operation | size | time (us) | ratio to memcpy |\n|---|---|---:|---:|\n");
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		const unsigned w = sizes[si][0], h = sizes[si][1];
		struct ctx c;
		memset(&c, 0, sizeof(c));
		c.raw_len = (size_t)w * h * 2;
		uint8_t *raw = malloc(c.raw_len), *raw2 = malloc(c.raw_len);
		c.dst = malloc(c.raw_len);
		if (!raw || !raw2 || !c.dst)
			return 1;
		make_yuyv(raw, w, h, 1);
		make_yuyv(raw2, w, h, 2);
		c.raw = raw;
		c.ri = (struct raw_image){ .fourcc = V4L2_PIX_FMT_YUYV, .width = w, .height = h, .nplanes = 1,
					   .plane = { raw }, .len = { c.raw_len } };
		struct raw_image r2 = c.ri;
		r2.plane[0] = raw2;
		if (frame_convert(&c.a, &c.ri) || frame_convert(&c.b, &r2)) {
			fprintf(stderr, "bench-stats: conversion failed\n");
			return 1;
		}
		c.full = (struct roi){ 0, 0, w, h };
		c.centre = roi_centre(w, h);
		double base = 0;
		for (size_t i = 0; i < nops; i++) {
			double t = time_op(&c, ops[i].fn, batches, min_s);
			if (i == 0)
				base = t;
			printf("| %s | %ux%u | %.1f | %.2f |\n", ops[i].name, w, h, t * 1e6, t / base);
		}
		free(raw);
		free(raw2);
		free(c.dst);
		frame_free(&c.a);
		frame_free(&c.b);
		frame_free(&c.conv);
	}
	return 0;
}
