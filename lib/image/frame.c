/* Frame layout and conversion into planar Y'CbCr 4:2:0 (see frame.h). */
#include "image/frame.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_NONE, K_PACKED422, K_SEMI420, K_PLANAR420, K_RGB24, K_GREY, K_BAYER8 };

struct layout {
	uint32_t fourcc;
	enum kind kind;
	bool multi;		/* separate buffers per plane (the ...M formats) */
	/* PACKED422: byte offsets of Y0, Cb, Y1, Cr in a 4-byte group.
	 * SEMI420: off[1] = Cb offset in a CbCr pair (0 or 1).
	 * PLANAR420: off[1] = 1 when the Cb plane comes first, 0 when Cr does.
	 * RGB24: off[0] = offset of red in a pixel (0 or 2).
	 * BAYER8: off[0], off[1] = where red and blue sit in a 2x2 cell
	 * (row * 2 + column); green takes the other two. */
	unsigned char off[4];
};

static const struct layout layouts[] = {
	{ V4L2_PIX_FMT_YUYV, K_PACKED422, false, { 0, 1, 2, 3 } },
	{ V4L2_PIX_FMT_YVYU, K_PACKED422, false, { 0, 3, 2, 1 } },
	{ V4L2_PIX_FMT_UYVY, K_PACKED422, false, { 1, 0, 3, 2 } },
	{ V4L2_PIX_FMT_VYUY, K_PACKED422, false, { 1, 2, 3, 0 } },
	{ V4L2_PIX_FMT_NV12, K_SEMI420, false, { 0, 0, 0, 0 } },
	{ V4L2_PIX_FMT_NV21, K_SEMI420, false, { 0, 1, 0, 0 } },
	{ V4L2_PIX_FMT_NV12M, K_SEMI420, true, { 0, 0, 0, 0 } },
	{ V4L2_PIX_FMT_NV21M, K_SEMI420, true, { 0, 1, 0, 0 } },
	{ V4L2_PIX_FMT_YUV420, K_PLANAR420, false, { 0, 1, 0, 0 } },
	{ V4L2_PIX_FMT_YVU420, K_PLANAR420, false, { 0, 0, 0, 0 } },
	{ V4L2_PIX_FMT_YUV420M, K_PLANAR420, true, { 0, 1, 0, 0 } },
	{ V4L2_PIX_FMT_YVU420M, K_PLANAR420, true, { 0, 0, 0, 0 } },
	{ V4L2_PIX_FMT_RGB24, K_RGB24, false, { 0, 0, 0, 0 } },
	{ V4L2_PIX_FMT_BGR24, K_RGB24, false, { 2, 0, 0, 0 } },
	{ V4L2_PIX_FMT_GREY, K_GREY, false, { 0, 0, 0, 0 } },
	/* 8-bit Bayer (a raw capture node behind a sensor): each 2x2 cell
	 * is one RGB pixel of a half-size frame, so colour is measured too. */
	{ V4L2_PIX_FMT_SBGGR8, K_BAYER8, false, { 3, 0, 0, 0 } },
	{ V4L2_PIX_FMT_SGBRG8, K_BAYER8, false, { 2, 1, 0, 0 } },
	{ V4L2_PIX_FMT_SGRBG8, K_BAYER8, false, { 1, 2, 0, 0 } },
	{ V4L2_PIX_FMT_SRGGB8, K_BAYER8, false, { 0, 3, 0, 0 } },
};

static const struct layout *find_layout(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].fourcc == fourcc)
			return &layouts[i];
	return NULL;
}

bool frame_layout_native(uint32_t fourcc)
{
	return find_layout(fourcc) != NULL;
}

bool frame_layout_mosaic(uint32_t fourcc)
{
	const struct layout *l = find_layout(fourcc);
	return l && l->kind == K_BAYER8;
}

const char *frame_fourcc_str(uint32_t fourcc, char buf[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((fourcc >> (8 * i)) & 0xff);
		buf[i] = (c >= 0x20 && c < 0x7f) ? c : '?';
	}
	buf[4] = 0;
	return buf;
}

unsigned frame_natural_stride(uint32_t fourcc, unsigned width)
{
	const struct layout *l = find_layout(fourcc);
	if (!l)
		return 0;
	switch (l->kind) {
	case K_PACKED422: return ((width + 1) & ~1u) * 2;
	case K_RGB24: return width * 3;
	default: return width;
	}
}

/* Chroma geometry of the 4:2:0 layouts, derived from the luma stride. */
static unsigned chroma_stride(const struct layout *l, unsigned stride)
{
	return l->kind == K_SEMI420 ? stride : (stride + 1) / 2;
}

size_t frame_image_size(uint32_t fourcc, unsigned width, unsigned height, unsigned stride)
{
	const struct layout *l = find_layout(fourcc);
	if (!l || !width || !height)
		return 0;
	if (!stride)
		stride = frame_natural_stride(fourcc, width);
	size_t luma = (size_t)stride * height, ch = (height + 1) / 2;
	switch (l->kind) {
	case K_SEMI420: return luma + (size_t)chroma_stride(l, stride) * ch;
	case K_PLANAR420: return luma + 2 * (size_t)chroma_stride(l, stride) * ch;
	default: return luma;
	}
}

int frame_alloc(struct frame *f, unsigned w, unsigned h)
{
	if (!w || !h || w > 65536 || h > 65536 || (uint64_t)w * h > (1u << 30))
		return EINVAL;
	unsigned cw = (w + 1) / 2, ch = (h + 1) / 2;
	size_t need = 2 * (size_t)w * h + 2 * (size_t)cw * ch;	/* y, cb, cr, clip */
	if (need > f->alloc || !f->y) {
		uint8_t *p = realloc(f->y, need);
		if (!p)
			return ENOMEM;
		f->y = p;
		f->alloc = need;
	}
	f->width = w;
	f->height = h;
	f->cw = cw;
	f->ch = ch;
	f->cb = f->y + (size_t)w * h;
	f->cr = f->cb + (size_t)cw * ch;
	f->clip = f->cr + (size_t)cw * ch;
	f->has_clip = false;
	return 0;
}

void frame_free(struct frame *f)
{
	free(f->y);
	memset(f, 0, sizeof(*f));
}

int frame_copy(struct frame *dst, const struct frame *src)
{
	if (dst == src)
		return 0;
	int e = frame_alloc(dst, src->width, src->height);
	if (e)
		return e;
	memcpy(dst->y, src->y, 2 * (size_t)src->width * src->height + 2 * (size_t)src->cw * src->ch);
	dst->has_chroma = src->has_chroma;
	dst->has_clip = src->has_clip;
	dst->fourcc = src->fourcc;
	dst->sequence = src->sequence;
	dst->timestamp_us = src->timestamp_us;
	dst->seq_from_driver = src->seq_from_driver;
	return 0;
}

void frame_fill(struct frame *f, uint8_t y, uint8_t cb, uint8_t cr)
{
	memset(f->y, y, (size_t)f->width * f->height);
	memset(f->cb, cb, (size_t)f->cw * f->ch);
	memset(f->cr, cr, (size_t)f->cw * f->ch);
	memset(f->clip, 0, (size_t)f->width * f->height);
	f->has_chroma = true;
	f->has_clip = false;
}

static inline uint8_t clip8(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* BT.601, limited range, 8-bit fixed point (x256), rounded. */
void frame_rgb_to_ycbcr(int r, int g, int b, uint8_t *y, uint8_t *cb, uint8_t *cr)
{
	*y = clip8(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
	*cb = clip8(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128);
	*cr = clip8(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128);
}

void frame_ycbcr_to_rgb(int y, int cb, int cr, uint8_t *r, uint8_t *g, uint8_t *b)
{
	int c = 298 * (y - 16) + 128, d = cb - 128, e = cr - 128;
	*r = clip8((c + 409 * e) >> 8);
	*g = clip8((c - 100 * d - 208 * e) >> 8);
	*b = clip8((c + 516 * d) >> 8);
}

/* ---- conversions ---- */

static void conv_packed422(struct frame *f, const struct layout *l, const uint8_t *src, unsigned stride)
{
	const unsigned w = f->width, h = f->height, pairs = w / 2;
	const unsigned oy0 = l->off[0], ou = l->off[1], oy1 = l->off[2], ov = l->off[3];
	for (unsigned y = 0; y < h; y += 2) {
		const uint8_t *a = src + (size_t)y * stride;
		const uint8_t *b = (y + 1 < h) ? a + stride : a;
		uint8_t *ya = f->y + (size_t)y * w, *yb = (y + 1 < h) ? ya + w : NULL;
		uint8_t *cb = f->cb + (size_t)(y / 2) * f->cw, *cr = f->cr + (size_t)(y / 2) * f->cw;
		for (unsigned i = 0; i < pairs; i++) {
			const uint8_t *pa = a + 4 * i, *pb = b + 4 * i;
			ya[2 * i] = pa[oy0];
			ya[2 * i + 1] = pa[oy1];
			cb[i] = (uint8_t)((pa[ou] + pb[ou] + 1) >> 1);
			cr[i] = (uint8_t)((pa[ov] + pb[ov] + 1) >> 1);
		}
		if (yb)
			for (unsigned i = 0; i < pairs; i++) {
				yb[2 * i] = b[4 * i + oy0];
				yb[2 * i + 1] = b[4 * i + oy1];
			}
		if (w & 1) {	/* odd width: the last group carries one pixel */
			const uint8_t *pa = a + 4 * pairs, *pb = b + 4 * pairs;
			ya[w - 1] = pa[oy0];
			if (yb)
				yb[w - 1] = pb[oy0];
			cb[pairs] = (uint8_t)((pa[ou] + pb[ou] + 1) >> 1);
			cr[pairs] = (uint8_t)((pa[ov] + pb[ov] + 1) >> 1);
		}
	}
}

static void copy_plane(uint8_t *dst, unsigned w, unsigned h, const uint8_t *src, unsigned stride)
{
	if (stride == w) {
		memcpy(dst, src, (size_t)w * h);
		return;
	}
	for (unsigned y = 0; y < h; y++)
		memcpy(dst + (size_t)y * w, src + (size_t)y * stride, w);
}

static void conv_semi420(struct frame *f, const struct layout *l, const uint8_t *luma, unsigned ls,
			 const uint8_t *uv, unsigned cs)
{
	copy_plane(f->y, f->width, f->height, luma, ls);
	const unsigned ocb = l->off[1], ocr = 1 - ocb;
	for (unsigned y = 0; y < f->ch; y++) {
		const uint8_t *p = uv + (size_t)y * cs;
		uint8_t *cb = f->cb + (size_t)y * f->cw, *cr = f->cr + (size_t)y * f->cw;
		for (unsigned i = 0; i < f->cw; i++) {
			cb[i] = p[2 * i + ocb];
			cr[i] = p[2 * i + ocr];
		}
	}
}

/* A sample at an end of the 8-bit code range: clipped, or indistinguishable
 * from clipped. */
static inline uint8_t at_end(int v)
{
	return v == 0 || v == 255;
}

static void conv_rgb24(struct frame *f, const struct layout *l, const uint8_t *src, unsigned stride)
{
	const unsigned w = f->width, h = f->height, ro = l->off[0], bo = 2 - ro;
	for (unsigned y = 0; y < h; y += 2) {
		const unsigned rows = (y + 1 < h) ? 2 : 1;
		for (unsigned x = 0; x < w; x += 2) {
			const unsigned cols = (x + 1 < w) ? 2 : 1;
			int sr = 0, sg = 0, sb = 0;
			for (unsigned dy = 0; dy < rows; dy++)
				for (unsigned dx = 0; dx < cols; dx++) {
					const uint8_t *p = src + (size_t)(y + dy) * stride + 3 * (size_t)(x + dx);
					int r = p[ro], g = p[1], b = p[bo];
					f->clip[(size_t)(y + dy) * w + x + dx] =
						(uint8_t)((at_end(r) + at_end(g) + at_end(b)) * (FRAME_CLIP_ALL / 3));
					sr += r;
					sg += g;
					sb += b;
					f->y[(size_t)(y + dy) * w + x + dx] =
						(uint8_t)(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
				}
			const int n = (int)(rows * cols), half = n / 2;
			uint8_t yy, cb, cr;
			frame_rgb_to_ycbcr((sr + half) / n, (sg + half) / n, (sb + half) / n, &yy, &cb, &cr);
			f->cb[(size_t)(y / 2) * f->cw + x / 2] = cb;
			f->cr[(size_t)(y / 2) * f->cw + x / 2] = cr;
		}
	}
}

/* A Bayer mosaic binned into RGB24 (one pixel per 2x2 cell), then as RGB24. */
static int conv_bayer8(struct frame *f, const struct layout *l, const uint8_t *src, unsigned stride)
{
	static const struct layout rgb = { V4L2_PIX_FMT_RGB24, K_RGB24, false, { 0, 0, 0, 0 } };
	const unsigned w = f->width, h = f->height, ro = l->off[0], bo = l->off[1];
	uint8_t *tmp = malloc((size_t)w * h * 3);
	if (!tmp)
		return ENOMEM;
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			const uint8_t *c0 = src + (size_t)(2 * y) * stride + 2 * x, *c1 = c0 + stride;
			const int v[4] = { c0[0], c0[1], c1[0], c1[1] };
			int g = 0;
			for (unsigned k = 0; k < 4; k++)
				if (k != ro && k != bo)
					g += v[k];
			uint8_t *o = tmp + ((size_t)y * w + x) * 3;
			o[0] = (uint8_t)v[ro];
			o[1] = (uint8_t)((g + 1) / 2);
			o[2] = (uint8_t)v[bo];
		}
	conv_rgb24(f, &rgb, tmp, w * 3);
	free(tmp);
	/* A cell's share counts its four samples: a green pair 255 + 200
	 * bins to 228, which no longer shows the clip. */
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			const uint8_t *c0 = src + (size_t)(2 * y) * stride + 2 * x, *c1 = c0 + stride;
			f->clip[(size_t)y * w + x] = (uint8_t)((at_end(c0[0]) + at_end(c0[1]) + at_end(c1[0]) + at_end(c1[1])) *
								   (FRAME_CLIP_ALL / 4));
		}
	return 0;
}

void frame_clip_widen(struct frame *f, unsigned reach)
{
	const unsigned w = f->width, h = f->height;
	uint8_t *tmp;
	if (!f->has_clip || !reach || !(tmp = malloc((size_t)w * h)))
		return;
	/* rows, then columns: the maximum over the square */
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint8_t m = 0;
			for (unsigned k = x > reach ? x - reach : 0; k <= x + reach && k < w; k++)
				m = f->clip[(size_t)y * w + k] > m ? f->clip[(size_t)y * w + k] : m;
			tmp[(size_t)y * w + x] = m;
		}
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint8_t m = 0;
			for (unsigned k = y > reach ? y - reach : 0; k <= y + reach && k < h; k++)
				m = tmp[(size_t)k * w + x] > m ? tmp[(size_t)k * w + x] : m;
			f->clip[(size_t)y * w + x] = m;
		}
	free(tmp);
}

int frame_convert(struct frame *f, const struct raw_image *r)
{
	const struct layout *l = find_layout(r->fourcc);
	if (!l || !r->width || !r->height || !r->nplanes || !r->plane[0])
		return EINVAL;
	const unsigned w = r->width, h = r->height, ch = (h + 1) / 2;
	const unsigned ls = r->stride[0] ? r->stride[0] : frame_natural_stride(r->fourcc, w);
	if (ls < frame_natural_stride(r->fourcc, w))
		return EINVAL;
	/* Locate and size-check every plane. */
	const uint8_t *p1 = NULL, *p2 = NULL;
	unsigned s1 = 0, s2 = 0;
	size_t luma_len = (size_t)ls * (h - 1) + frame_natural_stride(r->fourcc, w);
	if (l->kind == K_SEMI420 || l->kind == K_PLANAR420) {
		const unsigned cw = (w + 1) / 2;
		const unsigned cmin = l->kind == K_SEMI420 ? 2 * cw : cw;
		if (r->nplanes >= 2) {
			if (l->kind == K_PLANAR420 && r->nplanes < 3)
				return EINVAL;
			p1 = r->plane[1];
			p2 = r->nplanes >= 3 ? r->plane[2] : NULL;
			s1 = r->stride[1] ? r->stride[1] : chroma_stride(l, ls);
			s2 = r->stride[2] ? r->stride[2] : chroma_stride(l, ls);
			if (!p1 || (l->kind == K_PLANAR420 && !p2))
				return EINVAL;
			if (s1 < cmin || r->len[1] < (size_t)s1 * (ch - 1) + cmin)
				return EMSGSIZE;
			if (l->kind == K_PLANAR420 && (s2 < cmin || r->len[2] < (size_t)s2 * (ch - 1) + cmin))
				return EMSGSIZE;
		} else {
			if (l->multi)
				return EINVAL;
			s1 = s2 = chroma_stride(l, ls);
			size_t need = frame_image_size(r->fourcc, w, h, ls);
			if (r->len[0] < need)
				return EMSGSIZE;
			p1 = r->plane[0] + (size_t)ls * h;
			p2 = p1 + (size_t)s1 * ch;
		}
		luma_len = (size_t)ls * (h - 1) + w;
	}
	if (r->len[0] < luma_len)
		return EMSGSIZE;
	if (l->kind == K_BAYER8 && (w < 2 || h < 2))
		return EINVAL;
	int e = l->kind == K_BAYER8 ? frame_alloc(f, w / 2, h / 2) : frame_alloc(f, w, h);
	if (e)
		return e;
	f->fourcc = r->fourcc;
	f->has_chroma = l->kind != K_GREY;
	/* R'G'B' sources fill the clip map; the others leave it zero. */
	f->has_clip = l->kind == K_RGB24 || l->kind == K_BAYER8;
	if (!f->has_clip)
		memset(f->clip, 0, (size_t)f->width * f->height);
	switch (l->kind) {
	case K_PACKED422:
		conv_packed422(f, l, r->plane[0], ls);
		break;
	case K_SEMI420:
		conv_semi420(f, l, r->plane[0], ls, p1, s1);
		break;
	case K_PLANAR420: {
		/* off[1] = 1: Cb plane first (YUV420); 0: Cr first (YVU420). */
		const uint8_t *pcb = l->off[1] ? p1 : p2, *pcr = l->off[1] ? p2 : p1;
		unsigned scb = l->off[1] ? s1 : s2, scr = l->off[1] ? s2 : s1;
		copy_plane(f->y, w, h, r->plane[0], ls);
		copy_plane(f->cb, f->cw, f->ch, pcb, scb);
		copy_plane(f->cr, f->cw, f->ch, pcr, scr);
		break;
	}
	case K_RGB24:
		conv_rgb24(f, l, r->plane[0], ls);
		break;
	case K_GREY:
		copy_plane(f->y, w, h, r->plane[0], ls);
		memset(f->cb, 128, (size_t)f->cw * f->ch);
		memset(f->cr, 128, (size_t)f->cw * f->ch);
		break;
	case K_BAYER8:
		return conv_bayer8(f, l, r->plane[0], ls);
	case K_NONE:
		return EINVAL;
	}
	return 0;
}

size_t frame_pack(const struct frame *f, uint32_t fourcc, unsigned stride, uint8_t *buf, size_t buflen)
{
	const struct layout *l = find_layout(fourcc);
	if (!l || !f->y)
		return 0;
	const unsigned w = f->width, h = f->height;
	if (!stride)
		stride = frame_natural_stride(fourcc, w);
	if (stride < frame_natural_stride(fourcc, w))
		return 0;
	size_t need = frame_image_size(fourcc, w, h, stride);
	if (buflen < need)
		return 0;
	memset(buf, 0, need);
	switch (l->kind) {
	case K_PACKED422:
		for (unsigned y = 0; y < h; y++) {
			uint8_t *d = buf + (size_t)y * stride;
			const uint8_t *cb = f->cb + (size_t)(y / 2) * f->cw, *cr = f->cr + (size_t)(y / 2) * f->cw;
			for (unsigned x = 0; x < w; x += 2) {
				uint8_t *g = d + 2 * x;
				g[l->off[0]] = f->y[(size_t)y * w + x];
				g[l->off[2]] = x + 1 < w ? f->y[(size_t)y * w + x + 1] : 0;
				g[l->off[1]] = cb[x / 2];
				g[l->off[3]] = cr[x / 2];
			}
		}
		break;
	case K_SEMI420: {
		uint8_t *uv = buf + (size_t)stride * h;
		for (unsigned y = 0; y < h; y++)
			memcpy(buf + (size_t)y * stride, f->y + (size_t)y * w, w);
		for (unsigned y = 0; y < f->ch; y++)
			for (unsigned i = 0; i < f->cw; i++) {
				uv[(size_t)y * stride + 2 * i + l->off[1]] = f->cb[(size_t)y * f->cw + i];
				uv[(size_t)y * stride + 2 * i + 1 - l->off[1]] = f->cr[(size_t)y * f->cw + i];
			}
		break;
	}
	case K_PLANAR420: {
		const unsigned cs = chroma_stride(l, stride);
		uint8_t *p1 = buf + (size_t)stride * h, *p2 = p1 + (size_t)cs * f->ch;
		uint8_t *pcb = l->off[1] ? p1 : p2, *pcr = l->off[1] ? p2 : p1;
		for (unsigned y = 0; y < h; y++)
			memcpy(buf + (size_t)y * stride, f->y + (size_t)y * w, w);
		for (unsigned y = 0; y < f->ch; y++) {
			memcpy(pcb + (size_t)y * cs, f->cb + (size_t)y * f->cw, f->cw);
			memcpy(pcr + (size_t)y * cs, f->cr + (size_t)y * f->cw, f->cw);
		}
		break;
	}
	case K_RGB24:
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				size_t ci = (size_t)(y / 2) * f->cw + x / 2;
				uint8_t *p = buf + (size_t)y * stride + 3 * (size_t)x;
				frame_ycbcr_to_rgb(f->y[(size_t)y * w + x], f->cb[ci], f->cr[ci],
						   &p[l->off[0]], &p[1], &p[2 - l->off[0]]);
			}
		break;
	case K_GREY:
		for (unsigned y = 0; y < h; y++)
			memcpy(buf + (size_t)y * stride, f->y + (size_t)y * w, w);
		break;
	case K_BAYER8:	/* a mosaic is read, never made */
	case K_NONE:
		return 0;
	}
	return need;
}

int frame_write_pnm(const struct frame *f, const char *path)
{
	FILE *fp = fopen(path, "wb");
	if (!fp)
		return errno;
	const unsigned w = f->width, h = f->height;
	int err = 0;
	if (!f->has_chroma) {
		fprintf(fp, "P5\n%u %u\n255\n", w, h);
		if (fwrite(f->y, 1, (size_t)w * h, fp) != (size_t)w * h)
			err = EIO;
	} else {
		fprintf(fp, "P6\n%u %u\n255\n", w, h);
		uint8_t *line = malloc((size_t)w * 3);
		if (!line)
			err = ENOMEM;
		for (unsigned y = 0; !err && y < h; y++) {
			for (unsigned x = 0; x < w; x++) {
				size_t ci = (size_t)(y / 2) * f->cw + x / 2;
				frame_ycbcr_to_rgb(f->y[(size_t)y * w + x], f->cb[ci], f->cr[ci],
						   &line[3 * x], &line[3 * x + 1], &line[3 * x + 2]);
			}
			if (fwrite(line, 3, w, fp) != w)
				err = EIO;
		}
		free(line);
	}
	if (fclose(fp) && !err)
		err = errno;
	return err;
}
