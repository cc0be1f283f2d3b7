/* Frame statistics over a region of interest (see stats.h).
 *
 * Speed: the luma histogram uses four interleaved sub-histograms (so
 * consecutive equal pixels do not serialise on one counter), sums are
 * derived from the histogram, chroma work is done once per 4:2:0 sample,
 * and the two-frame loops keep per-row 32-bit accumulators that the
 * compiler can vectorise. */
#if defined(__GNUC__) && !defined(__clang__)
/* Vectorise the row loops; sqrtf without errno so it vectorises too. */
#pragma GCC optimize("O3", "no-math-errno")
#endif
#include "image/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double RAD2DEG = 57.295779513082320876798154814105;

/* ---- regions ---- */

static unsigned frac_to_px(double f, unsigned size)
{
	if (!(f > 0))	/* also NAN */
		return 0;
	if (f >= 1)
		return size;
	return (unsigned)(f * size + 0.5);
}

struct roi roi_from_frac(const struct roi_frac *rf, unsigned width, unsigned height)
{
	struct roi r = { 0, 0, width, height };
	if (!width || !height)
		return r;
	unsigned x0 = frac_to_px(rf->x0, width) & ~1u, y0 = frac_to_px(rf->y0, height) & ~1u;
	unsigned x1 = (frac_to_px(rf->x1, width) + 1) & ~1u, y1 = (frac_to_px(rf->y1, height) + 1) & ~1u;
	if (x1 > width)
		x1 = width;
	if (y1 > height)
		y1 = height;
	if (x1 < x0 + 2) {	/* too small: at least two pixels, inside the frame */
		x1 = x0 + 2 <= width ? x0 + 2 : width;
		x0 = x1 >= 2 ? x1 - 2 : 0;
	}
	if (y1 < y0 + 2) {
		y1 = y0 + 2 <= height ? y0 + 2 : height;
		y0 = y1 >= 2 ? y1 - 2 : 0;
	}
	r.x = x0;
	r.y = y0;
	r.w = x1 - x0;
	r.h = y1 - y0;
	return r;
}

struct roi roi_centre(unsigned width, unsigned height)
{
	return roi_from_frac(&ROI_FRAC_CENTRE, width, height);
}

bool roi_fits(const struct roi *r, const struct frame *f)
{
	return f && f->y && r && r->w && r->h && r->x < f->width && r->y < f->height &&
	       r->w <= f->width - r->x && r->h <= f->height - r->y;
}

/* Chroma samples covering the luma region. */
static void chroma_rect(const struct roi *r, unsigned *cx0, unsigned *cy0, unsigned *cx1, unsigned *cy1)
{
	*cx0 = r->x / 2;
	*cy0 = r->y / 2;
	*cx1 = (r->x + r->w + 1) / 2;
	*cy1 = (r->y + r->h + 1) / 2;
}

/* ---- one frame ---- */

static void luma_hist(const struct frame *f, const struct roi *r, struct frame_stats *s)
{
	uint32_t h[4][256];
	memset(h, 0, sizeof(h));
	for (unsigned y = r->y; y < r->y + r->h; y++) {
		const uint8_t *p = f->y + (size_t)y * f->width + r->x;
		unsigned x = 0, n = r->w;
		for (; x + 8 <= n; x += 8) {	/* one 8-byte load, byte order irrelevant */
			uint64_t v;
			memcpy(&v, p + x, 8);
			h[0][v & 0xff]++;
			h[1][(v >> 8) & 0xff]++;
			h[2][(v >> 16) & 0xff]++;
			h[3][(v >> 24) & 0xff]++;
			h[0][(v >> 32) & 0xff]++;
			h[1][(v >> 40) & 0xff]++;
			h[2][(v >> 48) & 0xff]++;
			h[3][v >> 56]++;
		}
		for (; x < n; x++)
			h[0][p[x]]++;
	}
	uint64_t n = 0, sum = 0, sumsq = 0;
	for (unsigned v = 0; v < 256; v++) {
		uint32_t c = h[0][v] + h[1][v] + h[2][v] + h[3][v];
		s->hist[v] = c;
		n += c;
		sum += (uint64_t)c * v;
		sumsq += (uint64_t)c * v * v;
	}
	s->n = n;
	if (n) {
		s->luma_mean = (double)sum / n;
		double var = (double)sumsq / n - s->luma_mean * s->luma_mean;
		s->luma_stdev = var > 0 ? sqrt(var) : 0;
	}
}

/* Chroma magnitude and unit vector per sample, in a loop the compiler can
 * vectorise: 1/sqrt by a bit-level first guess and two Newton steps (float,
 * relative error below 5e-6; the library sqrtf would block vectorisation),
 * per-row sums in fixed point: magnitude in 1/16 steps, unit-vector
 * components in Q14. */
#define MAG_SCALE 16.0f
#define UNIT_SCALE 16384.0f

static inline float rsqrt_pos(float v)	/* v >= 1 */
{
	uint32_t bits;
	memcpy(&bits, &v, 4);
	bits = 0x5f3759dfu - (bits >> 1);
	float y;
	memcpy(&y, &bits, 4);
	y = y * (1.5f - 0.5f * v * y * y);
	return y * (1.5f - 0.5f * v * y * y);	/* relative error < 5e-6 */
}

static void chroma_stats(const struct frame *f, const struct roi *r, struct frame_stats *s)
{
	unsigned cx0, cy0, cx1, cy1;
	chroma_rect(r, &cx0, &cy0, &cx1, &cy1);
	const int thr2 = (int)ceil(STATS_HUE_MIN_CHROMA * STATS_HUE_MIN_CHROMA);
	int64_t scb = 0, scr = 0, smag = 0, sux = 0, suy = 0;
	uint64_t nhue = 0;
	for (unsigned y = cy0; y < cy1; y++) {
		const uint8_t *pb = f->cb + (size_t)y * f->cw, *pr = f->cr + (size_t)y * f->cw;
		int32_t rcb = 0, rcr = 0, rmag = 0, rux = 0, ruy = 0, rn = 0;
		for (unsigned x = cx0; x < cx1; x++) {
			int db = pb[x] - 128, dr = pr[x] - 128;
			rcb += db;
			rcr += dr;
			int m2 = db * db + dr * dr;
			int hue = m2 >= thr2;	/* below: no hue, weight 0 */
			float inv = rsqrt_pos((float)(m2 | !m2));	/* 0 -> 1 keeps it finite */
			rmag += (int32_t)((float)m2 * inv * MAG_SCALE + 0.5f);
			float w = (float)hue * UNIT_SCALE * inv;
			rux += (int32_t)((float)db * w);
			ruy += (int32_t)((float)dr * w);
			rn += hue;
		}
		scb += rcb;
		scr += rcr;
		smag += rmag;
		sux += rux;
		suy += ruy;
		nhue += (uint64_t)rn;
	}
	uint64_t n = (uint64_t)(cx1 - cx0) * (cy1 - cy0);
	s->n_chroma = n;
	s->cb_mean = 128.0 + (double)scb / n;
	s->cr_mean = 128.0 + (double)scr / n;
	s->chroma_magnitude_mean = (double)smag / MAG_SCALE / n;
	s->n_hue = nhue;
	if (nhue) {
		double mx = (double)sux / UNIT_SCALE / nhue, my = (double)suy / UNIT_SCALE / nhue;
		s->hue_resultant = sqrt(mx * mx + my * my);
		double a = atan2(my, mx) * RAD2DEG;
		s->hue_deg = a < 0 ? a + 360 : a;
	} else {
		s->hue_resultant = 0;
		s->hue_deg = NAN;
	}
}

static inline int clip255(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* R'G'B' means. Each 2x2 block of the region is converted from its mean
 * luma and its chroma sample (pixels at an odd region edge one by one), in
 * fixed point without rounding (a block's sum in units of 1/1024 of a
 * level, clipped to 0..255 per block): within a block the 4:2:0 frame has
 * one colour anyway, and this way the loop runs per chroma sample and
 * vectorises. */
#define RGB_ONE 1024		/* fixed-point units per level: 4 pixels x 256 */
#define RGB_MAX (255 * RGB_ONE)
enum { RGB_RUN = 4096 };	/* chroma samples per run: 32-bit row sums stay exact */

static inline int32_t clip_rgb(int32_t v)
{
	return v < 0 ? 0 : v > RGB_MAX ? RGB_MAX : v;
}

/* ys: luma sum of a block (4 pixels, or 4x one pixel); d, e: chroma - 128 */
#define RGB_BLOCK(ys, d, e, rr, rg, rb) do { \
		int32_t c_ = 298 * (int32_t)(int16_t)((ys) - 64); \
		rr += (uint32_t)clip_rgb(c_ + 1636 * (int32_t)(int16_t)(e)); \
		rg += (uint32_t)clip_rgb(c_ - 400 * (int32_t)(int16_t)(d) - 832 * (int32_t)(int16_t)(e)); \
		rb += (uint32_t)clip_rgb(c_ + 2064 * (int32_t)(int16_t)(d)); } while (0)

static void rgb_blocks(const uint16_t *ys, const uint8_t *pb, const uint8_t *pr, unsigned n, uint64_t sum[3])
{
	uint32_t rr = 0, rg = 0, rb = 0;
	for (unsigned i = 0; i < n; i++) {
		int d = pb[i] - 128, e = pr[i] - 128;
		RGB_BLOCK(ys[i], d, e, rr, rg, rb);
	}
	sum[0] += rr;
	sum[1] += rg;
	sum[2] += rb;
}

/* Pixels of one luma row one by one (region edges): each as a block of
 * four equal pixels, whose sum is then exactly divisible by 4. */
static void rgb_pixels(const struct frame *f, unsigned y, unsigned x0, unsigned x1, uint64_t sum[3])
{
	const uint8_t *py = f->y + (size_t)y * f->width;
	const uint8_t *pb = f->cb + (size_t)(y / 2) * f->cw, *pr = f->cr + (size_t)(y / 2) * f->cw;
	uint64_t rr = 0, rg = 0, rb = 0;
	for (unsigned x = x0; x < x1; x++) {
		int d = pb[x / 2] - 128, e = pr[x / 2] - 128;
		RGB_BLOCK(4 * py[x], d, e, rr, rg, rb);
	}
	sum[0] += rr / 4;
	sum[1] += rg / 4;
	sum[2] += rb / 4;
}

static void vertical_sums(const uint8_t *restrict a, const uint8_t *restrict b, uint16_t *restrict h, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		h[k] = (uint16_t)(a[k] + b[k]);
}

/* out[k] = h[2k] + h[2k+1], as one 32-bit load whose halves are added
 * (byte order irrelevant; written so that it vectorises). */
static void pair_sums(const uint16_t *restrict h, uint16_t *restrict out, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		uint32_t w;
		memcpy(&w, h + 2 * k, 4);
		out[k] = (uint16_t)((w & 0xffff) + (w >> 16));
	}
}

static void rgb_means(const struct frame *f, const struct roi *r, double rgb[3])
{
	uint64_t sum[3] = { 0, 0, 0 };
	uint16_t vs[2 * RGB_RUN], ys[RGB_RUN];	/* vertical sums, block sums */
	const unsigned X0 = r->x, X1 = r->x + r->w, Y0 = r->y, Y1 = r->y + r->h;
	const unsigned i0 = (X0 + 1) / 2, i1 = X1 / 2;	/* blocks whose both columns are inside */
	for (unsigned y = Y0; y < Y1;) {
		if ((y & 1) || y + 1 >= Y1) {	/* a row without its block partner inside */
			rgb_pixels(f, y, X0, X1, sum);
			y++;
			continue;
		}
		const uint8_t *ya = f->y + (size_t)y * f->width, *yb = ya + f->width;
		const uint8_t *pb = f->cb + (size_t)(y / 2) * f->cw, *pr = f->cr + (size_t)(y / 2) * f->cw;
		for (unsigned i = i0; i < i1; i += RGB_RUN) {
			const unsigned n = i1 - i < RGB_RUN ? i1 - i : RGB_RUN;
			vertical_sums(ya + 2 * i, yb + 2 * i, vs, 2 * n);
			pair_sums(vs, ys, n);
			rgb_blocks(ys, pb + i, pr + i, n, sum);
		}
		if (X0 & 1) {	/* left edge column */
			rgb_pixels(f, y, X0, X0 + 1, sum);
			rgb_pixels(f, y + 1, X0, X0 + 1, sum);
		}
		if ((X1 & 1) && X1 - 1 >= 2 * i1) {	/* right edge column */
			rgb_pixels(f, y, X1 - 1, X1, sum);
			rgb_pixels(f, y + 1, X1 - 1, X1, sum);
		}
		y += 2;
	}
	double n = (double)r->w * r->h * RGB_ONE / 4;
	rgb[0] = sum[0] / n;
	rgb[1] = sum[1] / n;
	rgb[2] = sum[2] / n;
}

static bool usable(const struct frame *f, const struct roi *r)
{
	return roi_fits(r, f);
}

static void clear_stats(struct frame_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->luma_mean = s->luma_stdev = NAN;
	s->cb_mean = s->cr_mean = s->chroma_magnitude_mean = NAN;
	s->hue_deg = NAN;
	s->r_mean = s->g_mean = s->b_mean = NAN;
}

void stats_frame_luma(const struct frame *f, const struct roi *r, struct frame_stats *s)
{
	clear_stats(s);
	if (usable(f, r))
		luma_hist(f, r, s);
}

void stats_frame(const struct frame *f, const struct roi *r, struct frame_stats *s)
{
	clear_stats(s);
	if (!usable(f, r))
		return;
	luma_hist(f, r, s);
	chroma_stats(f, r, s);
	double rgb[3];
	rgb_means(f, r, rgb);
	s->r_mean = rgb[0];
	s->g_mean = rgb[1];
	s->b_mean = rgb[2];
}

unsigned stats_luma_percentile(const struct frame_stats *s, double pct)
{
	if (!s->n)
		return 0;
	if (!(pct > 0))
		pct = 0;
	if (pct > 100)
		pct = 100;
	/* nearest rank: ceil(pct/100 * n), at least 1 */
	uint64_t rank = (uint64_t)ceil(pct / 100.0 * (double)s->n - 1e-9);
	if (rank < 1)
		rank = 1;
	uint64_t acc = 0;
	for (unsigned v = 0; v < 256; v++) {
		acc += s->hist[v];
		if (acc >= rank)
			return v;
	}
	return 255;
}

double stats_luma_fraction_at_or_below(const struct frame_stats *s, unsigned v)
{
	if (!s->n)
		return NAN;
	uint64_t acc = 0;
	for (unsigned i = 0; i <= v && i < 256; i++)
		acc += s->hist[i];
	return (double)acc / s->n;
}

double stats_luma_fraction_at_or_above(const struct frame_stats *s, unsigned v)
{
	if (!s->n)
		return NAN;
	uint64_t acc = 0;
	for (unsigned i = v; i < 256; i++)
		acc += s->hist[i];
	return (double)acc / s->n;
}

double stats_luma_mean(const struct frame *f, const struct roi *r)
{
	struct frame_stats s;
	stats_frame_luma(f, r, &s);
	return s.luma_mean;
}

double stats_luma_stdev(const struct frame *f, const struct roi *r)
{
	struct frame_stats s;
	stats_frame_luma(f, r, &s);
	return s.luma_stdev;
}

double stats_chroma_magnitude_mean(const struct frame *f, const struct roi *r)
{
	struct frame_stats s;
	clear_stats(&s);
	if (usable(f, r))
		chroma_stats(f, r, &s);
	return s.chroma_magnitude_mean;
}

double stats_hue_mean_deg(const struct frame *f, const struct roi *r)
{
	struct frame_stats s;
	clear_stats(&s);
	if (usable(f, r))
		chroma_stats(f, r, &s);
	return s.hue_deg;
}

void stats_rgb_means(const struct frame *f, const struct roi *r, double rgb[3])
{
	if (!usable(f, r)) {
		rgb[0] = rgb[1] = rgb[2] = NAN;
		return;
	}
	rgb_means(f, r, rgb);
}

/* ---- two frames ---- */

static bool same_size(const struct frame *a, const struct frame *b)
{
	return a && b && a->y && b->y && a->width == b->width && a->height == b->height;
}

struct sim_acc { uint64_t sad, sa, sb, saa, sbb, sab; };

/* One run of pixels, a[i] against b[i]; n <= 65536 keeps the 32-bit sums
 * exact. Written so the compiler finds the SAD and 16-bit multiply-add
 * patterns. */
static void sim_run(const uint8_t *a, const uint8_t *b, unsigned n, struct sim_acc *acc)
{
	uint32_t rad = 0, ra = 0, rb = 0, raa = 0, rbb = 0, rab = 0;
	for (unsigned i = 0; i < n; i++) {
		int16_t va = a[i], vb = b[i];
		rad += (uint32_t)abs(a[i] - b[i]);
		ra += (uint32_t)va;
		rb += (uint32_t)vb;
		raa += (uint32_t)(va * va);
		rbb += (uint32_t)(vb * vb);
		rab += (uint32_t)(va * vb);
	}
	acc->sad += rad;
	acc->sa += ra;
	acc->sb += rb;
	acc->saa += raa;
	acc->sbb += rbb;
	acc->sab += rab;
}

/* Sum of absolute differences only (what the MAD needs). */
static void sad_run(const uint8_t *a, const uint8_t *b, unsigned n, struct sim_acc *acc)
{
	uint32_t rad = 0;
	for (unsigned i = 0; i < n; i++)
		rad += (uint32_t)abs(a[i] - b[i]);
	acc->sad += rad;
}

/* dst[i] = src[-i] for i < n: a mirrored stretch of one row, eight bytes at
 * a time (byte reversal of a 64-bit word). */
static void reverse_run(uint8_t *dst, const uint8_t *src, unsigned n)
{
	unsigned i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, src - i - 7, 8);
		v = __builtin_bswap64(v);
		memcpy(dst + i, &v, 8);
	}
	for (; i < n; i++)
		dst[i] = *(src - i);
}

static void similarity(const struct frame *a, const struct frame *b, const struct roi *r,
		       enum mirror m, bool with_ncc, struct similarity *out)
{
	void (*run)(const uint8_t *, const uint8_t *, unsigned, struct sim_acc *) = with_ncc ? sim_run : sad_run;
	out->luma_mad = out->luma_ncc = NAN;
	if (!same_size(a, b) || !usable(a, r))
		return;
	const long W = a->width, H = a->height;
	struct sim_acc acc = { 0 };
	enum { RUN = 2048 };
	uint8_t tmp[RUN];	/* a stretch of b's row, mirrored (no frame copy) */
	for (unsigned y = r->y; y < r->y + r->h; y++) {
		const uint8_t *pa = a->y + (size_t)y * W + r->x;
		const long by = m == MIRROR_V ? H - 1 - (long)y : (long)y;
		if (m == MIRROR_H) {
			/* a(x) against b(W-1-x) */
			const uint8_t *pb = b->y + (size_t)by * W + (W - 1 - (long)r->x);
			for (unsigned i = 0; i < r->w; i += RUN) {
				unsigned n = r->w - i < RUN ? r->w - i : RUN;
				reverse_run(tmp, pb - i, n);
				run(pa + i, tmp, n, &acc);
			}
		} else {
			run(pa, b->y + (size_t)by * W + r->x, r->w, &acc);
		}
	}
	const double n = (double)r->w * r->h;
	out->luma_mad = acc.sad / n;
	if (!with_ncc)
		return;
	/* Covariance terms from exact integer sums: n*sum(ab) - sum(a)sum(b). */
	double cov = n * (double)acc.sab - (double)acc.sa * (double)acc.sb;
	double va = n * (double)acc.saa - (double)acc.sa * (double)acc.sa;
	double vb = n * (double)acc.sbb - (double)acc.sb * (double)acc.sb;
	if (va > 0 && vb > 0)
		out->luma_ncc = cov / sqrt(va * vb);
}

void stats_similarity(const struct frame *a, const struct frame *b, const struct roi *r,
		      enum mirror m, struct similarity *out)
{
	similarity(a, b, r, m, true, out);
}

/* mins[j] = min(mins[j], |a[j] - t[j]|) over n pixels (vectorises). */
static void absdiff_min(const uint8_t *restrict a, const uint8_t *restrict t, uint8_t *restrict mins, long n)
{
	for (long j = 0; j < n; j++) {
		uint8_t d = (uint8_t)(a[j] > t[j] ? a[j] - t[j] : t[j] - a[j]);
		mins[j] = d < mins[j] ? d : mins[j];
	}
}

double stats_luma_mad_local(const struct frame *a, const struct frame *b, const struct roi *r, enum mirror m,
			    unsigned radius)
{
	if (!same_size(a, b) || !usable(a, r) || radius > 64)
		return NAN;
	enum { RUN = 2048 };
	const long W = a->width, H = a->height, R = radius;
	uint8_t mins[RUN], t[RUN + 2 * 64];
	uint64_t sum = 0;
	for (unsigned y = r->y; y < r->y + r->h; y++) {
		const long my = m == MIRROR_V ? H - 1 - (long)y : (long)y;
		const uint8_t *pa = a->y + (size_t)y * W;
		for (long x0 = r->x; x0 < (long)(r->x + r->w); x0 += RUN) {
			const long n = (long)(r->x + r->w) - x0 < RUN ? (long)(r->x + r->w) - x0 : RUN;
			memset(mins, 255, (size_t)n);
			/* t[k + R] = b at the mirror position of a's column x0 + k, for
			 * k in [kmin, kmax] (inside the frame); the window of +-R columns
			 * around a mirrored position is the mirror of the window around
			 * the column, so a-order is enough */
			const long kmin = -R > -x0 ? -R : -x0, kmax = n - 1 + R < W - 1 - x0 ? n - 1 + R : W - 1 - x0;
			for (long dy = -R; dy <= R; dy++) {
				const long by = my + dy;
				if (by < 0 || by >= H)
					continue;
				const uint8_t *pb = b->y + (size_t)by * W;
				if (m == MIRROR_H)
					reverse_run(t + kmin + R, pb + (W - 1 - (x0 + kmin)), (unsigned)(kmax - kmin + 1));
				else
					memcpy(t + kmin + R, pb + x0 + kmin, (size_t)(kmax - kmin + 1));
				for (long dx = -R; dx <= R; dx++) {
					/* pixel j pairs with t index j + dx, valid in [kmin, kmax] */
					long j0 = kmin - dx > 0 ? kmin - dx : 0, j1 = kmax - dx < n - 1 ? kmax - dx : n - 1;
					if (j1 >= j0)
						absdiff_min(pa + x0 + j0, t + j0 + dx + R, mins + j0, j1 - j0 + 1);
				}
			}
			uint32_t rs = 0;
			for (long j = 0; j < n; j++)
				rs += mins[j];
			sum += rs;
		}
	}
	return (double)sum / ((double)r->w * r->h);
}

double stats_luma_mad(const struct frame *a, const struct frame *b, const struct roi *r, enum mirror m)
{
	struct similarity s;
	similarity(a, b, r, m, false, &s);
	return s.luma_mad;
}

double stats_luma_ncc(const struct frame *a, const struct frame *b, const struct roi *r, enum mirror m)
{
	struct similarity s;
	stats_similarity(a, b, r, m, &s);
	return s.luma_ncc;
}

void stats_site_spread(const struct frame *f, const struct roi *r, enum mirror m, unsigned radius, double out[3])
{
	out[0] = out[1] = out[2] = NAN;
	if (!usable(f, r))
		return;
	/* Y', Cb, Cr rows of the R'G'B' -> Y'CbCr matrix, magnitudes, x256 */
	static const int k[3][3] = { { 66, 129, 25 }, { 38, 74, 112 }, { 112, 94, 18 } };
	const long W = f->width, H = f->height, R = radius;
	uint64_t sum[3] = { 0, 0, 0 };
	for (unsigned y = r->y; y < r->y + r->h; y++)
		for (unsigned x = r->x; x < r->x + r->w; x++) {
			uint8_t c0[3], c[3];
			const size_t ci = (size_t)(y / 2) * f->cw + x / 2;
			frame_ycbcr_to_rgb(f->y[(size_t)y * W + x], f->cb[ci], f->cr[ci], &c0[0], &c0[1], &c0[2]);
			int most[3] = { 0, 0, 0 };
			for (long d = -R; d <= R; d++) {
				const long px = m == MIRROR_V ? (long)x : (long)x + d, py = m == MIRROR_V ? (long)y + d : (long)y;
				if (!d || px < 0 || py < 0 || px >= W || py >= H)
					continue;
				const size_t cj = (size_t)(py / 2) * f->cw + (size_t)px / 2;
				frame_ycbcr_to_rgb(f->y[(size_t)py * W + px], f->cb[cj], f->cr[cj], &c[0], &c[1], &c[2]);
				for (int j = 0; j < 3; j++) {
					const int a = abs(c[j] - c0[j]);
					most[j] = a > most[j] ? a : most[j];
				}
			}
			for (int i = 0; i < 3; i++)
				sum[i] += (uint64_t)(k[i][0] * most[0] + k[i][1] * most[1] + k[i][2] * most[2]);
		}
	const double n = 256.0 * r->w * r->h;
	for (int i = 0; i < 3; i++)
		out[i] = sum[i] / n;
}

static uint64_t plane_sad(const uint8_t *a, const uint8_t *b, unsigned stride,
			  unsigned x0, unsigned y0, unsigned x1, unsigned y1)
{
	uint64_t sad = 0;
	for (unsigned y = y0; y < y1; y++) {
		const uint8_t *pa = a + (size_t)y * stride, *pb = b + (size_t)y * stride;
		uint32_t rs = 0;
		for (unsigned x = x0; x < x1; x++)
			rs += (uint32_t)abs(pa[x] - pb[x]);
		sad += rs;
	}
	return sad;
}

double stats_frame_difference(const struct frame *a, const struct frame *b, const struct roi *r)
{
	if (!same_size(a, b) || !usable(a, r))
		return NAN;
	unsigned cx0, cy0, cx1, cy1;
	chroma_rect(r, &cx0, &cy0, &cx1, &cy1);
	uint64_t sad = plane_sad(a->y, b->y, a->width, r->x, r->y, r->x + r->w, r->y + r->h);
	sad += plane_sad(a->cb, b->cb, a->cw, cx0, cy0, cx1, cy1);
	sad += plane_sad(a->cr, b->cr, a->cw, cx0, cy0, cx1, cy1);
	double n = (double)r->w * r->h + 2.0 * (cx1 - cx0) * (cy1 - cy0);
	return sad / n;
}

double stats_hue_rotation_deg(const struct frame *a, const struct frame *b, const struct roi *r)
{
	if (!same_size(a, b) || !usable(a, r))
		return NAN;
	unsigned cx0, cy0, cx1, cy1;
	chroma_rect(r, &cx0, &cy0, &cx1, &cy1);
	/* sum of b * conj(a): real = ba*bb + ra*rb, imag = ra*bb... with
	 * a = (xa + i ya), b = (xb + i yb): b*conj(a) = (xb xa + yb ya) + i (yb xa - xb ya). */
	int64_t re = 0, im = 0, ma = 0, mb = 0;
	for (unsigned y = cy0; y < cy1; y++) {
		size_t o = (size_t)y * a->cw;
		int32_t rre = 0, rim = 0, rma = 0, rmb = 0;
		for (unsigned x = cx0; x < cx1; x++) {
			int xa = a->cb[o + x] - 128, ya = a->cr[o + x] - 128;
			int xb = b->cb[o + x] - 128, yb = b->cr[o + x] - 128;
			rre += xb * xa + yb * ya;
			rim += yb * xa - xb * ya;
			rma += xa * xa + ya * ya;
			rmb += xb * xb + yb * yb;
		}
		re += rre;
		im += rim;
		ma += rma;
		mb += rmb;
	}
	if (!ma || !mb || (!re && !im))
		return NAN;
	return atan2((double)im, (double)re) * RAD2DEG;
}
