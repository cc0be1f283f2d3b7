#include "image/picture_ref.h"
#include "image/excuse.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include "image/probe_judge.h"
#include "image/profile_scene.h"
#include "check/run_opts.h"
#include "check/verdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct capture *g_cap;	/* streaming now: closed by the exit handler */

static void close_capture(void)
{
	if (g_cap) {
		capture_close(g_cap);
		g_cap = NULL;
	}
}

void pic_stream_on(struct capture *cap, const struct dev *d)
{
	static bool registered;
	const struct profile *pr = profile_load_or_exit(g_opts.profile);
	struct capture_opts o = { .nbufs = 2, .width = pr->width, .height = pr->height, .fps = pr->fps };
	if (!registered)
		registered = atexit(close_capture) == 0;
	int e = capture_open(cap, d, &o);
	if (e == ENOTSUP)	/* frames in no format the statistics read: inconclusive */
		v_skip("cannot stream pictures: %s", cap->err);
	if (capture_pipeline_unready(d, e))
		v_skip("cannot stream: %s: %s", capture_pipeline_unready(d, e), cap->err);
	if (e)
		ck_abort_msg("cannot stream: %s", cap->err);
	g_cap = cap;
}

void pic_stream_off(struct capture *cap)
{
	capture_close(cap);
	g_cap = NULL;
}

void pic_next(struct capture *cap, struct frame *f)
{
	if (capture_next(cap, f))
		ck_abort_msg("capture failed: %s", cap->err);
}

/* A quarter of the way from the default towards the far end of the range:
 * visible, and with every control moved at once still far from clipping. */
static int64_t moderate(const struct ctrl *c)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	if (q->type == V4L2_CTRL_TYPE_BOOLEAN)
		return !q->default_value;
	int64_t far = q->maximum - q->default_value >= q->default_value - q->minimum ? q->maximum : q->minimum;
	int64_t v = ctrl_expected_scalar(q, q->default_value + (far - q->default_value) / 4);
	return v != q->default_value ? v : far;
}

/* FL-5: a driver may refuse a write to an inactive control with EACCES
 * (uvcvideo does while the control's auto mode is on). Such a control
 * cannot be in the picture's set; its current value is written back to
 * find out, which changes nothing. */
static bool refuses_inactive_write(const struct dev *d, const struct ctrl *c)
{
	int64_t v;
	if (!(c->q.flags & V4L2_CTRL_FLAG_INACTIVE) || ctrl_get_scalar(d, c, &v))
		return false;
	return ctrl_set_scalar(d, c, &v) == EACCES;
}

void pic_begin(struct pic *p, const struct dev *d, const struct ctrl_model *m)
{
	memset(p, 0, sizeof(*p));
	p->dev = d;
	p->model = m;
	p->prof = profile_load_or_exit(g_opts.profile);
	profile_apply_scene(d, m, p->prof, NULL);
	for (size_t i = 0; i < m->n && p->img.n < LC_MAX_WATCH; i++) {
		const struct ctrl *c = &m->c[i];
		if (!excuse_image_ctrl(c, p->prof) || refuses_inactive_write(d, c))
			continue;
		p->defv[p->img.n] = c->q.default_value;
		p->img.v[p->img.n] = moderate(c);
		p->img.c[p->img.n++] = c;
	}
	if (!p->img.n)
		v_skip("no image control the probes can judge");
}

void pic_end(struct pic *p)
{
	if (g_cap == &p->cap)
		pic_stream_off(&p->cap);
	frame_free(&p->dflt);
	frame_free(&p->ref);
	frame_free(&p->f);
}

void pic_set(struct pic *p, const int64_t *v, const char *what)
{
	expect_ok(lc_apply(p->dev, &p->img, v), "setting the image controls to %s", what);
}

void pic_settle(struct pic *p, struct frame *f)
{
	if (capture_settle_after_change(&p->cap, 0, f))
		ck_abort_msg("capture failed: %s", p->cap.err);
}

double pic_diff(const struct pic *p, const struct frame *a, const struct frame *b)
{
	return stats_frame_difference(a, b, &p->roi);
}

void pic_reference(struct pic *p)
{
	pic_set(p, p->defv, "their defaults");
	pic_settle(p, &p->dflt);
	p->roi = profile_roi(p->prof, p->dflt.width, p->dflt.height);
	pic_set(p, p->img.v, "moderate values");
	pic_settle(p, &p->ref);
	pic_next(&p->cap, &p->f);
	p->tol = JUDGE_HALF_CODE + JUDGE_NOISE_K * pic_diff(p, &p->ref, &p->f);
	double effect = pic_diff(p, &p->dflt, &p->ref);
	v_measure("effect", effect, "frame difference");
	v_measure("tolerance", p->tol, "frame difference");
	if (!(effect > p->tol)) {
		char excuse[160];
		snprintf(excuse, sizeof(excuse), "the image controls' values do not change the region (frame difference "
			 "%.2f, tolerance %.2f)", effect, p->tol);
		excuse_or_fail(p->dev, p->model, &p->cap, excuse);	/* PB-6 */
		pic_stream_off(&p->cap);
		v_skip("inconclusive: %s", excuse);
	}
}

bool pic_matches_ref(const struct pic *p, const struct frame *f, double *d, char *want, size_t wlen, char *got,
		     size_t glen)
{
	char vals[512];
	*d = pic_diff(p, &p->ref, f);
	const double dd = pic_diff(p, &p->dflt, f);
	lc_describe(&p->img, vals, sizeof(vals));
	snprintf(want, wlen, "the picture with %s (frame difference <= %.2f)", vals, p->tol);
	snprintf(got, glen, "%.2f (%.2f from the picture at the default values%s)", *d, dd,
		 dd < *d ? ": the hardware lost the values?" : "");
	return *d <= p->tol;
}
