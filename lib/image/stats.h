/* Frame statistics over a region of interest, for the probes that check a
 * control changes the picture the way its meaning says (issue 5).
 *
 * Everything works on struct frame (planar Y'CbCr 4:2:0, frame.h) and a
 * rectangle in luma pixels; chroma statistics use the chroma samples that
 * cover the rectangle. No statistic allocates memory. */
#ifndef V4L2C_STATS_H
#define V4L2C_STATS_H
#include <stdbool.h>
#include <stdint.h>
#include "image/frame.h"

/* A rectangle in luma pixels. */
struct roi { unsigned x, y, w, h; };
/* The same as fractions of the frame (board profiles): left, top, right,
 * bottom, each 0..1. */
struct roi_frac { double x0, y0, x1, y1; };

/* The default region: the centre patch, the middle half in each direction.
 * It keeps vivid's on-screen text (top-left, a few text lines) out at every
 * frame size vivid offers when the text mode is 'Counters' or 'None'. */
#define ROI_FRAC_CENTRE ((struct roi_frac){ 0.25, 0.25, 0.75, 0.75 })
/* Fractions -> pixels: edges rounded to even coordinates (so the chroma
 * samples cover exactly the region), clamped to the frame, at least 2x2
 * (or the whole frame when it is smaller). */
struct roi roi_from_frac(const struct roi_frac *rf, unsigned width, unsigned height);
struct roi roi_centre(unsigned width, unsigned height);
/* Non-empty and inside the frame. */
bool roi_fits(const struct roi *r, const struct frame *f);

/* ---- one frame ---- */

/* Pixels whose chroma vector (Cb-128, Cr-128) is shorter than this carry no
 * hue (their angle is noise); the hue mean ignores them. */
#define STATS_HUE_MIN_CHROMA 4.0

struct frame_stats {
	uint64_t n;			/* luma pixels in the region */
	uint32_t hist[256];		/* luma histogram */
	double luma_mean, luma_stdev;	/* population standard deviation */
	uint64_t n_chroma;		/* chroma samples in the region */
	double cb_mean, cr_mean;
	double chroma_magnitude_mean;	/* mean |(Cb-128, Cr-128)| */
	/* Circular mean of atan2(Cr-128, Cb-128) in degrees [0, 360) over the
	 * samples with magnitude >= STATS_HUE_MIN_CHROMA; NAN when there are
	 * none. hue_resultant is the length of the mean unit vector (0..1):
	 * near 0 the angle means nothing (grey, or hues that cancel out). */
	double hue_deg, hue_resultant;
	uint64_t n_hue;
	double r_mean, g_mean, b_mean;	/* BT.601 limited-range R'G'B', 0..255 */
};

/* Every single-frame statistic in one pass over the region. */
void stats_frame(const struct frame *f, const struct roi *r, struct frame_stats *s);
/* Luma only (histogram, mean, stdev): the cheap subset. The other fields of
 * s are zeroed. */
void stats_frame_luma(const struct frame *f, const struct roi *r, struct frame_stats *s);

/* Nearest-rank percentile of the luma histogram: the smallest value v with
 * at least pct% of the pixels <= v (pct 0 gives the minimum). */
unsigned stats_luma_percentile(const struct frame_stats *s, double pct);
/* Fraction (0..1) of the region's pixels with luma <= v, or >= v: clipping
 * guards (a probe must not read a clipped image as 'no effect'). */
double stats_luma_fraction_at_or_below(const struct frame_stats *s, unsigned v);
double stats_luma_fraction_at_or_above(const struct frame_stats *s, unsigned v);

/* Single statistics, each one pass over the region (stats_frame() computes
 * them all at once). */
double stats_luma_mean(const struct frame *f, const struct roi *r);
double stats_luma_stdev(const struct frame *f, const struct roi *r);
double stats_chroma_magnitude_mean(const struct frame *f, const struct roi *r);
double stats_hue_mean_deg(const struct frame *f, const struct roi *r);
void stats_rgb_means(const struct frame *f, const struct roi *r, double rgb[3]);

/* ---- two frames ---- */

/* How frame b is looked at: as it is, or as its left-right / top-bottom
 * mirror image. The region is taken in frame a; pixel (x, y) of a is paired
 * with b(width-1-x, y) for MIRROR_H and b(x, height-1-y) for MIRROR_V, so
 * no mirrored copy is made and the region need not be centred. */
enum mirror { MIRROR_NONE, MIRROR_H, MIRROR_V };

struct similarity {
	double luma_mad;		/* mean |a - b| over the luma of the region */
	double luma_ncc;		/* Pearson correlation, -1..1; NAN when a or b is flat */
};
/* a and b must have the same size; otherwise both results are NAN. */
void stats_similarity(const struct frame *a, const struct frame *b, const struct roi *r,
		      enum mirror m, struct similarity *out);
double stats_luma_mad(const struct frame *a, const struct frame *b, const struct roi *r, enum mirror m);
double stats_luma_ncc(const struct frame *a, const struct frame *b, const struct roi *r, enum mirror m);
/* A MAD that tolerates small displacements: for each pixel of a's region
 * the smallest |a - b| over b's pixels within `radius` of the (mirrored)
 * position, clipped to the frame; the mean of those. A flip or a sensor
 * readout may move the picture, or single pixels at edges, by a pixel or a
 * pixel pair: such a frame still matches; a different picture does not.
 * radius 0 is stats_luma_mad(). NAN when the sizes differ. */
double stats_luma_mad_local(const struct frame *a, const struct frame *b, const struct roi *r, enum mirror m,
			    unsigned radius);

/* What displacing the colour components moves (a Bayer sensor's flip, the
 * mirror judges): for each pixel of the region, per component C of its
 * R'G'B' (from the frame's Y'CbCr, BT.601 limited range), the largest
 * |C(p + d) - C(p)| over displacements d of up to `radius` pixels along the
 * axis of m (MIRROR_H: along the row; MIRROR_V: along the column), clipped
 * to the frame; out[0..2] are the means over the region of the largest
 * change of Y', Cb and Cr those component moves can make, sum over C of
 * |the matrix coefficient| times that. A picture whose components are each
 * moved by up to `radius` differs from it by at most out[0] (mean |dY'|) and
 * its histograms by at most out[0..2] (earth mover's distance). 0 on a flat
 * picture; NAN when the region does not fit. */
void stats_site_spread(const struct frame *f, const struct roi *r, enum mirror m, unsigned radius, double out[3]);

/* Frame difference: mean absolute difference over every Y, Cb and Cr sample
 * of the region (so a change of colour alone shows up too); NAN when the
 * sizes differ. */
double stats_frame_difference(const struct frame *a, const struct frame *b, const struct roi *r);
/* The angle (degrees, -180..180) by which b's chroma is rotated relative
 * to a's, sample by sample: the angle of sum(b * conj(a)) over the chroma
 * samples as complex numbers (Cb-128) + i(Cr-128). Unlike the difference of
 * two mean hues it works on pictures whose hues cancel out (colour bars).
 * NAN when either has no chroma in the region or the sizes differ. */
double stats_hue_rotation_deg(const struct frame *a, const struct frame *b, const struct roi *r);
#endif
