/* Host unit tests: frame layouts and conversion into planar Y'CbCr 4:2:0. */
#include <check.h>
#include "unit.h"
#include <errno.h>
#include <linux/videodev2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/frame.h"
#include "image/stats.h"

/* BT.601 8-bit limited-range values of the 75% colour bars (the published
 * table, independent of the code's arithmetic). */
static const struct { uint8_t r, g, b, y, cb, cr; } bars75[] = {
	{ 191, 191, 191, 180, 128, 128 },	/* white */
	{ 191, 191, 0, 162, 44, 142 },		/* yellow */
	{ 0, 191, 191, 131, 156, 44 },		/* cyan */
	{ 0, 191, 0, 112, 72, 58 },		/* green */
	{ 191, 0, 191, 84, 184, 198 },		/* magenta */
	{ 191, 0, 0, 65, 100, 212 },		/* red */
	{ 0, 0, 191, 35, 212, 114 },		/* blue */
	{ 0, 0, 0, 16, 128, 128 },		/* black */
};

START_TEST(test_rgb_to_ycbcr_matches_bt601_table)
{
	for (size_t i = 0; i < sizeof(bars75) / sizeof(bars75[0]); i++) {
		uint8_t y, cb, cr;
		frame_rgb_to_ycbcr(bars75[i].r, bars75[i].g, bars75[i].b, &y, &cb, &cr);
		ck_assert_msg(abs(y - bars75[i].y) <= 1 && abs(cb - bars75[i].cb) <= 1 && abs(cr - bars75[i].cr) <= 1,
			      "bar %zu: got %u/%u/%u want %u/%u/%u", i, y, cb, cr, bars75[i].y, bars75[i].cb,
			      bars75[i].cr);
		uint8_t r, g, b;
		frame_ycbcr_to_rgb(bars75[i].y, bars75[i].cb, bars75[i].cr, &r, &g, &b);
		ck_assert_msg(abs(r - bars75[i].r) <= 2 && abs(g - bars75[i].g) <= 2 && abs(b - bars75[i].b) <= 2,
			      "bar %zu back to RGB: got %u,%u,%u", i, r, g, b);
	}
	/* full-scale extremes */
	uint8_t y, cb, cr;
	frame_rgb_to_ycbcr(255, 255, 255, &y, &cb, &cr);
	ck_assert_uint_eq(y, 235);
	frame_rgb_to_ycbcr(0, 0, 255, &y, &cb, &cr);
	ck_assert_uint_eq(cb, 240);
}
END_TEST

/* Hand-written 4x2 images with literal expected planes: catch swapped
 * chroma, wrong byte order, wrong plane order (independent of frame_pack). */
static void expect_planes(const struct frame *f, const uint8_t *ey, const uint8_t *ecb, const uint8_t *ecr,
			  const char *what)
{
	ck_assert_msg(f->width == 4 && f->height == 2 && f->cw == 2 && f->ch == 1, "%s: geometry", what);
	ck_assert_msg(!memcmp(f->y, ey, 8), "%s: luma %u %u %u %u / %u %u %u %u", what, f->y[0], f->y[1], f->y[2],
		      f->y[3], f->y[4], f->y[5], f->y[6], f->y[7]);
	ck_assert_msg(!memcmp(f->cb, ecb, 2), "%s: cb %u %u", what, f->cb[0], f->cb[1]);
	ck_assert_msg(!memcmp(f->cr, ecr, 2), "%s: cr %u %u", what, f->cr[0], f->cr[1]);
}

START_TEST(test_literal_layouts)
{
	const uint8_t ey[8] = { 10, 11, 12, 13, 20, 21, 22, 23 };
	/* 4:2:2 rows carry different chroma: the 4:2:0 sample is their rounded mean */
	const uint8_t ecb[2] = { 101, 111 }, ecr[2] = { 151, 161 };
	struct frame f = { 0 };
	struct raw_image r = { .width = 4, .height = 2, .nplanes = 1 };

	const uint8_t yuyv[16] = { 10, 100, 11, 150, 12, 110, 13, 160, 20, 101, 21, 151, 22, 111, 23, 161 };
	r.fourcc = V4L2_PIX_FMT_YUYV; r.plane[0] = yuyv; r.len[0] = sizeof(yuyv);
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	expect_planes(&f, ey, ecb, ecr, "YUYV");
	ck_assert(f.has_chroma);

	const uint8_t uyvy[16] = { 100, 10, 150, 11, 110, 12, 160, 13, 101, 20, 151, 21, 111, 22, 161, 23 };
	r.fourcc = V4L2_PIX_FMT_UYVY; r.plane[0] = uyvy; r.len[0] = sizeof(uyvy);
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	expect_planes(&f, ey, ecb, ecr, "UYVY");

	const uint8_t yvyu[16] = { 10, 150, 11, 100, 12, 160, 13, 110, 20, 151, 21, 101, 22, 161, 23, 111 };
	r.fourcc = V4L2_PIX_FMT_YVYU; r.plane[0] = yvyu; r.len[0] = sizeof(yvyu);
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	expect_planes(&f, ey, ecb, ecr, "YVYU");

	const uint8_t ecb1[2] = { 100, 110 }, ecr1[2] = { 150, 160 };
	const uint8_t nv12[12] = { 10, 11, 12, 13, 20, 21, 22, 23, 100, 150, 110, 160 };
	r.fourcc = V4L2_PIX_FMT_NV12; r.plane[0] = nv12; r.len[0] = sizeof(nv12);
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	expect_planes(&f, ey, ecb1, ecr1, "NV12");

	const uint8_t nv21[12] = { 10, 11, 12, 13, 20, 21, 22, 23, 150, 100, 160, 110 };
	r.fourcc = V4L2_PIX_FMT_NV21; r.plane[0] = nv21; r.len[0] = sizeof(nv21);
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	expect_planes(&f, ey, ecb1, ecr1, "NV21");

	const uint8_t yu12[12] = { 10, 11, 12, 13, 20, 21, 22, 23, 100, 110, 150, 160 };
	r.fourcc = V4L2_PIX_FMT_YUV420; r.plane[0] = yu12; r.len[0] = sizeof(yu12);
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	expect_planes(&f, ey, ecb1, ecr1, "YUV420");

	const uint8_t yv12[12] = { 10, 11, 12, 13, 20, 21, 22, 23, 150, 160, 100, 110 };
	r.fourcc = V4L2_PIX_FMT_YVU420; r.plane[0] = yv12; r.len[0] = sizeof(yv12);
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	expect_planes(&f, ey, ecb1, ecr1, "YVU420");

	/* the same with separate planes (YUV420M) */
	const uint8_t pcb[2] = { 100, 110 }, pcr[2] = { 150, 160 };
	struct raw_image m = { .fourcc = V4L2_PIX_FMT_YUV420M, .width = 4, .height = 2, .nplanes = 3,
			       .plane = { yu12, pcb, pcr }, .len = { 8, 2, 2 } };
	ck_assert_int_eq(frame_convert(&f, &m), 0);
	expect_planes(&f, ey, ecb1, ecr1, "YUV420M");

	const uint8_t grey[8] = { 10, 11, 12, 13, 20, 21, 22, 23 };
	const uint8_t neutral[2] = { 128, 128 };
	r.fourcc = V4L2_PIX_FMT_GREY; r.plane[0] = grey; r.len[0] = sizeof(grey);
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	expect_planes(&f, ey, neutral, neutral, "GREY");
	ck_assert(!f.has_chroma);
	frame_free(&f);
}
END_TEST

START_TEST(test_rgb24_and_bgr24_literal)
{
	/* 2x2 pure red in RGB24 and BGR24 byte orders */
	const uint8_t rgb[12] = { 191, 0, 0, 191, 0, 0, 191, 0, 0, 191, 0, 0 };
	const uint8_t bgr[12] = { 0, 0, 191, 0, 0, 191, 0, 0, 191, 0, 0, 191 };
	struct frame f = { 0 };
	struct raw_image r = { .fourcc = V4L2_PIX_FMT_RGB24, .width = 2, .height = 2, .nplanes = 1,
			       .plane = { rgb }, .len = { 12 } };
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	ck_assert_msg(abs(f.y[0] - 65) <= 1 && abs(f.cb[0] - 100) <= 1 && abs(f.cr[0] - 212) <= 1,
		      "RGB24 red: %u/%u/%u", f.y[0], f.cb[0], f.cr[0]);
	r.fourcc = V4L2_PIX_FMT_BGR24;
	r.plane[0] = bgr;
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	ck_assert_msg(abs(f.y[0] - 65) <= 1 && abs(f.cb[0] - 100) <= 1 && abs(f.cr[0] - 212) <= 1,
		      "BGR24 red: %u/%u/%u", f.y[0], f.cb[0], f.cr[0]);
	frame_free(&f);
}
END_TEST

/* A 64x48 RGB picture made of 2x2 blocks of pseudo-random colours (so
 * 4:2:0 loses nothing), with an odd stride. */
static uint8_t *make_rgb(unsigned w, unsigned h, unsigned stride, bool bgr)
{
	uint8_t *p = calloc((size_t)stride * h, 1);
	uint32_t s = 12345;
	for (unsigned by = 0; by < h; by += 2)
		for (unsigned bx = 0; bx < w; bx += 2) {
			uint8_t c[3];
			for (int k = 0; k < 3; k++) {
				s = s * 1103515245u + 12345u;
				c[k] = (uint8_t)(s >> 16);
			}
			for (unsigned dy = 0; dy < 2; dy++)
				for (unsigned dx = 0; dx < 2; dx++) {
					uint8_t *q = p + (size_t)(by + dy) * stride + 3 * (bx + dx);
					q[0] = bgr ? c[2] : c[0];
					q[1] = c[1];
					q[2] = bgr ? c[0] : c[2];
				}
		}
	return p;
}

static bool frames_equal(const struct frame *a, const struct frame *b)
{
	return a->width == b->width && a->height == b->height &&
	       !memcmp(a->y, b->y, (size_t)a->width * a->height) &&
	       !memcmp(a->cb, b->cb, (size_t)a->cw * a->ch) && !memcmp(a->cr, b->cr, (size_t)a->cw * a->ch);
}

/* A Bayer mosaic: each 2x2 cell is one pixel of a half-size colour frame,
 * red and blue where the order puts them, green the mean of the other two. */
START_TEST(test_bayer_cells_binned)
{
	/* 4x2 SRGGB8: cell 0 pure red (R G / G B = 191 0 / 0 0), cell 1 grey */
	const uint8_t rggb[8] = { 191, 0, 100, 100, 0, 0, 100, 100 };
	const uint8_t bggr[8] = { 0, 0, 100, 100, 0, 191, 100, 100 };
	struct frame f = { 0 };
	struct raw_image r = { .fourcc = V4L2_PIX_FMT_SRGGB8, .width = 4, .height = 2, .nplanes = 1,
			       .plane = { rggb }, .len = { 8 } };
	ck_assert(frame_layout_native(V4L2_PIX_FMT_SGRBG8));
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	ck_assert_uint_eq(f.width, 2);
	ck_assert_uint_eq(f.height, 1);
	ck_assert(f.has_chroma);
	uint8_t y, cb, cr;
	frame_rgb_to_ycbcr(191, 0, 0, &y, &cb, &cr);
	ck_assert_msg(abs(f.y[0] - y) <= 1, "red cell luma %u, want %u", f.y[0], y);
	frame_rgb_to_ycbcr(100, 100, 100, &y, &cb, &cr);
	ck_assert_msg(abs(f.y[1] - y) <= 1, "grey cell luma %u, want %u", f.y[1], y);
	ck_assert_msg(f.cr[0] > 140, "the chroma of the pair leans red: Cr %u", f.cr[0]);
	r.fourcc = V4L2_PIX_FMT_SBGGR8;
	r.plane[0] = bggr;
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	frame_rgb_to_ycbcr(191, 0, 0, &y, &cb, &cr);
	ck_assert_msg(abs(f.y[0] - y) <= 1, "BGGR red cell luma %u, want %u", f.y[0], y);
	frame_free(&f);
}
END_TEST

START_TEST(test_every_layout_gives_the_same_stats)
{
	const unsigned w = 64, h = 48, rs = 3 * w + 5;
	uint8_t *rgb = make_rgb(w, h, rs, false), *bgr = make_rgb(w, h, rs, true);
	struct frame ref = { 0 }, f = { 0 };
	struct raw_image r = { .fourcc = V4L2_PIX_FMT_RGB24, .width = w, .height = h, .nplanes = 1,
			       .plane = { rgb }, .stride = { rs }, .len = { (size_t)rs * h } };
	ck_assert_int_eq(frame_convert(&ref, &r), 0);
	r.fourcc = V4L2_PIX_FMT_BGR24;
	r.plane[0] = bgr;
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	ck_assert_msg(frames_equal(&ref, &f), "BGR24 differs from RGB24");

	struct roi roi = { 6, 4, 40, 30 };
	struct frame_stats sref, s;
	stats_frame(&ref, &roi, &sref);
	ck_assert(sref.luma_stdev > 10 && sref.chroma_magnitude_mean > 10);	/* not a flat picture */

	const uint32_t fmts[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YVYU, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_VYUY,
				  V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV21, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char s4[5];
		/* padded stride with garbage in the padding */
		unsigned stride = frame_natural_stride(fmts[i], w) + 16;
		size_t len = frame_image_size(fmts[i], w, h, stride);
		uint8_t *buf = malloc(len);
		memset(buf, 0xee, len);
		ck_assert_uint_eq(frame_pack(&ref, fmts[i], stride, buf, len), len);
		struct raw_image p = { .fourcc = fmts[i], .width = w, .height = h, .nplanes = 1,
				       .plane = { buf }, .stride = { stride }, .len = { len } };
		ck_assert_int_eq(frame_convert(&f, &p), 0);
		ck_assert_msg(frames_equal(&ref, &f), "%s differs", frame_fourcc_str(fmts[i], s4));
		stats_frame(&f, &roi, &s);
		ck_assert_msg(s.luma_mean == sref.luma_mean && s.luma_stdev == sref.luma_stdev &&
			      s.hue_deg == sref.hue_deg && s.chroma_magnitude_mean == sref.chroma_magnitude_mean &&
			      s.r_mean == sref.r_mean, "%s: different statistics", frame_fourcc_str(fmts[i], s4));
		free(buf);
	}
	/* RGB packed from the frame and read back: within rounding of BT.601 */
	size_t len = frame_image_size(V4L2_PIX_FMT_BGR24, w, h, 0);
	uint8_t *buf = malloc(len);
	ck_assert_uint_eq(frame_pack(&ref, V4L2_PIX_FMT_BGR24, 0, buf, len), len);
	struct raw_image p = { .fourcc = V4L2_PIX_FMT_BGR24, .width = w, .height = h, .nplanes = 1,
			       .plane = { buf }, .len = { len } };
	ck_assert_int_eq(frame_convert(&f, &p), 0);
	stats_frame(&f, &roi, &s);
	ck_assert_double_eq_tol(s.luma_mean, sref.luma_mean, 1.5);
	ck_assert_double_eq_tol(s.cb_mean, sref.cb_mean, 1.5);
	ck_assert_double_eq_tol(s.cr_mean, sref.cr_mean, 1.5);
	free(buf);
	free(rgb);
	free(bgr);
	frame_free(&ref);
	frame_free(&f);
}
END_TEST

START_TEST(test_sizes_and_errors)
{
	ck_assert_uint_eq(frame_image_size(V4L2_PIX_FMT_YUYV, 640, 480, 0), 614400);
	ck_assert_uint_eq(frame_image_size(V4L2_PIX_FMT_NV12, 640, 480, 0), 460800);
	ck_assert_uint_eq(frame_image_size(V4L2_PIX_FMT_YUV420, 640, 480, 0), 460800);
	ck_assert_uint_eq(frame_image_size(V4L2_PIX_FMT_RGB24, 640, 480, 0), 921600);
	ck_assert_uint_eq(frame_image_size(V4L2_PIX_FMT_GREY, 640, 480, 0), 307200);
	ck_assert_uint_eq(frame_image_size(V4L2_PIX_FMT_MJPEG, 640, 480, 0), 0);
	ck_assert(frame_layout_native(V4L2_PIX_FMT_UYVY));
	ck_assert(!frame_layout_native(V4L2_PIX_FMT_MJPEG));

	uint8_t buf[64] = { 0 };
	struct frame f = { 0 };
	struct raw_image r = { .fourcc = V4L2_PIX_FMT_YUYV, .width = 8, .height = 4, .nplanes = 1,
			       .plane = { buf }, .len = { 63 } };
	ck_assert_int_eq(frame_convert(&f, &r), EMSGSIZE);	/* needs 64 */
	r.len[0] = 64;
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	r.fourcc = V4L2_PIX_FMT_NV12;	/* needs 48 */
	r.len[0] = 47;
	ck_assert_int_eq(frame_convert(&f, &r), EMSGSIZE);
	r.len[0] = 48;
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	r.fourcc = V4L2_PIX_FMT_MJPEG;
	ck_assert_int_eq(frame_convert(&f, &r), EINVAL);
	r.fourcc = V4L2_PIX_FMT_YUYV;
	r.stride[0] = 8;	/* below 2 bytes per pixel */
	ck_assert_int_eq(frame_convert(&f, &r), EINVAL);
	frame_free(&f);
}
END_TEST

START_TEST(test_odd_size_rgb)
{
	/* 5x3 uniform colour: partial 2x2 blocks at the right and bottom edges */
	const unsigned w = 5, h = 3;
	uint8_t rgb[45];
	for (unsigned i = 0; i < w * h; i++) {
		rgb[3 * i] = 0;
		rgb[3 * i + 1] = 191;
		rgb[3 * i + 2] = 0;
	}
	struct frame f = { 0 };
	struct raw_image r = { .fourcc = V4L2_PIX_FMT_RGB24, .width = w, .height = h, .nplanes = 1,
			       .plane = { rgb }, .len = { sizeof(rgb) } };
	ck_assert_int_eq(frame_convert(&f, &r), 0);
	ck_assert_uint_eq(f.cw, 3);
	ck_assert_uint_eq(f.ch, 2);
	for (unsigned i = 0; i < w * h; i++)
		ck_assert_msg(abs(f.y[i] - 112) <= 1, "y[%u] = %u", i, f.y[i]);
	for (unsigned i = 0; i < f.cw * f.ch; i++)
		ck_assert_msg(abs(f.cb[i] - 72) <= 1 && abs(f.cr[i] - 58) <= 1, "chroma %u = %u/%u", i, f.cb[i],
			      f.cr[i]);
	frame_free(&f);
}
END_TEST

START_TEST(test_write_pnm)
{
	struct frame f = { 0 };
	ck_assert_int_eq(frame_alloc(&f, 4, 2), 0);
	frame_fill(&f, 180, 128, 128);
	char path[] = "/tmp/test_frame_XXXXXX";
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	close(fd);
	ck_assert_int_eq(frame_write_pnm(&f, path), 0);
	FILE *fp = fopen(path, "rb");
	char hdr[16] = { 0 };
	unsigned char px[3];
	ck_assert(fread(hdr, 1, 11, fp) == 11);
	ck_assert_str_eq(hdr, "P6\n4 2\n255\n");
	ck_assert(fread(px, 1, 3, fp) == 3);
	ck_assert_msg(abs(px[0] - 191) <= 2 && px[0] == px[1] && px[1] == px[2], "pixel %u,%u,%u", px[0], px[1], px[2]);
	fclose(fp);
	unlink(path);
	frame_free(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("frame");
	TCase *tc = tcase_create("frame");
	tcase_add_test(tc, test_rgb_to_ycbcr_matches_bt601_table);
	tcase_add_test(tc, test_literal_layouts);
	tcase_add_test(tc, test_rgb24_and_bgr24_literal);
	tcase_add_test(tc, test_every_layout_gives_the_same_stats);
	tcase_add_test(tc, test_bayer_cells_binned);
	tcase_add_test(tc, test_sizes_and_errors);
	tcase_add_test(tc, test_odd_size_rgb);
	tcase_add_test(tc, test_write_pnm);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
