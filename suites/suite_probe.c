/* Frame-statistics probes (issue 5; spec section 18): a control must change
 * the picture the way its meaning says. Brightness (and gain, exposure) up
 * gives mean luma up, contrast up gives luma spread up, saturation at its
 * minimum gives grey and up gives more colour, hue rotates the colours,
 * horizontal/vertical flip give the mirror image on the right axis, each item
 * of a picture menu (test pattern) gives a distinct image; every other
 * writable control gets an informational 'visible effect or not' record.
 *
 * Method, for every probe:
 *  - the board profile's scene settings are applied, capture starts, and the
 *    first frame made after them is waited for (spec section 18 stale-frame
 *    rule, lib/image/capture.c);
 *  - the noise floor: PROBE_NOISE_FRAMES frames at the original value,
 *    measured once per node and scene and shared (lib/image/probe_node.h);
 *    every tolerance is half a code value (8-bit quantisation) plus
 *    JUDGE_NOISE_K standard deviations of the statistic over those frames,
 *    nothing else;
 *  - the latency: after the node's first change, frames until the image
 *    changes and holds (reported, and kept for every later probe); after a
 *    change a probe takes the frames from the latency on until two agree
 *    (2 frames a point on vivid, probe_session.h);
 *  - clipping guards: a step without the expected change is excused only
 *    where the region is clipped in that direction (nominal Y' 16..235,
 *    C 16..240, all but JUDGE_PCT_OUTLIERS % of the pixels); a sweep that is
 *    clipped throughout, a flat or symmetric scene: inconclusive (skip);
 *  - luma controls must also act as a tone curve: per input level the median
 *    output keeps the levels in order (catches wrap-around);
 *  - flips are compared forgiving displacements of up to PROBE_MIRROR_SHIFT pixels
 *    (pixel-pair readout; vivid moves one pixel per bar edge);
 *  - returning to the original value must bring the statistic back;
 *  - a failure is measured once more (flaky boards): passing the second
 *    time gives a warning, failing again a failure with the before/after
 *    frames saved as artifacts. */
#include "image/capture.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "image/probe_judge.h"
#include "image/probe_session.h"
#include "image/excuse.h"
#include "image/profile.h"
#include "image/profile_scene.h"
#include "check/registry.h"
#include "check/results.h"
#include "run/runner.h"
#include "image/side_judge.h"
#include "image/stats.h"
#include "check/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* the decision constants (JUDGE_NOISE_K, JUDGE_HALF_CODE, ...) are lib/image/probe_judge.h's */
#define MAX_ITEMS 64

static const double PI = 3.14159265358979323846;

/* ---------- sweeps ---------- */

static int farthest(const int64_t *v, int n, int64_t from)
{
	int best = 0;
	for (int i = 1; i < n; i++)
		if (llabs(v[i] - from) > llabs(v[best] - from))
			best = i;
	return best;
}

static double stat_luma(const struct frame *f, const struct roi *r, const struct frame *ref)
{
	return stats_luma_mean(f, r);
}

static double stat_spread(const struct frame *f, const struct roi *r, const struct frame *ref)
{
	return stats_luma_stdev(f, r);
}

static double stat_chroma(const struct frame *f, const struct roi *r, const struct frame *ref)
{
	return stats_chroma_magnitude_mean(f, r);
}

static const char *kind_stat_name(enum judge_kind k)
{
	return k == JUDGE_LUMA ? "mean luma" : k == JUDGE_SPREAD ? "luma standard deviation" : "mean chroma magnitude";
}

/* One attempt of a monotonic sweep probe (brightness, gain, exposure,
 * contrast, saturation). */
static void attempt_sweep(struct probe *p, enum judge_kind k, struct outcome *o)
{
	static const stat_fn fns[] = { stat_luma, stat_spread, stat_chroma };
	const stat_fn fn = fns[k];
	const char *sname = kind_stat_name(k);
	struct frame base = { 0 };
	struct probe_noise n = { 0 };
	struct judge_point jp[JUDGE_SWEEP_POINTS];	/* what the judge sees */
	struct frame fr[JUDGE_SWEEP_POINTS];		/* the frames, for artifacts */
	memset(fr, 0, sizeof(fr));
	int64_t vals[JUDGE_SWEEP_POINTS];
	int np = judge_sweep_values(&p->c->q, vals);

	probe_noise(p, fn, NULL, JUDGE_HALF_CODE, &base, &n);
	outcome_measure(o, "baseline", n.mean, sname);
	outcome_measure(o, "noise sd", n.sd, sname);
	outcome_measure(o, "tolerance", n.tol, sname);
	if (np < 2) {
		outcome_set(o, OUT_INCONCLUSIVE, "%s has a single value", probe_ctrl_name(p));
		goto done;
	}
	if (k == JUDGE_SPREAD && stats_luma_stdev(&base, &p->roi) <= n.tol)
		outcome_set(o, OUT_INCONCLUSIVE, "the region is flat (luma standard deviation %.2f): contrast cannot show; "
			"choose a test pattern or region in the board profile", stats_luma_stdev(&base, &p->roi));
	if (k == JUDGE_CHROMA && n.mean <= n.tol)
		outcome_set(o, OUT_INCONCLUSIVE, "no colour in the region (mean chroma magnitude %.2f): saturation cannot show",
			n.mean);
	if (o->kind != OUT_PASS)
		goto done;

	/* The first change (the value farthest from the original) measures the latency. */
	if (!p->latency_done) {
		int far = farthest(vals, np, p->orig);
		probe_set(p, vals[far]);
		probe_wait_for_effect(p, &base, n.tol_diff, &p->f, o);
	}
	for (int i = 0; i < np; i++) {
		struct judge_point *j = &jp[i];
		j->v = probe_set(p, vals[i]);
		probe_settle(p, &fr[i]);
		struct frame_stats s;
		stats_frame(&fr[i], &p->roi, &s);
		j->stat = fn(&fr[i], &p->roi, NULL);
		j->p_lo = stats_luma_percentile(&s, JUDGE_PCT_OUTLIERS);
		j->p_hi = stats_luma_percentile(&s, 100 - JUDGE_PCT_OUTLIERS);
		j->luma_clip = judge_luma_clip(&fr[i], &p->roi);
		j->chroma_clip = judge_chroma_clip(&fr[i], &p->roi);
		outcome_point(o, sname, (double)j->v, j->stat);
	}
	/* Back to the original value. */
	probe_set(p, p->orig);
	probe_settle(p, &p->f);
	double back = fn(&p->f, &p->roi, NULL);
	outcome_measure(o, "after return", back, sname);

	struct judge_sweep_result r;
	judge_sweep(k, jp, np, n.tol, n.mean, back, &r);
	/* Saturation: the minimum is grey. */
	if (r.verdict == JUDGE_FAIL_NOT_GREY) {
		outcome_set(o, OUT_FAIL, "expected %s at its minimum %lld to give grey (chroma <= %.2f), got mean chroma %.2f",
			probe_ctrl_name(p), (long long)jp[0].v, n.tol, jp[0].stat);
		outcome_frames(o, &base, &fr[0]);
	}
	/* A luma control is a tone curve: no level may overtake a brighter one. */
	if (o->kind == OUT_PASS && k != JUDGE_CHROMA) {
		const struct judge_pixel_noise pn = { n.lo, n.hi, n.pix_sigma };
		for (int i = 0; i < np; i++) {
			struct judge_tone_break br;
			if (!judge_tone_curve(&base, &fr[i], &p->roi, &pn, &br)) {
				outcome_set(o, OUT_FAIL, "at %s = %lld the luma levels are not kept in order: pixels at %u "
					"became %.0f (median), brighter pixels at %u became %.0f (wrap-around?)",
					probe_ctrl_name(p), (long long)jp[i].v, br.lo, br.med_lo, br.hi, br.med_hi);
				outcome_frames(o, &base, &fr[i]);
				break;
			}
		}
	}
	const struct judge_point *a = r.step >= 0 ? &jp[r.step] : NULL, *b = a ? a + 1 : NULL;
	switch (r.verdict) {
	case JUDGE_FAIL_INVERTED:
	case JUDGE_FAIL_NO_EFFECT: {
		const bool inverted = r.verdict == JUDGE_FAIL_INVERTED;
		outcome_set(o, OUT_FAIL, "expected %s to rise%s from %s = %lld to %lld%s, got %.2f -> %.2f (tolerance %.2f): %s",
			sname, inverted ? " (or stay, where clipped)" : "", probe_ctrl_name(p), (long long)a->v, (long long)b->v,
			inverted ? "" : " (the region is not clipped)", a->stat, b->stat, n.tol,
			inverted ? "inverted or wrapping effect" : "no visible effect");
		outcome_frames(o, &fr[r.step], &fr[r.step + 1]);
		break;
	}
	case JUDGE_INCONCLUSIVE:
		outcome_set(o, OUT_INCONCLUSIVE, "the region is clipped over the whole sweep of %s (%d steps excused)",
			probe_ctrl_name(p), r.excused);
		break;
	case JUDGE_FAIL_NOT_BACK:
		outcome_set(o, OUT_FAIL, "expected %s back at %.2f after returning %s to %lld, got %.2f (tolerance %.2f)",
			sname, n.mean, probe_ctrl_name(p), (long long)p->orig, back, n.tol);
		outcome_frames(o, &base, &p->f);
		break;
	default:
		break;
	}
	if (o->kind == OUT_PASS)
		snprintf(o->info, sizeof(o->info), "%s %.2f at %lld -> %.2f at %lld over %d points (%d clipped steps excused)",
			 sname, jp[0].stat, (long long)jp[0].v, jp[np - 1].stat, (long long)jp[np - 1].v, np, r.excused);
done:
	for (int i = 0; i < JUDGE_SWEEP_POINTS; i++)
		frame_free(&fr[i]);
	frame_free(&base);
	probe_noise_free(&n);
}

/* ---------- hue ---------- */

static double stat_hue_rot(const struct frame *f, const struct roi *r, const struct frame *ref)
{
	return stats_hue_rotation_deg(ref, f, r);
}

static void attempt_hue(struct probe *p, struct outcome *o)
{
	struct frame base = { 0 }, ref = { 0 };
	struct probe_noise n = { 0 }, nmag = { 0 };
	int64_t vals[JUDGE_SWEEP_POINTS];
	double rot[JUDGE_SWEEP_POINTS];
	struct frame fr[JUDGE_SWEEP_POINTS];
	memset(fr, 0, sizeof(fr));
	int np = judge_sweep_values(&p->c->q, vals);

	/* reference frame (the settled first one), then the rotation noise against it */
	frame_copy(&ref, &p->f);
	probe_noise(p, stat_chroma, NULL, JUDGE_HALF_CODE, &base, &nmag);
	probe_noise(p, stat_hue_rot, &ref, 0, &base, &n);
	const double mag = nmag.mean;
	if (!(mag > nmag.tol) || !isfinite(n.mean)) {
		outcome_set(o, OUT_INCONCLUSIVE, "no colour in the region (mean chroma magnitude %.2f): hue cannot show", mag);
		goto done;
	}
	/* half a code value at the mean chroma radius, plus the noise */
	const double tol = atan2(JUDGE_HALF_CODE, mag) * 180 / PI + JUDGE_NOISE_K * n.sd;
	outcome_measure(o, "noise sd", n.sd, "degrees");
	outcome_measure(o, "tolerance", tol, "degrees");
	outcome_measure(o, "chroma magnitude", mag, "");
	if (np < 2) {
		outcome_set(o, OUT_INCONCLUSIVE, "%s has a single value", probe_ctrl_name(p));
		goto done;
	}
	if (!p->latency_done) {
		probe_set(p, vals[farthest(vals, np, p->orig)]);
		probe_wait_for_effect(p, &base, n.tol_diff, &p->f, o);
	}
	for (int i = 0; i < np; i++) {
		vals[i] = probe_set(p, vals[i]);
		probe_settle(p, &fr[i]);
		rot[i] = stats_hue_rotation_deg(&ref, &fr[i], &p->roi);
		if (!isfinite(rot[i])) {
			outcome_set(o, OUT_INCONCLUSIVE, "at %s = %lld the region has no colour left", probe_ctrl_name(p),
				(long long)vals[i]);
			goto done;
		}
	}
	probe_set(p, p->orig);
	probe_settle(p, &p->f);
	double back = stats_hue_rotation_deg(&ref, &p->f, &p->roi);
	outcome_measure(o, "rotation after return", back, "degrees");

	/* Walk outwards from the original value on each side, unwrapping: the
	 * rotation must grow at every step, in opposite senses on the two sides. */
	struct judge_hue_result r;
	judge_hue(vals, rot, np, p->orig, tol, back, &r);
	for (int i = 0; i < np; i++)
		if (r.have[i])
			outcome_point(o, "hue rotation (degrees)", (double)vals[i], r.unwrapped[i]);
		else if (vals[i] == p->orig)
			outcome_point(o, "hue rotation (degrees)", (double)vals[i], judge_wrap180(rot[i]));
	switch (r.verdict) {
	case JUDGE_FAIL_NO_EFFECT:
		outcome_set(o, OUT_FAIL, "expected the hue to keep rotating from %s = %lld to %lld, got %.1f -> %.1f "
			"degrees (tolerance %.2f)%s", probe_ctrl_name(p), (long long)r.from, (long long)vals[r.at],
			r.from_rot, r.at_rot, tol, r.turned_back ? ": the rotation turned back" : ": no rotation");
		outcome_frames(o, &ref, &fr[r.at]);
		break;
	case JUDGE_FAIL_SAME_SENSE:
		outcome_set(o, OUT_FAIL, "expected opposite rotations below and above %s = %lld, got the same sense on both sides",
			probe_ctrl_name(p), (long long)p->orig);
		break;
	case JUDGE_INCONCLUSIVE:
		outcome_set(o, OUT_INCONCLUSIVE, "no sweep value other than the original");
		break;
	case JUDGE_FAIL_NOT_BACK:
		outcome_set(o, OUT_FAIL, "expected the hue back to the reference after returning %s to %lld, got a rotation "
			"of %.2f degrees (tolerance %.2f)", probe_ctrl_name(p), (long long)p->orig, back, tol);
		outcome_frames(o, &ref, &p->f);
		break;
	default:
		break;
	}
	if (o->kind == OUT_PASS)
		snprintf(o->info, sizeof(o->info), "hue rotation %.1f degrees at %lld, %.1f at %lld (unwrapped from %lld)",
			 r.unwrapped[0], (long long)vals[0], r.unwrapped[np - 1], (long long)vals[np - 1],
			 (long long)p->orig);
done:
	for (int i = 0; i < JUDGE_SWEEP_POINTS; i++)
		frame_free(&fr[i]);
	frame_free(&base);
	frame_free(&ref);
	probe_noise_free(&n);
	probe_noise_free(&nmag);
}

/* ---------- flips ---------- */

static void attempt_mirror(struct probe *p, struct outcome *o)
{
	const bool horizontal = p->c->q.id == V4L2_CID_HFLIP;
	const enum mirror axis = horizontal ? MIRROR_H : MIRROR_V, other = horizontal ? MIRROR_V : MIRROR_H;
	const char *axis_name = horizontal ? "left-right" : "top-bottom", *other_name = horizontal ? "top-bottom" : "left-right";
	struct frame base = { 0 }, fl = { 0 };
	struct probe_noise n = { 0 };
	probe_noise(p, stat_spread, NULL, JUDGE_HALF_CODE, &base, &n);
	const double tol = n.tol_mad;
	outcome_measure(o, "noise luma MAD", n.luma_mad_mean, "luma");
	outcome_measure(o, "tolerance", tol, "luma");
	double self = stats_luma_mad_local(&base, &base, &p->roi, axis, PROBE_MIRROR_SHIFT);
	if (stats_luma_stdev(&base, &p->roi) <= n.tol) {
		outcome_set(o, OUT_INCONCLUSIVE, "the region is flat: a flip cannot show; choose a test pattern or region in "
			"the board profile");
		goto done;
	}
	if (self <= tol) {
		outcome_set(o, OUT_INCONCLUSIVE, "the scene is %s symmetric in the region (MAD to its own mirror image %.2f, "
			"tolerance %.2f): a flip cannot show; set a non-symmetric test pattern for %s in the board profile "
			"(scene.%s.CONTROL = VALUE)", axis_name, self, tol, p->c->slug, p->c->slug);
		goto done;
	}
	int64_t target = probe_set(p, !p->orig);
	if (!p->latency_done)
		probe_wait_for_effect(p, &base, n.tol_diff, &p->f, o);
	probe_settle(p, &fl);
	/* each comparison forgiving displacements up to PROBE_MIRROR_SHIFT pixels */
	double right = stats_luma_mad_local(&fl, &base, &p->roi, axis, PROBE_MIRROR_SHIFT);
	double wrong = stats_luma_mad_local(&fl, &base, &p->roi, other, PROBE_MIRROR_SHIFT);
	double same = stats_luma_mad_local(&fl, &base, &p->roi, MIRROR_NONE, PROBE_MIRROR_SHIFT);
	outcome_point(o, "MAD to the reference", (double)target, same);
	outcome_point(o, horizontal ? "MAD to the left-right mirrored reference" : "MAD to the top-bottom mirrored reference",
		  (double)target, right);
	outcome_point(o, horizontal ? "MAD to the top-bottom mirrored reference" : "MAD to the left-right mirrored reference",
		  (double)target, wrong);
	probe_set(p, p->orig);
	probe_settle(p, &p->f);
	double back = stats_luma_mad_local(&p->f, &base, &p->roi, MIRROR_NONE, PROBE_MIRROR_SHIFT);
	outcome_measure(o, "MAD after return", back, "luma");
	/* A Bayer source's flip keeps the mosaic's colour sites: the mirror
	 * image is the flip's up to one site of each colour (probe_judge.h). */
	unsigned radius;
	double site = 0, site_hist;
	const enum judge_mosaic mo = probe_mosaic(p, &base, axis, &radius);
	const struct roi mr = side_roi_mirror(&p->roi, base.width, base.height, axis);
	judge_site_allowance(&base, &mr, axis, mo, radius, &site, &site_hist);
	if (mo != MOSAIC_NONE)
		outcome_measure(o, "colour-site allowance", site, "luma");
	switch (judge_mirror(same, right, wrong, back, tol, site)) {
	case JUDGE_FAIL_NO_EFFECT:
		outcome_set(o, OUT_FAIL, "expected %s = %lld to change the image, got the reference (MAD %.2f, tolerance %.2f): "
			"no visible effect", probe_ctrl_name(p), (long long)target, same, tol);
		outcome_frames(o, &base, &fl);
		break;
	case JUDGE_FAIL_WRONG_AXIS:
	case JUDGE_FAIL_NOT_MIRROR:
		outcome_set(o, OUT_FAIL, "expected the %s mirror image of the reference with %s = %lld, got MAD %.2f to it "
			"(tolerance %.2f)%s", axis_name, probe_ctrl_name(p), (long long)target, right, tol + site,
			wrong <= tol ? v_fmt(": it is the %s mirror image (flips on the wrong axis)", other_name) : "");
		outcome_frames(o, &base, &fl);
		break;
	case JUDGE_INCONCLUSIVE:
		outcome_set(o, OUT_INCONCLUSIVE, "the %s and %s mirror images look the same in the region: the axis cannot be told",
			axis_name, other_name);
		break;
	case JUDGE_FAIL_NOT_BACK:
		outcome_set(o, OUT_FAIL, "expected the reference image back after returning %s to %lld, got MAD %.2f "
			"(tolerance %.2f)", probe_ctrl_name(p), (long long)p->orig, back, tol);
		outcome_frames(o, &base, &p->f);
		break;
	default:
		break;
	}
	if (o->kind == OUT_PASS)
		snprintf(o->info, sizeof(o->info), "MAD to the %s mirror %.2f, to the %s mirror %.2f, to the reference %.2f "
			 "(displacements up to %d pixels forgiven; tolerance %.2f%s)", axis_name, right, other_name, wrong, same,
			 PROBE_MIRROR_SHIFT, tol, mo == MOSAIC_NONE ? "" : v_fmt(", %.2f more to the mirror for the colour "
			 "sites of a %s mosaic", site, mo == MOSAIC_BINNED ? "binned" : "debayered"));
done:
	frame_free(&base);
	frame_free(&fl);
	probe_noise_free(&n);
}

/* ---------- menus whose items are pictures ---------- */

static void attempt_distinct(struct probe *p, struct outcome *o)
{
	struct frame base = { 0 };
	struct frame fr[MAX_ITEMS];
	int64_t items[MAX_ITEMS];
	int ni = 0;
	memset(fr, 0, sizeof(fr));
	for (size_t i = 0; i < p->c->n_menu && ni < MAX_ITEMS; i++)
		if (!p->c->menu[i].err)
			items[ni++] = p->c->menu[i].index;
	struct probe_noise n = { 0 };
	probe_noise(p, NULL, NULL, JUDGE_HALF_CODE, &base, &n);
	const double tol = n.tol_diff;
	outcome_measure(o, "noise frame difference", n.diff_mean, "");
	outcome_measure(o, "tolerance", tol, "");
	if (ni < 2) {
		outcome_set(o, OUT_INCONCLUSIVE, "%s has fewer than two items", probe_ctrl_name(p));
		goto done;
	}
	for (int i = 0; i < ni; i++) {
		probe_set(p, items[i]);
		if (!p->latency_done && items[i] != p->orig)
			probe_wait_for_effect(p, &base, tol, &p->f, o);
		probe_settle(p, &fr[i]);
		outcome_point(o, "frame difference to the original item", (double)items[i],
			  stats_frame_difference(&base, &fr[i], &p->roi));
	}
	probe_set(p, p->orig);
	probe_settle(p, &p->f);
	double back = stats_frame_difference(&base, &p->f, &p->roi);
	char same[512] = "";
	int nsame = 0;
	for (int i = 0; i < ni; i++)
		for (int j = i + 1; j < ni; j++) {
			double d = stats_frame_difference(&fr[i], &fr[j], &p->roi);
			if (d <= tol) {
				if (!nsame)
					outcome_frames(o, &fr[i], &fr[j]);
				size_t l = strlen(same);
				if (l < sizeof(same) - 64)
					snprintf(same + l, sizeof(same) - l, "%s%lld '%s' = %lld '%s' (%.2f)", nsame ? ", " : "",
						 (long long)items[i], p->c->menu[items[i] - p->c->q.minimum].name,
						 (long long)items[j], p->c->menu[items[j] - p->c->q.minimum].name, d);
				nsame++;
			}
		}
	if (nsame)
		outcome_set(o, OUT_FAIL, "expected every item of %s to give a distinct image, got %d pair(s) alike "
			"(frame difference <= %.2f): %s", probe_ctrl_name(p), nsame, tol, same);
	else if (back > tol) {
		outcome_set(o, OUT_FAIL, "expected the original image back after returning %s to %lld, got frame difference "
			"%.2f (tolerance %.2f)", probe_ctrl_name(p), (long long)p->orig, back, tol);
		outcome_frames(o, &base, &p->f);
	}
	if (o->kind == OUT_PASS)
		snprintf(o->info, sizeof(o->info), "%d items, all distinct", ni);
done:
	for (int i = 0; i < MAX_ITEMS; i++)
		frame_free(&fr[i]);
	frame_free(&base);
	probe_noise_free(&n);
}

/* ---------- check functions ---------- */

static void attempt_luma(struct probe *p, struct outcome *o) { attempt_sweep(p, JUDGE_LUMA, o); }
static void attempt_spread(struct probe *p, struct outcome *o) { attempt_sweep(p, JUDGE_SPREAD, o); }
static void attempt_chroma(struct probe *p, struct outcome *o) { attempt_sweep(p, JUDGE_CHROMA, o); }

static void luma_up(const struct check_ctx *cx)
{
	probe_make_manual(cx);
	probe_run(cx, attempt_luma);
}

static void spread_up(const struct check_ctx *cx) { probe_run(cx, attempt_spread); }
static void chroma_up(const struct check_ctx *cx) { probe_run(cx, attempt_chroma); }
static void hue_rotates(const struct check_ctx *cx) { probe_run(cx, attempt_hue); }
static void mirror(const struct check_ctx *cx) { probe_run(cx, attempt_mirror); }
static void distinct_items(const struct check_ctx *cx) { probe_run(cx, attempt_distinct); }

/* Informational: does the control change the picture at all? Three points
 * (the original value, the other, back) in PROBE_FRAMES_PER_POINT frames
 * each: the first frame (the node's noise set shows it is settled), at most
 * VISIBLE_WINDOW frames for the change to show, two to settle back. A
 * control slower than that is reported as not seen within the window, with
 * the window named. */
#define VISIBLE_WINDOW (3 * PROBE_FRAMES_PER_POINT - 3)
static void visible_effect(const struct check_ctx *cx)
{
	static struct probe p;
	probe_begin(&p, cx);
	struct frame base = { 0 };
	struct probe_noise n = { 0 };
	probe_noise(&p, NULL, NULL, JUDGE_HALF_CODE, &base, &n);
	probe_noise_free(&n);
	int64_t other;
	if (!ctrl_other_value(p.c, p.orig, &other)) {
		probe_end(&p);
		v_skip("%s has a single value", p.c->q.name);
	}
	int64_t w = other;
	int e = ctrl_set_scalar(cx->dev, p.c, &w);
	if (e) {
		probe_end(&p);
		v_skip("informational: %s = %lld cannot be set while streaming (%s)", p.c->q.name, (long long)other,
		       errno_name(e));
	}
	/* Within the queue plus max-latency frames, and the window; a capture
	 * error (error injection controls) is reported, not failed. */
	const uint32_t mark = capture_mark(&p.cap);
	unsigned window = p.cap.queued + p.prof->max_latency + 1;
	if (window > VISIBLE_WINDOW)
		window = VISIBLE_WINDOW;
	double diff = 0;
	int latency = -1;
	for (unsigned k = 0; k < window; k++) {
		if (capture_next(&p.cap, &p.f)) {
			char why[256];
			snprintf(why, sizeof(why), "%s", p.cap.err);
			w = p.orig;
			ctrl_set_scalar(cx->dev, p.c, &w);
			probe_end(&p);
			frame_free(&base);
			v_skip("informational: capture stopped with %s = %lld: %s", p.c->q.name, (long long)other, why);
		}
		diff = stats_frame_difference(&base, &p.f, &p.roi);
		if (diff > n.tol_diff) {
			latency = (int)(p.f.sequence - mark);
			break;
		}
	}
	w = p.orig;
	e = ctrl_set_scalar(cx->dev, p.c, &w);
	v_measure("frame difference", diff, "");
	v_measure("tolerance", n.tol_diff, "");
	const bool listed = profile_is_no_effect(p.prof, p.c->slug, p.c->q.id);
	if (latency >= 0) {
		double back = NAN;
		if (!e) {
			probe_settle(&p, &p.f);
			back = stats_frame_difference(&base, &p.f, &p.roi);
		}
		v_measure("latency", latency, "frames");
		v_point("frame difference to the original value", (double)w, 0);
		v_point("frame difference to the original value", (double)other, diff);
		if (back > n.tol_diff || isnan(back))
			v_info("the image did not come back after returning %s to %lld (frame difference %.2f, tolerance "
			       "%.2f)", p.c->q.name, (long long)p.orig, back, n.tol_diff);
		if (listed)
			v_info("the board profile lists %s as 'no visible effect', but the image changed", p.c->slug);
		v_info("visible effect: %s = %lld changes the region (frame difference %.2f, tolerance %.2f, "
		       "after %d frames)", p.c->q.name, (long long)other, diff, n.tol_diff, latency);
		probe_measure_frames(&p, 3);	/* the original, the other value, and back */
		probe_end(&p);
		frame_free(&base);
		return;
	}
	/* Nothing changed: no frame after the return is needed. */
	probe_measure_frames(&p, 3);
	excuse_or_fail(cx->dev, cx->model, &p.cap, "no visible effect");	/* PB-6 */
	probe_end(&p);
	frame_free(&base);
	v_skip("informational: no visible effect of %s = %lld in the region within %u frames of the change (frame "
	       "difference %.2f, tolerance %.2f; the probe's budget is %d frames a point)", p.c->q.name,
	       (long long)other, window, diff, n.tol_diff, PROBE_FRAMES_PER_POINT);
}

/* ---------- applicability ---------- */

static bool is_integer(const struct ctrl *c)
{
	return c->q.type == V4L2_CTRL_TYPE_INTEGER || c->q.type == V4L2_CTRL_TYPE_INTEGER64;
}

static bool luma_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	switch (c->q.id) {
	case V4L2_CID_BRIGHTNESS:
	case V4L2_CID_GAIN:
	case V4L2_CID_ANALOGUE_GAIN:
	case V4L2_CID_DIGITAL_GAIN:
	case V4L2_CID_EXPOSURE:
	case V4L2_CID_EXPOSURE_ABSOLUTE:
		return is_integer(c) && probe_target(c, why);
	}
	return false;
}

static bool spread_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return c->q.id == V4L2_CID_CONTRAST && is_integer(c) && probe_target(c, why);
}

static bool chroma_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return c->q.id == V4L2_CID_SATURATION && is_integer(c) && probe_target(c, why);
}

static bool hue_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return c->q.id == V4L2_CID_HUE && is_integer(c) && probe_target(c, why);
}

static bool mirror_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return (c->q.id == V4L2_CID_HFLIP || c->q.id == V4L2_CID_VFLIP) && c->q.type == V4L2_CTRL_TYPE_BOOLEAN &&
	       probe_target(c, why);
}

static bool is_picture_menu(const struct ctrl *c)
{
	const struct profile *pr = profile_load_or_exit(g_opts.profile);
	return ctrl_type_is_menu(c->q.type) &&
	       (c->q.id == V4L2_CID_TEST_PATTERN || profile_is_distinct_items(pr, c->slug, c->q.id));
}

static bool distinct_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return is_picture_menu(c) && probe_target(c, why);
}

static bool has_specific_probe(const struct ctrl *c)
{
	const char *why = NULL;
	return luma_applies(c, NULL, &why) || spread_applies(c, NULL, &why) || chroma_applies(c, NULL, &why) ||
	       hue_applies(c, NULL, &why) || mirror_applies(c, NULL, &why) || distinct_applies(c, NULL, &why) || why;
}

static bool visible_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!ctrl_settable_scalar(c) || has_specific_probe(c))
		return false;
	return probe_target(c, why);
}

static const struct check_def checks[] = {
	{ "probe/luma-up", "S18", "raising brightness (gain, exposure) raises the mean luma, monotonic from minimum to maximum; "
	  "the original value brings it back", CHECK_PER_CONTROL, luma_up, luma_applies, NULL, 180, true },
	{ "probe/spread-up", "S18", "raising contrast raises the luma spread (standard deviation), levels stay in order; "
	  "the original value brings it back", CHECK_PER_CONTROL, spread_up, spread_applies, NULL, 180, true },
	{ "probe/chroma-up", "S18", "saturation at its minimum gives grey and raising it raises the chroma; "
	  "the original value brings it back", CHECK_PER_CONTROL, chroma_up, chroma_applies, NULL, 180, true },
	{ "probe/hue-rotates", "S18", "hue rotates the colours, one sense above the original value and the other below; "
	  "the original value brings them back", CHECK_PER_CONTROL, hue_rotates, hue_applies, NULL, 180, true },
	{ "probe/mirror", "S18", "horizontal/vertical flip gives the mirror image of the reference on its own axis, not "
	  "the other; the original value brings the reference back", CHECK_PER_CONTROL, mirror, mirror_applies, NULL, 120, true },
	{ "probe/distinct-items", "S18", "every item of a picture menu (test pattern) gives a distinct image",
	  CHECK_PER_CONTROL, distinct_items, distinct_applies, NULL, 300, true },
	{ "probe/visible-effect", "S18", "informational: does changing the control change the picture at all",
	  CHECK_PER_CONTROL, visible_effect, visible_applies, NULL, 90, true },
};
SUITE(suite_probe, "probe", "frame-statistics probes", checks);
