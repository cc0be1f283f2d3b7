/* Side-effect and range decisions of the probes (side_judge.h). */
#include "image/side_judge.h"
#include "ctrl/ctrl_value.h"
#include "image/probe_judge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool luma_clipped(int y)
{
	return y <= JUDGE_Y_BLACK || y >= JUDGE_Y_WHITE;
}

static bool chroma_clipped(int c)
{
	return c <= JUDGE_C_MIN || c >= JUDGE_C_MAX;
}

/* The luma of chroma sample (cx, cy): its 2x2 block (fewer at the frame's
 * right and bottom edges), the mean and whether any is clipped: in Y', or
 * in the R'G'B' of an R'G'B' or Bayer source (frame.h's clip map). */
static double block_luma(const struct frame *f, unsigned cx, unsigned cy, bool *clipped)
{
	unsigned sum = 0, n = 0;
	*clipped = false;
	for (unsigned y = 2 * cy; y < 2 * cy + 2 && y < f->height; y++)
		for (unsigned x = 2 * cx; x < 2 * cx + 2 && x < f->width; x++) {
			int v = f->y[(size_t)y * f->width + x];
			sum += v;
			n++;
			*clipped |= luma_clipped(v) || frame_src_clipped(f, x, y);
		}
	return n ? (double)sum / n : 0;
}

bool side_sample_clipped(const struct frame *f, unsigned cx, unsigned cy)
{
	bool clipped;
	block_luma(f, cx, cy, &clipped);
	const size_t i = (size_t)cy * f->cw + cx;
	return clipped || chroma_clipped(f->cb[i]) || chroma_clipped(f->cr[i]);
}

/* The chroma samples covering r (r has even edges, roi_from_frac). */
static void chroma_box(const struct roi *r, unsigned *x0, unsigned *y0, unsigned *x1, unsigned *y1)
{
	*x0 = r->x / 2;
	*y0 = r->y / 2;
	*x1 = (r->x + r->w + 1) / 2;
	*y1 = (r->y + r->h + 1) / 2;
}

static bool same_size(const struct frame *a, const struct frame *b)
{
	return a->width == b->width && a->height == b->height;
}

void side_shift_of(const struct frame *before, const struct frame *after, const struct roi *r, struct side_shift *s)
{
	memset(s, 0, sizeof(*s));
	s->dy = s->dcb = s->dcr = s->dmag = NAN;
	if (!same_size(before, after))
		return;
	unsigned x0, y0, x1, y1;
	chroma_box(r, &x0, &y0, &x1, &y1);
	double sy = 0, sb = 0, sr = 0, sm = 0;
	for (unsigned cy = y0; cy < y1; cy++)
		for (unsigned cx = x0; cx < x1; cx++) {
			s->total++;
			if (side_sample_clipped(before, cx, cy) || side_sample_clipped(after, cx, cy))
				continue;
			bool c;
			const size_t i = (size_t)cy * before->cw + cx;
			const double b0 = before->cb[i] - 128.0, r0 = before->cr[i] - 128.0;
			const double b1 = after->cb[i] - 128.0, r1 = after->cr[i] - 128.0;
			sy += block_luma(after, cx, cy, &c) - block_luma(before, cx, cy, &c);
			sb += b1 - b0;
			sr += r1 - r0;
			sm += hypot(b1, r1) - hypot(b0, r0);
			s->n++;
		}
	if (!s->n)
		return;
	s->dy = sy / s->n;
	s->dcb = sb / s->n;
	s->dcr = sr / s->n;
	s->dmag = sm / s->n;
}

/* JUDGE_HALF_CODE + |mean| + JUDGE_NOISE_K sd of one component's noise. */
static double component_tol(const double *x, int n)
{
	double sum = 0, var = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (isfinite(x[i])) {
			sum += x[i];
			k++;
		}
	if (!k)
		return JUDGE_HALF_CODE;
	const double mean = sum / k;
	for (int i = 0; i < n; i++)
		if (isfinite(x[i]))
			var += (x[i] - mean) * (x[i] - mean);
	return JUDGE_HALF_CODE + fabs(mean) + JUDGE_NOISE_K * (k > 1 ? sqrt(var / (k - 1)) : 0);
}

void side_tol_of(const struct side_shift *noise, int n, struct side_tol *t)
{
	double c[4][16];
	if (n > 16)
		n = 16;
	for (int i = 0; i < n; i++) {
		c[0][i] = noise[i].dy;
		c[1][i] = noise[i].dcb;
		c[2][i] = noise[i].dcr;
		c[3][i] = noise[i].dmag;
	}
	t->dy = component_tol(c[0], n);
	t->dcb = component_tol(c[1], n);
	t->dcr = component_tol(c[2], n);
	t->dmag = component_tol(c[3], n);
}

const char *side_moved(const struct side_shift *s, const struct side_tol *t, unsigned keep, double *moved,
		       double *tol)
{
	const struct {
		unsigned keep;
		const char *name;
		double v, tol;
	} c[] = {
		{ SIDE_KEEP_LUMA, "mean luma", s->dy, t->dy },
		{ SIDE_KEEP_CHROMA, "mean Cb", s->dcb, t->dcb },
		{ SIDE_KEEP_CHROMA, "mean Cr", s->dcr, t->dcr },
		{ SIDE_KEEP_CHROMA | SIDE_KEEP_MAGNITUDE, "mean chroma magnitude", s->dmag, t->dmag },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if ((c[i].keep & keep) && isfinite(c[i].v) && fabs(c[i].v) > c[i].tol) {
			*moved = c[i].v;
			*tol = c[i].tol;
			return c[i].name;
		}
	return NULL;
}

void side_hist_of(const struct frame *f, const struct roi *r, struct side_hist *h)
{
	memset(h, 0, sizeof(*h));
	for (unsigned y = r->y; y < r->y + r->h && y < f->height; y++)
		for (unsigned x = r->x; x < r->x + r->w && x < f->width; x++) {
			h->y[f->y[(size_t)y * f->width + x]]++;
			h->ny++;
		}
	unsigned x0, y0, x1, y1;
	chroma_box(r, &x0, &y0, &x1, &y1);
	for (unsigned cy = y0; cy < y1 && cy < f->ch; cy++)
		for (unsigned cx = x0; cx < x1 && cx < f->cw; cx++) {
			const size_t i = (size_t)cy * f->cw + cx;
			h->cb[f->cb[i]]++;
			h->cr[f->cr[i]]++;
			h->nc++;
		}
}

double side_hist_emd(const uint32_t *a, uint64_t na, const uint32_t *b, uint64_t nb)
{
	if (!na || !nb)
		return NAN;
	double ca = 0, cb = 0, d = 0;
	for (int v = 0; v < 255; v++) {
		ca += (double)a[v] / na;
		cb += (double)b[v] / nb;
		d += fabs(ca - cb);
	}
	return d;
}

double side_hist_distance(const struct side_hist *a, const struct side_hist *b, const char **which)
{
	const double d[3] = {
		side_hist_emd(a->y, a->ny, b->y, b->ny),
		side_hist_emd(a->cb, a->nc, b->cb, b->nc),
		side_hist_emd(a->cr, a->nc, b->cr, b->nc),
	};
	static const char *const names[3] = { "luma", "Cb", "Cr" };
	int k = 0;
	for (int i = 1; i < 3; i++)
		if (isfinite(d[i]) && !(d[i] <= d[k]))
			k = i;
	if (which)
		*which = names[k];
	return d[k];
}

struct roi side_roi_mirror(const struct roi *r, unsigned w, unsigned h, enum mirror m)
{
	struct roi o = *r;
	if (m == MIRROR_H && r->x + r->w <= w)
		o.x = w - r->x - r->w;
	if (m == MIRROR_V && r->y + r->h <= h)
		o.y = h - r->y - r->h;
	return o;
}

struct roi side_roi_shift(const struct roi *r, unsigned w, unsigned h, int dx, int dy)
{
	struct roi o = *r;
	long x = (long)r->x + dx, y = (long)r->y + dy;
	if (x < 0)
		x = 0;
	if (y < 0)
		y = 0;
	if (x + r->w > w)
		x = w >= r->w ? (long)(w - r->w) : 0;
	if (y + r->h > h)
		y = h >= r->h ? (long)(h - r->h) : 0;
	o.x = (unsigned)x;
	o.y = (unsigned)y;
	return o;
}

bool range_values(const struct v4l2_query_ext_ctrl *q, int64_t v[RANGE_POINTS])
{
	if (q->step <= 0 || ((double)q->maximum - (double)q->minimum) / (double)q->step < 4)
		return false;
	for (int i = 0; i < RANGE_POINTS; i++) {
		const double t = i == 0 ? 0 : i == 1 ? 0.25 : i == 2 ? 0.75 : 1;
		int64_t want = q->minimum + (int64_t)llround(t * ((double)q->maximum - (double)q->minimum));
		v[i] = ctrl_expected_scalar(q, want);
		if (i && v[i] <= v[i - 1])
			return false;
	}
	return true;
}

double range_clipped_share(const struct frame *a, const struct frame *b, const struct frame *at, const struct roi *r,
			   double thresh)
{
	if (!same_size(a, b) || !same_size(a, at))
		return NAN;
	unsigned x0, y0, x1, y1;
	chroma_box(r, &x0, &y0, &x1, &y1);
	uint64_t changed = 0, clipped = 0;
	for (unsigned cy = y0; cy < y1; cy++)
		for (unsigned cx = x0; cx < x1; cx++) {
			bool c;
			const size_t i = (size_t)cy * a->cw + cx;
			const bool ch = fabs(block_luma(a, cx, cy, &c) - block_luma(b, cx, cy, &c)) > thresh ||
					abs(a->cb[i] - b->cb[i]) > thresh || abs(a->cr[i] - b->cr[i]) > thresh;
			if (!ch)
				continue;
			changed++;
			clipped += side_sample_clipped(at, cx, cy);
		}
	return changed ? (double)clipped / changed : NAN;
}

enum range_verdict range_judge(double d_lo, double d_mid, double d_hi, double clip_lo, double clip_hi, double tol,
			       int *excused)
{
	const double all = 1 - JUDGE_PCT_OUTLIERS / 100;
	*excused = 0;
	if (!(d_lo > tol) && !(d_mid > tol) && !(d_hi > tol))
		return RANGE_NO_EFFECT;
	if (!(d_hi > tol)) {
		if (!(clip_hi >= all))
			return RANGE_FLAT_TOP;
		(*excused)++;
	}
	if (!(d_lo > tol)) {
		if (!(clip_lo >= all))
			return RANGE_FLAT_BOTTOM;
		(*excused)++;
	}
	return RANGE_PASS;
}
