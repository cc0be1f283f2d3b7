/* The decisions of the side-effect and range probes (suites/suite_probe_side.c,
 * rules PB-1..PB-5 of spec/rules-probe.md), apart from capturing: what a
 * control must leave alone (brightness the chroma, saturation the mean
 * luma, hue the luma and the chroma magnitude, a flip the histogram), and
 * whether a control still changes the picture towards both ends of its
 * range. Pure functions over frames and numbers, so the host unit tests can
 * feed them synthetic pictures (tests/unit/test_side_judge.c). */
#ifndef V4L2C_SIDE_JUDGE_H
#define V4L2C_SIDE_JUDGE_H
#include <stdbool.h>
#include <stdint.h>
#include <linux/videodev2.h>
#include "image/frame.h"
#include "image/stats.h"

/* ---- what a control leaves alone ---- */

/* A chroma sample with its 2x2 luma block is 'clipped' when any luma is at
 * or beyond the nominal limits (JUDGE_Y_BLACK / JUDGE_Y_WHITE) or Cb or Cr
 * at or beyond JUDGE_C_MIN / JUDGE_C_MAX, or, on an R'G'B' or Bayer source,
 * when any pixel of the block had R', G' or B' at 0 or 255 (frame.h's clip
 * map: a pipeline that applies the controls in Y'CbCr and converts back
 * clamps each of R', G', B', as the kernel's test pattern generator does,
 * and a 75% bar clamped in red shows no clip in Y'CbCr). There a clamp may
 * legitimately move the other components, so side effects are measured on
 * the samples unclipped in both frames only. */
bool side_sample_clipped(const struct frame *f, unsigned cx, unsigned cy);

/* Mean signed differences after - before over the samples of the region
 * unclipped in both frames: luma (the 2x2 block's mean), Cb, Cr and chroma
 * magnitude |(Cb-128, Cr-128)|. n: samples used, total: samples in the
 * region. All NAN (n = 0) when no sample is usable or the sizes differ. */
struct side_shift {
	double dy, dcb, dcr, dmag;
	uint64_t n, total;
};
void side_shift_of(const struct frame *before, const struct frame *after, const struct roi *r, struct side_shift *s);

/* Which components a control must leave alone. */
enum side_keep {
	SIDE_KEEP_CHROMA = 1 << 0,	/* Cb, Cr and magnitude (brightness) */
	SIDE_KEEP_LUMA = 1 << 1,	/* mean luma (saturation, hue) */
	SIDE_KEEP_MAGNITUDE = 1 << 2,	/* chroma magnitude (hue) */
};
/* The tolerance of each component: JUDGE_HALF_CODE plus the noise of that
 * component, measured the same way between frames with no change (the
 * absolute mean plus JUDGE_NOISE_K standard deviations over n shifts). */
struct side_tol {
	double dy, dcb, dcr, dmag;
};
void side_tol_of(const struct side_shift *noise, int n, struct side_tol *t);
/* The first component of `keep` that moved beyond its tolerance: its name
 * ("mean luma", "mean Cb", ...) with *moved and *tol set; NULL when none. */
const char *side_moved(const struct side_shift *s, const struct side_tol *t, unsigned keep, double *moved,
		       double *tol);

/* ---- flips keep the histogram ---- */

struct side_hist {
	uint32_t y[256], cb[256], cr[256];
	uint64_t ny, nc;
};
void side_hist_of(const struct frame *f, const struct roi *r, struct side_hist *h);
/* Earth mover's distance of two histograms in code values: the mean
 * |a - b| over the sorted values, sum over v of |CDF_a(v) - CDF_b(v)|. NAN
 * when either is empty. */
double side_hist_emd(const uint32_t *a, uint64_t na, const uint32_t *b, uint64_t nb);
/* The largest of the luma, Cb and Cr distances; *which names it. */
double side_hist_distance(const struct side_hist *a, const struct side_hist *b, const char **which);
/* The region a flip moves r to (left-right for MIRROR_H, top-bottom for
 * MIRROR_V), in a w x h frame. */
struct roi side_roi_mirror(const struct roi *r, unsigned w, unsigned h, enum mirror m);
/* r moved by (dx, dy) pixels, kept inside the frame (for the displacement a
 * flip may bring, PROBE_MIRROR_SHIFT). Even moves keep the chroma aligned. */
struct roi side_roi_shift(const struct roi *r, unsigned w, unsigned h, int dx, int dy);

/* ---- the range a control acts over ---- */

#define RANGE_POINTS 4	/* minimum, a quarter, three quarters, maximum */
/* The four values (on the step grid), ascending; false when the control
 * has fewer than five valid values (no quarter points to compare). */
bool range_values(const struct v4l2_query_ext_ctrl *q, int64_t v[RANGE_POINTS]);

/* Of the samples that changed between frames a and b (some component by
 * more than `thresh` codes), the fraction clipped in frame at: the share of
 * the control's effect that has run into a limit there. NAN when nothing
 * changed. */
double range_clipped_share(const struct frame *a, const struct frame *b, const struct frame *at, const struct roi *r,
			   double thresh);

enum range_verdict {
	RANGE_PASS,
	RANGE_NO_EFFECT,	/* the middle of the range changes nothing: inconclusive */
	RANGE_FLAT_TOP,		/* nothing changes from three quarters to the maximum */
	RANGE_FLAT_BOTTOM,	/* nothing changes from the minimum to a quarter */
};
/* d_lo: frame difference minimum -> quarter; d_mid: quarter -> three
 * quarters; d_hi: three quarters -> maximum. clip_lo / clip_hi: the share of
 * the middle's effect clipped at the quarter / three-quarter frame. A flat
 * end fails unless all but JUDGE_PCT_OUTLIERS % of the effect is clipped
 * there (the effect has nowhere left to go). *excused counts excused ends. */
enum range_verdict range_judge(double d_lo, double d_mid, double d_hi, double clip_lo, double clip_hi, double tol,
			       int *excused);
#endif
