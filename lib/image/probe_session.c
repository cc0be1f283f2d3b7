/* The probe session shared by the frame-capture checks (probe_session.h). */
#include "image/probe_session.h"
#include "image/excuse.h"
#include "ctrl/ctrl_manual.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "image/probe_judge.h"
#include "image/profile_scene.h"
#include "check/results.h"
#include "check/run_opts.h"
#include "check/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static struct probe *g_probe;	/* for the exit handler */

static void close_capture(void)
{
	if (g_probe && g_probe->cap_open) {
		capture_close(&g_probe->cap);
		g_probe->cap_open = false;
	}
	if (g_probe)
		probe_route_close(&g_probe->route);
}

void outcome_point(struct outcome *o, const char *series, double x, double y)
{
	if (o->npt < PROBE_MAX_POINTS && isfinite(y))
		o->pt[o->npt++] = (struct outcome_point){ series, x, y };
}

void outcome_measure(struct outcome *o, const char *name, double v, const char *unit)
{
	if (o->nm < 8)
		o->m[o->nm++] = (struct outcome_measure){ name, v, unit };
}

void outcome_set(struct outcome *o, enum outcome_kind k, const char *fmt, ...)
{
	if (o->kind != OUT_PASS)	/* keep the first finding */
		return;
	o->kind = k;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->msg, sizeof(o->msg), fmt, ap);
	va_end(ap);
}

void outcome_frames(struct outcome *o, const struct frame *before, const struct frame *after)
{
	if (o->have_frames)
		return;
	frame_copy(&o->before, before);
	frame_copy(&o->after, after);
	o->have_frames = true;
}

void outcome_free(struct outcome *o)
{
	frame_free(&o->before);
	frame_free(&o->after);
}

/* ---------- controls ---------- */

int64_t probe_get(struct probe *p)
{
	int64_t v = 0;
	expect_ok(ctrl_get_scalar(p->cx->dev, p->c, &v), "reading %s", p->c->slug);
	return v;
}

/* Set the probed control; returns what the driver stored. */
int64_t probe_set(struct probe *p, int64_t v)
{
	int64_t w = v;
	expect_ok(ctrl_set_scalar(p->cx->dev, p->c, &w), "setting %s to %lld", p->c->slug, (long long)v);
	return w;
}

/* ---------- frames ---------- */

void probe_grab(struct probe *p, struct frame *f)
{
	int e = capture_next(&p->cap, f);
	if (e)
		ck_abort_msg("capture failed: %s", p->cap.err);
}

static void grab_or_abort(struct probe *p, struct frame *f)
{
	if (capture_next(&p->cap, f))
		ck_abort_msg("capture failed after setting %s: %s", p->c->slug, p->cap.err);
}

/* Known latency and noise: the frames from the change's latency on until
 * two consecutive ones agree within the noise (a control slower than the
 * one the latency was measured with costs a frame more, never a stale
 * frame); the newer of the two. Unknown: behind the whole queue, as the
 * stale-frame rule of spec section 18 says without a measurement. */
void probe_settle(struct probe *p, struct frame *f)
{
	if (!p->latency_done || p->tol_diff < 0 || p->cap.io != CAPTURE_MMAP) {
		int e = capture_settle_after_change(&p->cap, p->extra, f);
		if (e)
			ck_abort_msg("capture failed after setting %s: %s", p->c->slug, p->cap.err);
		return;
	}
	const uint32_t mark = capture_mark(&p->cap);
	const unsigned lat = p->latency > 0 ? (unsigned)p->latency : 1;
	/* made before the latency had passed: not converted */
	for (unsigned k = 0;; k++) {
		grab_or_abort(p, f);
		if ((int32_t)(f->sequence - (mark + lat)) >= 0 || !f->seq_from_driver || k >= lat + CAPTURE_MAX_BUFS)
			break;
	}
	static struct frame g;
	for (unsigned k = 0; k < PROBE_HOLD_FRAMES; k++) {
		grab_or_abort(p, &g);
		const bool held = stats_frame_difference(f, &g, &p->roi) <= p->tol_diff;
		frame_copy(f, &g);
		if (held)
			return;
	}
	if (!p->hold_noted) {
		v_info("the picture did not hold still within %u frames of a change (frame difference above %.2f): "
		       "the last frame taken as it is", lat + PROBE_HOLD_FRAMES, p->tol_diff);
		p->hold_noted = true;
	}
}

void probe_begin(struct probe *p, const struct check_ctx *cx)
{
	memset(p, 0, sizeof(*p));
	p->cx = cx;
	p->c = cx->ctrl;
	p->prof = profile_load_or_exit(g_opts.profile);
	p->latency = probe_node_latency();	/* an earlier probe's of this node */
	p->latency_done = p->latency >= 0;
	p->tol_diff = -1;
	g_probe = p;
	atexit(close_capture);
	profile_apply_scene(cx->dev, cx->model, p->prof, p->c);
	struct capture_opts o = { .nbufs = 3, .width = p->prof->width, .height = p->prof->height, .fps = p->prof->fps };
	const struct dev *src = probe_route_open(&p->route, cx, &o);
	int e = capture_open(&p->cap, src, &o);
	if (e)
		close_capture();	/* the pipeline back before the verdict */
	if (e == ENOTSUP)	/* frames in no format the statistics read: inconclusive */
		v_skip("cannot capture pictures for the probe: %s", p->cap.err);
	if (capture_pipeline_unready(src, e))
		v_skip("cannot capture for the probe: %s: %s", capture_pipeline_unready(src, e), p->cap.err);
	if (e)
		ck_abort_msg("cannot capture frames for the probe: %s", p->cap.err);
	p->cap_open = true;
	/* A path that debayers: a pixel is made of the sites around it. */
	if (judge_mosaic_of(p->cap.fourcc, p->route.src_code) == MOSAIC_DEBAYERED)
		p->cap.clip_reach = judge_site_radius(MOSAIC_DEBAYERED, p->cap.width, p->route.src_width);
	char desc[128];
	v_info("capture %s", capture_describe(&p->cap, desc, sizeof(desc)));
	/* The first frame: when it is the picture of a noise set the node kept,
	 * the scene is in place (that set was measured settled). Otherwise
	 * behind the whole queue, as before any measurement. */
	probe_grab(p, &p->f);
	p->roi = profile_roi(p->prof, p->f.width, p->f.height);
	if (probe_node_noise(&p->f, &p->roi, p->noise)) {
		p->have_noise = true;
		p->tol_diff = probe_node_tol_diff(p->noise, &p->roi);
	} else {
		int e = capture_settle_after_change(&p->cap, 0, &p->f);
		if (e)
			ck_abort_msg("capture failed after the scene settings: %s", p->cap.err);
	}
	p->orig = probe_get(p);
}

void probe_end(struct probe *p)
{
	close_capture();
	frame_free(&p->f);
	for (int i = 0; i < PROBE_NOISE_FRAMES; i++)
		frame_free(&p->noise[i]);
	g_probe = NULL;
}

/* What the frames of one look after a change prove about when it showed,
 * in the device's own frame numbers (v4l2_buffer.sequence) where the driver
 * numbers them: a frame the driver dropped while the host was busy (no
 * buffer queued) counts in the numbers but was never seen here. */
struct look_after_change {
	bool changed;		/* a changed frame that held still */
	uint32_t last_same;	/* newest frame still showing the old picture */
	bool saw_same;
};

static void look_once(struct probe *p, const struct frame *before, double tol_diff, struct frame *f,
		      unsigned window, struct look_after_change *l)
{
	struct frame g = { 0 };
	memset(l, 0, sizeof(*l));
	probe_grab(p, f);
	for (unsigned k = 0; k < window; k++) {
		if (stats_frame_difference(before, f, &p->roi) > tol_diff) {
			probe_grab(p, &g);
			if (stats_frame_difference(f, &g, &p->roi) <= tol_diff) {
				l->changed = true;
				break;
			}
		} else {
			l->last_same = f->sequence;
			l->saw_same = true;
			probe_grab(p, &g);
		}
		frame_copy(f, &g);
	}
	frame_free(&g);
}

/* Frames until the image differs from `before` and holds still, counted
 * from the change (call right after the set, from the original value).
 * Sets p->extra for later changes. Returns the first changed frame in f
 * (settled), or false when nothing changed within the queue plus
 * max-latency frames (spec section 18, the stale-frame rule).
 * Decided from evidence, not from how busy the host was: the change is
 * late when a frame numbered past the window still showed the old
 * picture; when the driver dropped the frames across the window's end
 * (the last old picture inside it, the first new one past it) the look
 * proves neither, and is taken again from the original value. */
bool probe_wait_for_effect(struct probe *p, const struct frame *before, double tol_diff, struct frame *f,
			    struct outcome *o)
{
	const unsigned long f0 = p->cap.frames;
	const unsigned window = p->cap.queued + p->prof->max_latency + 1;
	const int64_t target = probe_get(p);
	struct look_after_change l;
	uint32_t mark = capture_mark(&p->cap);
	bool proven = false, late = false;
	for (int look = 0; look < PROBE_LATENCY_LOOKS && !proven; look++) {
		if (look) {	/* from the original value again, settled past any late change */
			struct frame g = { 0 };
			probe_set(p, p->orig);
			if (capture_settle_after_change(&p->cap, window, &g))
				ck_abort_msg("capture failed after setting %s: %s", p->c->slug, p->cap.err);
			frame_free(&g);
			probe_set(p, target);
			mark = capture_mark(&p->cap);
		}
		look_once(p, before, tol_diff, f, window, &l);
		const bool numbered = f->seq_from_driver;
		const bool past_same = l.saw_same && (int32_t)(l.last_same - (mark + window)) > 0;
		const bool past_new = (int32_t)(f->sequence - (mark + window)) > 0;
		proven = !numbered || !l.changed || past_same || !past_new;
		late = numbered && l.changed && past_same;
		if (!proven)
			v_info("frames %u..%u were dropped across the end of the %u-frame window after the change: "
			       "looking again", l.saw_same ? l.last_same + 1 : mark + 1, f->sequence - 1, window);
	}
	if (late) {
		outcome_set(o, OUT_FAIL, "expected %s to show within %u frames of the change (the %u queued and the "
			    "profile's max-latency of %u), got the old picture still at frame %u and the new one at "
			    "frame %u", probe_ctrl_name(p), window, p->cap.queued, p->prof->max_latency,
			    l.last_same - mark, f->sequence - mark);
		l.changed = false;
	}
	if (!l.changed && !p->latency_done && !p->latency_noted) {
		v_info("no visible change within %u frames of the first change: latency not measured", window);
		p->latency_noted = true;
	}
	if (l.changed && !p->latency_done) {
		p->latency = (int)(f->sequence - mark);
		p->latency_done = true;
		unsigned q = p->cap.queued;
		p->extra = p->latency > (int)q + 1 ? (unsigned)p->latency - q - 1 : 0;
		probe_node_keep_latency(p->latency);
	}
	p->node_frames += p->cap.frames - f0;
	if (p->tol_diff < 0)
		p->tol_diff = tol_diff;
	return l.changed;
}

/* ---------- noise ---------- */

void probe_noise_free(struct probe_noise *n)
{
	free(n->lo);
	free(n->hi);
	n->lo = n->hi = NULL;
}

const struct frame *probe_noise_frames(struct probe *p)
{
	if (p->have_noise)
		return p->noise;
	const unsigned long f0 = p->cap.frames;
	for (int i = 0; i < PROBE_NOISE_FRAMES; i++)
		probe_grab(p, &p->noise[i]);
	p->node_frames += p->cap.frames - f0;
	p->have_noise = true;
	frame_copy(&p->f, &p->noise[PROBE_NOISE_FRAMES - 1]);
	p->tol_diff = probe_node_tol_diff(p->noise, &p->roi);
	probe_node_keep_noise(p->noise);
	return p->noise;
}

/* The noise frames' statistics; `last` gets the newest frame at the setting. */
void probe_noise(struct probe *p, stat_fn fn, const struct frame *ref, double floor_, struct frame *last,
			  struct probe_noise *n)
{
	double s[PROBE_NOISE_FRAMES], dsum = 0, msum = 0;
	const struct frame *nf = probe_noise_frames(p);
	const struct frame *prev = NULL;
	const struct roi *r = &p->roi;
	const size_t npix = (size_t)r->w * r->h;
	n->lo = malloc(npix);
	n->hi = malloc(npix);
	ck_assert_msg(n->lo && n->hi, "out of memory");
	memset(n->lo, 255, npix);
	memset(n->hi, 0, npix);
	for (int i = 0; i < PROBE_NOISE_FRAMES; i++) {
		const struct frame *cur = &nf[i];
		for (unsigned y = 0; y < r->h; y++) {
			const uint8_t *py = cur->y + (size_t)(r->y + y) * cur->width + r->x;
			uint8_t *lo = n->lo + (size_t)y * r->w, *hi = n->hi + (size_t)y * r->w;
			for (unsigned x = 0; x < r->w; x++) {
				lo[x] = py[x] < lo[x] ? py[x] : lo[x];
				hi[x] = py[x] > hi[x] ? py[x] : hi[x];
			}
		}
		s[i] = fn ? fn(cur, &p->roi, ref) : 0;
		if (prev) {
			dsum += stats_frame_difference(prev, cur, &p->roi);
			msum += stats_luma_mad(prev, cur, &p->roi, MIRROR_NONE);
		}
		prev = cur;
	}
	frame_copy(last, &p->f);
	struct judge_noise jn;
	judge_noise_of(s, PROBE_NOISE_FRAMES, floor_, &jn);
	n->mean = jn.mean;
	n->sd = jn.sd;
	n->tol = jn.tol;
	n->diff_mean = dsum / (PROBE_NOISE_FRAMES - 1);
	n->luma_mad_mean = msum / (PROBE_NOISE_FRAMES - 1);
	n->tol_diff = JUDGE_HALF_CODE + JUDGE_NOISE_K * n->diff_mean;
	n->tol_mad = JUDGE_HALF_CODE + JUDGE_NOISE_K * n->luma_mad_mean;
	n->pix_sigma = n->luma_mad_mean * sqrt(PI) / 2;
}

/* ---------- running an attempt, once more on failure ---------- */

static void save_artifacts(const struct probe *p, const struct outcome *o)
{
	if (!o->have_frames)
		return;
	char base[200];
	results_file_name(p->cx->name, base, sizeof(base));
	const char *dir = v_artifact_dir();
	const struct frame *fr[2] = { &o->before, &o->after };
	static const char *const tag[2] = { "before", "after" };
	for (int i = 0; i < 2; i++) {
		char path[1400], rel[400];
		snprintf(rel, sizeof(rel), "%s-%s.%s", base, tag[i], fr[i]->has_chroma ? "ppm" : "pgm");
		snprintf(path, sizeof(path), "%s/%s", dir, rel);
		if (!frame_write_pnm(fr[i], path)) {
			char a[420];
			snprintf(a, sizeof(a), "artifacts/%s", rel);
			v_artifact(a);
		}
	}
}

/* What the probe cost in frames: all it dequeued (settling, noise floor
 * and latency included), and that per measured point. */
void probe_measure_frames(const struct probe *p, int points)
{
	v_measure("frames", (double)p->cap.frames, "frames");
	if (p->node_frames)
		v_measure("node latency and noise frames", (double)p->node_frames, "frames");
	if (points > 0)
		v_measure("frames per point", (double)(p->cap.frames - p->node_frames) / points, "frames");
}

static void record(const struct outcome *o)
{
	for (int i = 0; i < o->nm; i++)
		v_measure(o->m[i].name, o->m[i].v, o->m[i].unit);
	for (int i = 0; i < o->npt; i++)
		v_point(o->pt[i].series, o->pt[i].x, o->pt[i].y);
}

void probe_run(const struct check_ctx *cx, attempt_fn fn)
{
	static struct probe p;
	static struct outcome first, second;
	memset(&first, 0, sizeof(first));
	memset(&second, 0, sizeof(second));
	probe_begin(&p, cx);
	fn(&p, &first);
	struct outcome *fin = &first;
	if (first.kind == OUT_FAIL) {
		/* once more, from the original value */
		probe_set(&p, p.orig);
		probe_settle(&p, &p.f);
		fn(&p, &second);
		fin = &second;
		if (second.kind == OUT_PASS)
			v_warn("passed on the second attempt; the first failed: %s", first.msg);
	}
	record(fin);
	if (p.latency_done)
		v_measure("latency", p.latency, "frames");
	if (fin->kind == OUT_FAIL)
		save_artifacts(&p, fin);
	probe_set(&p, p.orig);
	if (fin->kind == OUT_INCONCLUSIVE)	/* PB-6: the picture can change, or that is the finding */
		excuse_or_fail(cx->dev, cx->model, &p.cap, fin->msg);
	probe_measure_frames(&p, fin->npt);
	probe_end(&p);
	if (fin->info[0])
		v_info("%s", fin->info);
	char msg[sizeof(fin->msg)];
	snprintf(msg, sizeof(msg), "%s", fin->msg);
	enum outcome_kind k = fin->kind;
	outcome_free(&first);
	outcome_free(&second);
	if (k == OUT_FAIL)
		ck_abort_msg("%s", msg);
	if (k == OUT_INCONCLUSIVE)
		v_skip("inconclusive: %s", msg);
}

/* ---------- gain and exposure: manual mode first ---------- */

void probe_make_manual(const struct check_ctx *cx)
{
	char what[300];
	if (ctrl_make_active(cx->dev, cx->ctrl->q.id, what, sizeof(what)))
		v_skip("inconclusive: %s is inactive (its automatic mode could not be turned off: %s)", cx->ctrl->q.name,
		       what);
	if (what[0])
		v_info("%s first", what);
}

bool probe_target(const struct ctrl *c, const char **why)
{
	const struct profile *pr = profile_load_or_exit(g_opts.profile);
	if (c->excluded || !ctrl_writable(&c->q) || !ctrl_readable(&c->q) || ctrl_has_payload(&c->q))
		return false;
	if (profile_is_no_effect(pr, c->slug, c->q.id)) {
		*why = "not applicable: the board profile lists it as 'no visible effect'";
		return false;
	}
	return judge_effect_required(c->q.id, profile_requires_effect(pr, c->slug, c->q.id), why);
}

enum judge_mosaic probe_mosaic(const struct probe *p, const struct frame *f, enum mirror m, unsigned *radius)
{
	const enum judge_mosaic mo = judge_mosaic_of(f->fourcc, p->route.src_code);
	*radius = m == MIRROR_V ? judge_site_radius(mo, f->height, p->route.src_height)
				: judge_site_radius(mo, f->width, p->route.src_width);
	return mo;
}
