/* The probe session the frame-capture checks share (suites/suite_probe.c,
 * suites/suite_probe_side.c): the board profile's scene, a capture stream,
 * the control under test, the noise floor at one setting and the latency of
 * a change (the node's, measured once per run: probe_node.h), and one
 * attempt run once more on failure with the before/after
 * frames saved as artifacts. Decisions are lib/image/probe_judge.h's and
 * lib/image/side_judge.h's; this file only measures. Runs inside a check. */
#ifndef V4L2C_PROBE_SESSION_H
#define V4L2C_PROBE_SESSION_H
#include <stdbool.h>
#include <stdint.h>
#include "image/capture.h"
#include "image/frame.h"
#include "image/profile.h"
#include "image/probe_route.h"
#include "check/registry.h"
#include "image/stats.h"
#include "image/probe_node.h"
#include "image/probe_judge.h"

#define PROBE_MIRROR_SHIFT 2	/* pixels a flip may move the image by (a 4:2:2 or Bayer pixel pair) */
#define PROBE_MAX_POINTS 64
/* The frame budget of a probe (issue 24): frames a measured point may cost,
 * settling included; the latency and noise the node's first probe measures
 * are counted apart (probe_node.h). */
#define PROBE_FRAMES_PER_POINT 3
/* After a change: frames past the node's latency a settle waits for the
 * picture to hold still (two consecutive frames alike) before it takes the
 * last one as it is. */
#define PROBE_HOLD_FRAMES 3
/* Looks at one change when the driver dropped the frames across the end of
 * its window, before the latency is taken as measured (probe_wait_for_effect). */
#define PROBE_LATENCY_LOOKS 3

struct probe {
	const struct check_ctx *cx;
	const struct ctrl *c;
	const struct profile *prof;
	struct capture cap;
	bool cap_open;
	struct roi roi;
	unsigned extra;		/* frames to wait beyond the queue after a change (latency) */
	int latency;		/* frames from a change to its effect, -1 not measured */
	bool latency_done;	/* measured, here or by an earlier probe of the node */
	bool latency_noted;	/* 'not measured' said once */
	bool hold_noted;	/* 'did not hold still' said once */
	struct frame f;		/* the newest settled frame */
	int64_t orig;
	/* The noise frames at the original value (the node's kept set when the
	 * first frame showed its picture, else captured here and kept). */
	struct frame noise[PROBE_NOISE_FRAMES];
	bool have_noise;
	double tol_diff;	/* frame difference of two frames of one picture; < 0 unknown */
	unsigned long node_frames;	/* frames spent measuring the node's latency and noise */
	struct probe_route route;	/* frames from a capture node the sensor reaches (cx->route) */
};

/* What an attempt found. */
enum outcome_kind { OUT_PASS, OUT_FAIL, OUT_INCONCLUSIVE };
struct outcome {
	enum outcome_kind kind;
	char msg[1024];
	char info[512];
	struct outcome_point { const char *series; double x, y; } pt[PROBE_MAX_POINTS];
	int npt;
	struct outcome_measure { const char *name; double v; const char *unit; } m[8];
	int nm;
	struct frame before, after;	/* for artifacts on failure */
	bool have_frames;
};

void outcome_point(struct outcome *o, const char *series, double x, double y);
void outcome_measure(struct outcome *o, const char *name, double v, const char *unit);
/* The first finding wins: later calls change nothing. */
void outcome_set(struct outcome *o, enum outcome_kind k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The frames saved as artifacts if the outcome is a failure (the first pair). */
void outcome_frames(struct outcome *o, const struct frame *before, const struct frame *after);
void outcome_free(struct outcome *o);

/* Scene settings, capture started, the first frame after them waited for;
 * roi and orig set. Aborts the check when frames cannot be captured. */
void probe_begin(struct probe *p, const struct check_ctx *cx);
void probe_end(struct probe *p);
static inline const char *probe_ctrl_name(const struct probe *p)
{
	return p->c->q.name;
}
int64_t probe_get(struct probe *p);
/* Set the probed control; returns what the driver stored. */
int64_t probe_set(struct probe *p, int64_t v);
/* The next frame; the frame that shows the last change: from the node's
 * latency on, the first that the next frame confirms (PROBE_HOLD_FRAMES
 * more at most, then the last as it is; before the latency is known, the
 * first frame made after the change behind the whole queue). Both abort the
 * check on a capture error. */
void probe_grab(struct probe *p, struct frame *f);
void probe_settle(struct probe *p, struct frame *f);
/* Frames until the image differs from `before` and holds still, counted
 * from the change (call right after the set): the latency, waited for after
 * every later change. False when nothing changed in the window. */
bool probe_wait_for_effect(struct probe *p, const struct frame *before, double tol_diff, struct frame *f,
			   struct outcome *o);

struct probe_noise {
	double mean, sd;	/* of the probe's statistic */
	double diff_mean;	/* mean frame difference between consecutive frames */
	double luma_mad_mean;	/* the same, luma only */
	double tol;		/* statistic tolerance */
	double tol_diff;	/* frame-difference tolerance */
	double tol_mad;		/* luma MAD tolerance */
	double pix_sigma;	/* per-pixel luma noise (from the MAD: E|X-Y| = 2 sigma / sqrt(pi)) */
	uint8_t *lo, *hi;	/* per-pixel luma range over the frames, region-sized */
};
void probe_noise_free(struct probe_noise *n);
/* The noise frames (probe_noise's), captured now unless known. */
const struct frame *probe_noise_frames(struct probe *p);
typedef double (*stat_fn)(const struct frame *f, const struct roi *r, const struct frame *ref);
/* The noise of PROBE_NOISE_FRAMES frames at the current setting (fn: the
 * statistic, may be NULL): the node's kept set of this picture, else frames
 * captured now (and kept). `last` gets the newest frame at the setting. */
void probe_noise(struct probe *p, stat_fn fn, const struct frame *ref, double floor_, struct frame *last,
		 struct probe_noise *n);

/* The mosaic behind the probe's frames (probe_judge.h: binned by the
 * statistics, or debayered on the path from a Bayer sensor) and one colour
 * site on axis m in the frame f's pixels (0: no mosaic). */
enum judge_mosaic probe_mosaic(const struct probe *p, const struct frame *f, enum mirror m, unsigned *radius);

typedef void (*attempt_fn)(struct probe *p, struct outcome *o);
/* One attempt, once more on failure (a pass the second time is a warning);
 * records the measurements, saves the frames of a failure, and ends the
 * check with its verdict. */
void probe_run(const struct check_ctx *cx, attempt_fn fn);
/* What the probe cost in frames, and per measured point (the node's
 * latency and noise, measured by its first probe, counted apart). */
void probe_measure_frames(const struct probe *p, int points);
/* Gain and exposure: their automatic mode turned off first where it makes
 * them inactive (skip when it cannot be). */
void probe_make_manual(const struct check_ctx *cx);
/* Writable, readable scalar controls the profile does not list as 'no
 * visible effect' and whose meaning requires an effect (probe_judge.h). */
bool probe_target(const struct ctrl *c, const char **why);
#endif
