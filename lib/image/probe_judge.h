/* The decisions of the frame-capture probes (suites/suite_probe.c), apart
 * from capturing: which control values a sweep visits, the tolerances
 * derived from the noise frames, when a step without the expected change is
 * excused by clipping, whether a sweep, a hue rotation or a flip passes, and
 * whether a luma control keeps the levels in order. Pure functions over
 * numbers and frames, so the host unit tests can feed them synthetic
 * measurements (tests/unit/test_probe_judge.c) — a probe that cannot fail
 * would otherwise only be noticed on a board. */
#ifndef V4L2C_PROBE_JUDGE_H
#define V4L2C_PROBE_JUDGE_H
#include <stdbool.h>
#include <stdint.h>
#include <linux/videodev2.h>
#include "image/frame.h"
#include "image/stats.h"

#define JUDGE_NOISE_K 4.0	/* standard deviations of noise a change must exceed */
#define JUDGE_HALF_CODE 0.5	/* half an 8-bit code value: the quantisation floor */
#define JUDGE_SWEEP_POINTS 7	/* control values from minimum to maximum */
#define JUDGE_PCT_OUTLIERS 1.0	/* percent of pixels a 'whole region' statement ignores */
#define JUDGE_Y_BLACK 16	/* nominal Y' and C ranges (BT.601 limited) */
#define JUDGE_Y_WHITE 235
#define JUDGE_C_MIN 16
#define JUDGE_C_MAX 240

/* What a control's documented meaning says about the picture (issue 17):
 * JUDGE_PICTURE - the meaning is a picture change (brightness, contrast,
 *   saturation, hue, flips, gamma, sharpness, colour effects, test pattern):
 *   a probe requires the effect on any board, with or without a profile;
 * JUDGE_SOURCE - the effect depends on what the source delivers (gain,
 *   exposure, white balance, power line frequency, auto controls, iris,
 *   focus, zoom): a pattern generator or a TV input legitimately shows none;
 * JUDGE_OTHER - anything else (driver-specific controls). */
enum judge_scope { JUDGE_PICTURE, JUDGE_SOURCE, JUDGE_OTHER };
enum judge_scope judge_scope_of(uint32_t id);
/* Must a probe of this control show an effect? JUDGE_SOURCE controls only
 * when the board profile requires it (require-effect); otherwise false with
 * *why saying so, and the probe is skipped with that reason, never failed. */
bool judge_effect_required(uint32_t id, bool profile_requires, const char **why);

/* Up to JUDGE_SWEEP_POINTS valid values from minimum to maximum, ascending
 * and distinct (all of them when the control has fewer). Returns how many. */
int judge_sweep_values(const struct v4l2_query_ext_ctrl *q, int64_t *v);

/* Mean and sample standard deviation of n >= 2 samples of a statistic, and
 * the tolerance a change must exceed: floor + JUDGE_NOISE_K sd. */
struct judge_noise {
	double mean, sd, tol;
};
void judge_noise_of(const double *s, int n, double floor_, struct judge_noise *out);

/* One point of a monotonic sweep (brightness, gain, exposure: mean luma;
 * contrast: luma spread; saturation: chroma magnitude). */
enum judge_kind { JUDGE_LUMA, JUDGE_SPREAD, JUDGE_CHROMA };
struct judge_point {
	int64_t v;		/* the control value set */
	double stat;		/* the statistic measured */
	unsigned p_lo, p_hi;	/* luma percentiles JUDGE_PCT_OUTLIERS and 100 - JUDGE_PCT_OUTLIERS */
	double luma_clip;	/* judge_luma_clip() */
	double chroma_clip;	/* judge_chroma_clip() */
};

/* How much of a region is clipped, on any source. luma: the mean over its
 * pixels of 1 where Y' is at or beyond the nominal limits, else the share
 * of the source's R'G'B' samples behind the pixel at 0 or 255 (frame.h's
 * clip map; 0 on a Y'CbCr source, where this is the fraction of pixels at
 * the luma limits): a contrast or brightness step on an R'G'B' pipeline
 * runs into the clamp of each component first. chroma: the fraction of
 * chroma samples with Cb or Cr at or beyond the nominal limits, or a pixel
 * of their block with an R'G'B' sample at an end. */
double judge_luma_clip(const struct frame *f, const struct roi *r);
double judge_chroma_clip(const struct frame *f, const struct roi *r);

/* Is a step a -> b without the expected rise excused because the region is
 * clipped so that the statistic cannot rise (or cannot show the rise)? */
bool judge_step_excused(enum judge_kind k, const struct judge_point *a, const struct judge_point *b, double tol,
			bool decrease);

enum judge_verdict {
	JUDGE_PASS,
	JUDGE_FAIL_NO_EFFECT,		/* a step without the expected change, not excused */
	JUDGE_FAIL_INVERTED,		/* a step against the expected sense */
	JUDGE_FAIL_NOT_BACK,		/* returning to the original value did not restore the statistic */
	JUDGE_FAIL_NOT_GREY,		/* saturation at its minimum left colour */
	JUDGE_FAIL_NOT_MIRROR,		/* a flip gave neither the expected mirror image */
	JUDGE_FAIL_WRONG_AXIS,		/* a flip mirrored on the other axis */
	JUDGE_FAIL_SAME_SENSE,		/* hue rotated the same way below and above the original */
	JUDGE_INCONCLUSIVE,		/* the scene cannot show the effect: a skip, never a pass */
};

struct judge_sweep_result {
	enum judge_verdict verdict;
	int step;		/* the failing step pts[step] -> pts[step + 1], -1 none */
	int rises, excused;	/* steps that rose, steps excused by clipping */
};
/* Every step must rise by more than tol or be excused by clipping; at least
 * one must rise (else the sweep is clipped throughout: inconclusive); the
 * statistic after returning to the original value must be within tol of the
 * baseline; saturation (JUDGE_CHROMA) must give grey at its minimum. The
 * first finding wins, in that order: grey, steps, clipped, back. */
void judge_sweep(enum judge_kind k, const struct judge_point *pts, int np, double tol, double baseline,
		 double back, struct judge_sweep_result *r);

/* The noise of a region's pixels over the noise frames: per-pixel luma range
 * (lo/hi, region-sized, row-major) and the per-pixel luma sigma. A pixel is
 * 'stable' when its range stays within a code value plus NOISE_K sigma:
 * on-screen counters and moving things are not. */
struct judge_pixel_noise {
	const uint8_t *lo, *hi;
	double pix_sigma;
};
bool judge_pixel_stable(const struct judge_pixel_noise *n, size_t i);

/* Does `after` map the luma levels of `before` monotonically (a tone
 * curve)? Per input level (holding JUDGE_PCT_OUTLIERS % of the region or
 * more, stable pixels only) the median output; a brighter level's median may
 * not fall below a darker one's by more than a code value plus the noise of
 * a median. On false, the offending pair of levels and their medians. */
struct judge_tone_break {
	unsigned lo, hi;
	double med_lo, med_hi;
};
bool judge_tone_curve(const struct frame *before, const struct frame *after, const struct roi *r,
		      const struct judge_pixel_noise *n, struct judge_tone_break *br);

/* Hue: rot[i] is the rotation (degrees, wrapped) measured at vals[i]
 * (ascending). Walking outwards from the original value on each side the
 * unwrapped rotation must grow by more than tol at every step, in one sense
 * below the original value and in the other above it; `back` (rotation after
 * returning) must be within tol of zero. */
struct judge_hue_result {
	enum judge_verdict verdict;
	int at;				/* index of the failing value, -1 none */
	int64_t from;			/* the value the failing step started from */
	double from_rot, at_rot;	/* unwrapped rotations of the failing step */
	bool turned_back;		/* JUDGE_FAIL_NO_EFFECT: true when it rotated the wrong way */
	double unwrapped[JUDGE_SWEEP_POINTS];
	bool have[JUDGE_SWEEP_POINTS];	/* unwrapped[i] was computed */
};
double judge_wrap180(double deg);
void judge_hue(const int64_t *vals, const double *rot, int np, int64_t orig, double tol, double back,
	       struct judge_hue_result *r);

/* Flip: mean absolute luma differences of the flipped frame to the reference
 * (same), to its mirror image on the control's axis (right) and on the other
 * axis (wrong), and of the frame after returning to the reference (back).
 * `site` is what the source's colour sites allow the mirror image on top of
 * tol (judge_site_allowance; 0 for a source without a mosaic): it applies
 * to `right` only, the other comparisons are of frames whose sites match. */
enum judge_verdict judge_mirror(double same, double right, double wrong, double back, double tol, double site);

/* A Bayer sensor's flip mirrors the picture, not the mosaic's colour sites
 * (the pattern's phase stays: the first pixel of a row is red before and
 * after): each colour of the flipped frame is sampled one site (one sensor
 * pixel) away from where the mirror image has it, and whatever the path
 * makes of the mosaic shows that. What the frame is, as far as that goes:
 * no mosaic behind it, a mosaic binned by the statistics (frame.h: each
 * 2x2 cell one pixel), or a mosaic that the pipeline interpolated
 * (debayered) into R'G'B' or Y'CbCr. */
enum judge_mosaic { MOSAIC_NONE, MOSAIC_BINNED, MOSAIC_DEBAYERED };
/* The mosaic behind a frame of layout `fourcc` from a source whose media
 * bus code is src_code (0: none known, a video node's own frames). */
enum judge_mosaic judge_mosaic_of(uint32_t fourcc, uint32_t src_code);
/* One colour site along an axis, in the frame's pixels, rounded up: a
 * binned frame's pixel holds two sites (1); a debayered frame frame_px
 * pixels wide (or high) from a sensor sensor_px wide has frame_px /
 * sensor_px pixels a site (at least 1; 1 when the sensor's size is not
 * known). 0 for MOSAIC_NONE. */
unsigned judge_site_radius(enum judge_mosaic m, unsigned frame_px, unsigned sensor_px);
/* The allowance of a flip of such a source on axis m: the mean luma change
 * (luma[0]) and the largest histogram change of Y', Cb, Cr (hist) that
 * moving each colour by one site of the mosaic can make on the reference
 * (stats_site_spread over region r: the interpolation of the neighbouring
 * sites that binning and bilinear debayering do stays inside that reach).
 * Both 0 for MOSAIC_NONE. */
void judge_site_allowance(const struct frame *ref, const struct roi *r, enum mirror m, enum judge_mosaic mo,
			  unsigned radius, double *luma, double *hist);
#endif
