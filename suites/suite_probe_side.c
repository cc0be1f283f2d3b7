/* Side-effect and range probes (issue 13 item 7; spec/rules-probe.md
 * PB-1..PB-5): a control changes what its meaning names and leaves the
 * rest alone, and it acts over the whole range it advertises.
 *  - brightness (the black level) leaves the chroma alone (PB-1),
 *    saturation (chroma gain) the mean luma (PB-2), hue (a rotation of the
 *    colours) the luma and the chroma magnitude (PB-3): measured at the
 *    minimum, a quarter, three quarters and the maximum of the range, on the
 *    samples unclipped in both frames (side_judge.h);
 *  - a flip only moves pixels: the histogram of the mirrored region is the
 *    histogram of the region before (PB-4);
 *  - a control with a documented picture meaning still changes the picture
 *    between three quarters and the maximum, and between the minimum and a
 *    quarter, unless its effect is clipped there (PB-5).
 * Every tolerance is half a code value plus the same measurement between
 * frames with no change (the noise floor); a flip also forgives the
 * displacement of PROBE_MIRROR_SHIFT pixels, measured on the reference. Few
 * frames per point: the session's settle, the node's noise frames (measured
 * once per node and scene, probe_node.h), and no settle after the return to
 * the original value, which no decision here reads. */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "image/probe_judge.h"
#include "image/probe_session.h"
#include "image/profile.h"
#include "check/registry.h"
#include "run/runner.h"
#include "image/side_judge.h"
#include "image/stats.h"
#include "check/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference (p->f after probe_begin) and the noise frames against it:
 * side shifts, histogram distances and the frame-difference tolerance. */
struct side_noise {
	struct side_shift shift[PROBE_NOISE_FRAMES];
	double hist[PROBE_NOISE_FRAMES];
	double tol_diff;
	int n;
};

static void side_noise_of(struct probe *p, const struct frame *base, struct side_noise *sn)
{
	/* the session's noise frames after the first (the node's kept set of
	 * this picture, or captured now) */
	const struct frame *nf = probe_noise_frames(p) + 1;
	const struct frame *prev = base;
	struct side_hist hb, hg;
	double dsum = 0;
	side_hist_of(base, &p->roi, &hb);
	sn->n = PROBE_NOISE_FRAMES - 1;
	for (int i = 0; i < sn->n; i++) {
		side_shift_of(base, &nf[i], &p->roi, &sn->shift[i]);
		side_hist_of(&nf[i], &p->roi, &hg);
		sn->hist[i] = side_hist_distance(&hb, &hg, NULL);
		dsum += stats_frame_difference(prev, &nf[i], &p->roi);
		prev = &nf[i];
	}
	sn->tol_diff = JUDGE_HALF_CODE + JUDGE_NOISE_K * dsum / sn->n;
}

/* The first change measures the latency the later settles wait for. */
static void first_change(struct probe *p, const int64_t *v, int n, const struct frame *base, double tol_diff,
			 struct outcome *o)
{
	if (p->latency_done)
		return;
	int far = 0;
	for (int i = 1; i < n; i++)
		if (llabs(v[i] - p->orig) > llabs(v[far] - p->orig))
			far = i;
	probe_set(p, v[far]);
	probe_wait_for_effect(p, base, tol_diff, &p->f, o);
}

/* ---------- PB-1..PB-3: what a control leaves alone ---------- */

static void attempt_keeps(struct probe *p, struct outcome *o, unsigned keep, const char *what)
{
	struct frame base = { 0 }, fr = { 0 };
	struct side_noise sn;
	struct side_tol t;
	int64_t v[JUDGE_SWEEP_POINTS];
	int nv;
	frame_copy(&base, &p->f);
	if (!base.has_chroma) {
		outcome_set(o, OUT_INCONCLUSIVE, "the capture format is greyscale: %s cannot be judged", what);
		goto done;
	}
	if (range_values(&p->c->q, v))
		nv = RANGE_POINTS;
	else
		nv = judge_sweep_values(&p->c->q, v);
	side_noise_of(p, &base, &sn);
	side_tol_of(sn.shift, sn.n, &t);
	/* Hue requantises both components of a rotated vector (PB-3). */
	if ((keep & SIDE_KEEP_MAGNITUDE) && !(keep & SIDE_KEEP_CHROMA))
		t.dmag += 1;
	outcome_measure(o, "tolerance mean luma", t.dy, "codes");
	outcome_measure(o, "tolerance mean Cb", t.dcb, "codes");
	outcome_measure(o, "tolerance mean Cr", t.dcr, "codes");
	outcome_measure(o, "tolerance chroma magnitude", t.dmag, "codes");
	first_change(p, v, nv, &base, sn.tol_diff, o);
	int judged = 0;
	for (int i = 0; i < nv; i++) {
		if (v[i] == p->orig)
			continue;
		int64_t w = probe_set(p, v[i]);
		probe_settle(p, &fr);
		struct side_shift s;
		side_shift_of(&base, &fr, &p->roi, &s);
		/* Fewer unclipped samples than a statement about the region
		 * ignores: the point cannot be judged. */
		if (!s.total || (double)s.n / s.total < JUDGE_PCT_OUTLIERS / 100)
			continue;
		judged++;
		/* One point per value (the frames-per-point figure counts them). */
		outcome_point(o, keep & SIDE_KEEP_CHROMA ? "mean chroma magnitude change" : "mean luma shift", (double)w,
			      keep & SIDE_KEEP_CHROMA ? s.dmag : s.dy);
		double moved, tol;
		const char *name = side_moved(&s, &t, keep, &moved, &tol);
		if (name) {
			outcome_set(o, OUT_FAIL, "expected %s to leave the %s alone, got %s %+.2f at %s = %lld (tolerance "
				    "%.2f, over %llu unclipped samples)", probe_ctrl_name(p), what, name, moved,
				    probe_ctrl_name(p), (long long)w, tol, (unsigned long long)s.n);
			outcome_frames(o, &base, &fr);
		}
	}
	probe_set(p, p->orig);	/* no decision needs the picture after it */
	if (!judged)
		outcome_set(o, OUT_INCONCLUSIVE, "the region is clipped at every value of %s tried", probe_ctrl_name(p));
	if (o->kind == OUT_PASS)
		snprintf(o->info, sizeof(o->info), "the %s stayed within the noise floor at %d values", what, judged);
done:
	frame_free(&base);
	frame_free(&fr);
}

static void attempt_keeps_chroma(struct probe *p, struct outcome *o) { attempt_keeps(p, o, SIDE_KEEP_CHROMA, "chroma"); }
static void attempt_keeps_luma(struct probe *p, struct outcome *o) { attempt_keeps(p, o, SIDE_KEEP_LUMA, "mean luma"); }
static void attempt_keeps_luma_mag(struct probe *p, struct outcome *o)
{
	attempt_keeps(p, o, SIDE_KEEP_LUMA | SIDE_KEEP_MAGNITUDE, "luma and chroma magnitude");
}

/* ---------- PB-4: a flip keeps the histogram ---------- */

static void attempt_histogram(struct probe *p, struct outcome *o)
{
	const enum mirror axis = p->c->q.id == V4L2_CID_HFLIP ? MIRROR_H : MIRROR_V;
	struct frame base = { 0 }, fl = { 0 };
	struct side_noise sn;
	struct side_hist hb, hs, hf;
	frame_copy(&base, &p->f);
	side_noise_of(p, &base, &sn);
	struct judge_noise jn;
	judge_noise_of(sn.hist, sn.n, JUDGE_HALF_CODE, &jn);
	/* The displacement a flip may bring (a pixel pair), measured on the
	 * reference itself. */
	side_hist_of(&base, &p->roi, &hb);
	double shift = 0;
	for (int d = -PROBE_MIRROR_SHIFT; d <= PROBE_MIRROR_SHIFT; d++) {
		for (int ax = 0; ax < 2 && d; ax++) {
			struct roi r = side_roi_shift(&p->roi, base.width, base.height, ax ? 0 : d, ax ? d : 0);
			side_hist_of(&base, &r, &hs);
			double x = side_hist_distance(&hb, &hs, NULL);
			if (x > shift)
				shift = x;
		}
	}
	/* A Bayer source's flip keeps the mosaic's colour sites: each colour
	 * may move by one site (probe_judge.h), bounded on the reference. */
	unsigned radius;
	double site_luma, site = 0;
	const enum judge_mosaic mo = probe_mosaic(p, &base, axis, &radius);
	judge_site_allowance(&base, &p->roi, axis, mo, radius, &site_luma, &site);
	const double tol = jn.mean + jn.tol + shift + site;
	outcome_measure(o, "noise histogram distance", jn.mean, "codes");
	outcome_measure(o, "displacement allowance", shift, "codes");
	if (mo != MOSAIC_NONE)
		outcome_measure(o, "colour-site allowance", site, "codes");
	outcome_measure(o, "tolerance", tol, "codes");
	int64_t on = !p->orig;
	first_change(p, &on, 1, &base, sn.tol_diff, o);
	int64_t w = probe_set(p, on);
	probe_settle(p, &fl);
	const struct roi mr = side_roi_mirror(&p->roi, fl.width, fl.height, axis);
	side_hist_of(&fl, &mr, &hf);
	const char *which = "luma";
	const double d = side_hist_distance(&hb, &hf, &which);
	outcome_point(o, "histogram distance to the reference", (double)w, d);
	if (d > tol) {
		outcome_set(o, OUT_FAIL, "expected %s = %lld to keep the histogram (a mirror image moves pixels only), got "
			    "a %s histogram distance of %.2f codes (tolerance %.2f)", probe_ctrl_name(p), (long long)w,
			    which, d, tol);
		outcome_frames(o, &base, &fl);
	}
	probe_set(p, p->orig);	/* no decision needs the picture after it */
	if (o->kind == OUT_PASS)
		snprintf(o->info, sizeof(o->info), "histogram distance %.2f codes (%s; tolerance %.2f)", d, which, tol);
	frame_free(&base);
	frame_free(&fl);
}

/* ---------- PB-5: the whole advertised range acts ---------- */

static void attempt_range(struct probe *p, struct outcome *o)
{
	struct frame base = { 0 }, fr[RANGE_POINTS];
	struct probe_noise n = { 0 };
	int64_t v[RANGE_POINTS];
	memset(fr, 0, sizeof(fr));
	if (!range_values(&p->c->q, v)) {
		outcome_set(o, OUT_INCONCLUSIVE, "%s has fewer than five values: no quarter points", probe_ctrl_name(p));
		return;
	}
	probe_noise(p, NULL, NULL, JUDGE_HALF_CODE, &base, &n);
	const double tol = n.tol_diff, thresh = JUDGE_HALF_CODE + JUDGE_NOISE_K * n.pix_sigma;
	outcome_measure(o, "tolerance", tol, "frame difference");
	first_change(p, v, RANGE_POINTS, &base, tol, o);
	for (int i = 0; i < RANGE_POINTS; i++) {
		v[i] = probe_set(p, v[i]);
		probe_settle(p, &fr[i]);
	}
	const double d_lo = stats_frame_difference(&fr[0], &fr[1], &p->roi);
	const double d_mid = stats_frame_difference(&fr[1], &fr[2], &p->roi);
	const double d_hi = stats_frame_difference(&fr[2], &fr[3], &p->roi);
	const double clip_lo = range_clipped_share(&fr[1], &fr[3], &fr[1], &p->roi, thresh);
	const double clip_hi = range_clipped_share(&fr[0], &fr[2], &fr[2], &p->roi, thresh);
	outcome_point(o, "frame difference to the previous point", (double)v[1], d_lo);
	outcome_point(o, "frame difference to the previous point", (double)v[2], d_mid);
	outcome_point(o, "frame difference to the previous point", (double)v[3], d_hi);
	probe_set(p, p->orig);	/* no decision needs the picture after it */
	int excused;
	switch (range_judge(d_lo, d_mid, d_hi, clip_lo, clip_hi, tol, &excused)) {
	case RANGE_NO_EFFECT:
		outcome_set(o, OUT_INCONCLUSIVE, "%s changes nothing in the region at %lld, %lld, %lld, %lld",
			    probe_ctrl_name(p), (long long)v[0], (long long)v[1], (long long)v[2], (long long)v[3]);
		break;
	case RANGE_FLAT_TOP:
		outcome_set(o, OUT_FAIL, "expected %s to act up to its maximum %lld, got the same picture at %lld and %lld "
			    "(frame difference %.2f, tolerance %.2f) with %.0f%% of its effect clipped",
			    probe_ctrl_name(p), (long long)v[3], (long long)v[2], (long long)v[3], d_hi, tol, 100 * clip_hi);
		outcome_frames(o, &fr[2], &fr[3]);
		break;
	case RANGE_FLAT_BOTTOM:
		outcome_set(o, OUT_FAIL, "expected %s to act down to its minimum %lld, got the same picture at %lld and %lld "
			    "(frame difference %.2f, tolerance %.2f) with %.0f%% of its effect clipped",
			    probe_ctrl_name(p), (long long)v[0], (long long)v[0], (long long)v[1], d_lo, tol, 100 * clip_lo);
		outcome_frames(o, &fr[0], &fr[1]);
		break;
	default:
		snprintf(o->info, sizeof(o->info), "frame differences %.2f, %.2f, %.2f over the quarters (tolerance %.2f; "
			 "%d clipped ends excused)", d_lo, d_mid, d_hi, tol, excused);
		break;
	}
	for (int i = 0; i < RANGE_POINTS; i++)
		frame_free(&fr[i]);
	frame_free(&base);
	probe_noise_free(&n);
}

/* ---------- checks ---------- */

static void keeps_chroma(const struct check_ctx *cx) { probe_run(cx, attempt_keeps_chroma); }
static void keeps_luma(const struct check_ctx *cx) { probe_run(cx, attempt_keeps_luma); }
static void keeps_luma_mag(const struct check_ctx *cx) { probe_run(cx, attempt_keeps_luma_mag); }
static void keeps_histogram(const struct check_ctx *cx) { probe_run(cx, attempt_histogram); }

static void full_range(const struct check_ctx *cx)
{
	probe_make_manual(cx);
	probe_run(cx, attempt_range);
}

static bool is_integer(const struct ctrl *c)
{
	return c->q.type == V4L2_CTRL_TYPE_INTEGER || c->q.type == V4L2_CTRL_TYPE_INTEGER64;
}

static bool integer_id(const struct ctrl *c, uint32_t id, const char **why)
{
	return c->q.id == id && is_integer(c) && probe_target(c, why);
}

static bool chroma_kept_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return integer_id(c, V4L2_CID_BRIGHTNESS, why);
}

static bool luma_kept_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return integer_id(c, V4L2_CID_SATURATION, why);
}

static bool hue_kept_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return integer_id(c, V4L2_CID_HUE, why);
}

static bool histogram_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return (c->q.id == V4L2_CID_HFLIP || c->q.id == V4L2_CID_VFLIP) && c->q.type == V4L2_CTRL_TYPE_BOOLEAN &&
	       probe_target(c, why);
}

/* Integer controls with a documented meaning (standard ids): a driver's own
 * control documents no range over which it must act. */
static bool range_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return is_integer(c) && judge_scope_of(c->q.id) != JUDGE_OTHER && ctrl_settable_scalar(c) &&
	       probe_target(c, why);
}

static const struct check_def checks[] = {
	{ "probe/keeps-chroma", "PB-1", "brightness (the black level) leaves Cb, Cr and the chroma magnitude alone "
	  "where nothing is clipped", CHECK_PER_CONTROL, keeps_chroma, chroma_kept_applies, NULL, 120, true },
	{ "probe/keeps-luma", "PB-2", "saturation (chroma gain) leaves the mean luma alone where nothing is clipped",
	  CHECK_PER_CONTROL, keeps_luma, luma_kept_applies, NULL, 120, true },
	{ "probe/keeps-luma-magnitude", "PB-3", "hue (a rotation of the colours) leaves the luma and the chroma "
	  "magnitude alone where nothing is clipped", CHECK_PER_CONTROL, keeps_luma_mag, hue_kept_applies, NULL, 120, true },
	{ "probe/keeps-histogram", "PB-4", "a flip only moves pixels: the mirrored region has the histogram of the "
	  "region before", CHECK_PER_CONTROL, keeps_histogram, histogram_applies, NULL, 90, true },
	{ "probe/full-range", "PB-5", "a control with a picture meaning acts over the range it advertises: the picture "
	  "changes between three quarters and the maximum and between the minimum and a quarter, unless clipped",
	  CHECK_PER_CONTROL, full_range, range_applies, NULL, 120, true },
};
SUITE(suite_probe_side, "probe-side", "side-effect and range probes", checks);
