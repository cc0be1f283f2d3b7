/* Controls across the device's whole life (issue 13; rules LC-1, LC-2 in
 * spec/rules-lifecycle.md). A value belongs to the device: it survives
 * STREAMON/STREAMOFF, a format change, an input change and runtime suspend
 * (LC-1), and the hardware keeps using it: the picture after each of those
 * matches the picture before (LC-2). Drivers lose values, or only the
 * hardware's copy of them, exactly there: a sensor mode table written over
 * the control registers at stream start, a power-on without
 * v4l2_ctrl_handler_setup() at runtime resume. Only the picture shows the
 * second kind, so every transition is checked both ways.
 *
 * The value checks set every documented settable control at once (one
 * transition per check, not per control: runtime suspend alone costs the
 * autosuspend delay) and name each control that changed. The picture checks
 * set the image controls the probes can judge a quarter of the way from
 * their default towards the far end (moderate, so nothing clips), take a
 * reference frame, go through the transition and compare; the picture at
 * the default values shows the effect is visible at all (else: skip). */
#include "capture.h"
#include "ctrl_select.h"
#include "ctrl_value.h"
#include "lifecycle.h"
#include "probe_judge.h"
#include "profile.h"
#include "profile_scene.h"
#include "registry.h"
#include "runner.h"
#include "stats.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_LEN 1536	/* a check's message */
#define LIST_LEN 640	/* the controls listed in it */

/* ---------- shared ---------- */

static struct capture *g_cap;	/* closed by the exit handler when a check ends inside a capture */

static void close_capture(void)
{
	if (g_cap) {
		capture_close(g_cap);
		g_cap = NULL;
	}
}

/* Stream on cx->dev's node at the profile's (small) size and rate. */
static void stream_on(const struct check_ctx *cx, struct capture *cap)
{
	const struct profile *pr = profile_load_or_exit(g_opts.profile);
	struct capture_opts o = { .nbufs = 2, .width = pr->width, .height = pr->height, .fps = pr->fps };
	if (!g_cap)
		atexit(close_capture);
	int e = capture_open(cap, cx->dev, &o);
	if (e)
		ck_abort_msg("cannot stream: %s", cap->err);
	g_cap = cap;
}

static void stream_off(struct capture *cap)
{
	capture_close(cap);
	g_cap = NULL;
}

static void one_frame(struct capture *cap, struct frame *f)
{
	if (capture_next(cap, f))
		ck_abort_msg("capture failed: %s", cap->err);
}

static void watch_all(const struct check_ctx *cx, struct lc_watch *w)
{
	unsigned refused = 0;
	if (!lc_set_others(cx->dev, cx->model, w, &refused))
		v_skip("no documented control can be set to another value%s", refused ? " (every set refused)" : "");
	if (refused)
		v_info("%u controls refused a new value here and are not watched", refused);
}

/* Note what changed after `when` into msg (first finding kept). */
static void note_changed(const struct check_ctx *cx, const struct lc_watch *w, const char *when, char *msg,
			 size_t len)
{
	char rep[LIST_LEN];
	int n = lc_changed(cx->dev, w, rep, sizeof(rep));
	if (n && !msg[0])
		snprintf(msg, len, "expected every control to keep its value across %s (LC-1), got %d of %zu changed: %s",
			 when, n, w->n, rep);
}

static void close_all(const struct check_ctx *cx)
{
	dev_close((struct dev *)cx->dev);
}

static void reopen(const struct check_ctx *cx)
{
	struct dev tmp = *cx->dev;
	ck_assert_msg(dev_reopen(&tmp, (struct dev *)cx->dev) == 0, "expected to open %s again", tmp.path);
}

/* Every handle closed until the device suspends; reopened. */
static void suspend_cycle(const struct check_ctx *cx)
{
	struct lc_power pw;
	lc_power_of(cx->dev, &pw);
	close_all(cx);
	bool suspended = false;
	const char *src = "";
	unsigned ms = lc_wait_suspend(&pw, profile_load_or_exit(g_opts.profile)->suspend_wait_ms, &suspended, &src);
	reopen(cx);
	v_measure("closed", ms, "ms");
	v_info("every handle closed for %u ms (%s)%s", ms, src,
	       suspended ? "; sysfs runtime_status said suspended" : "");
}

static void format_other(const struct check_ctx *cx, const struct v4l2_format *cur, struct v4l2_format *other)
{
	int e = lc_format_other(cx->dev, cur, other);
	if (e == ENOENT)
		v_skip("the device offers a single format");
	expect_ok(e, "S_FMT to another format");
}

static unsigned input_other(const struct check_ctx *cx, unsigned *cur)
{
	unsigned n;
	int e = lc_inputs(cx->dev, &n, cur);
	if (n < 2)
		v_skip("the device has %u input%s", n, n == 1 ? "" : "s");
	expect_ok(e, "G_INPUT");
	return *cur ? 0 : 1;
}

static void set_input(const struct check_ctx *cx, unsigned i)
{
	int x = (int)i;
	expect_ok(dev_ioctl(cx->dev, VIDIOC_S_INPUT, &x), "S_INPUT %u", i);
}

/* ---------- LC-1: the values ---------- */

static void streamon_kept(const struct check_ctx *cx)
{
	struct lc_watch w;
	struct capture cap;
	struct frame f = { 0 };
	char msg[REPORT_LEN] = "";
	watch_all(cx, &w);
	stream_on(cx, &cap);
	one_frame(&cap, &f);
	note_changed(cx, &w, "STREAMON (set before streaming)", msg, sizeof(msg));
	stream_off(&cap);
	note_changed(cx, &w, "STREAMOFF", msg, sizeof(msg));
	frame_free(&f);
	ck_assert_msg(!msg[0], "%s", msg);
}

static void streaming_set_kept(const struct check_ctx *cx)
{
	struct lc_watch w;
	struct capture cap;
	struct frame f = { 0 };
	char msg[REPORT_LEN] = "";
	stream_on(cx, &cap);
	watch_all(cx, &w);
	one_frame(&cap, &f);
	stream_off(&cap);
	note_changed(cx, &w, "STREAMOFF (set while streaming)", msg, sizeof(msg));
	stream_on(cx, &cap);
	one_frame(&cap, &f);
	note_changed(cx, &w, "a second STREAMON", msg, sizeof(msg));
	stream_off(&cap);
	frame_free(&f);
	ck_assert_msg(!msg[0], "%s", msg);
}

static void format_kept(const struct check_ctx *cx)
{
	struct lc_watch w;
	struct v4l2_format cur, same, other;
	char msg[REPORT_LEN] = "", when[96], fs[32];
	expect_ok(lc_get_format(cx->dev, &cur), "G_FMT");
	watch_all(cx, &w);
	same = cur;
	expect_ok(lc_set_format(cx->dev, &same), "S_FMT to the current format");
	note_changed(cx, &w, "S_FMT to the same format", msg, sizeof(msg));
	format_other(cx, &cur, &other);
	snprintf(when, sizeof(when), "S_FMT to another format (%s)", lc_format_str(&other, fs, sizeof(fs)));
	note_changed(cx, &w, when, msg, sizeof(msg));
	same = cur;
	expect_ok(lc_set_format(cx->dev, &same), "S_FMT back");
	note_changed(cx, &w, "S_FMT back to the first format", msg, sizeof(msg));
	ck_assert_msg(!msg[0], "%s", msg);
}

static void input_kept(const struct check_ctx *cx)
{
	struct lc_watch w;
	struct v4l2_format fmt;
	unsigned cur, other = input_other(cx, &cur);
	char msg[REPORT_LEN] = "", when[64];
	int have_fmt = lc_get_format(cx->dev, &fmt) == 0;
	watch_all(cx, &w);
	set_input(cx, other);
	set_input(cx, cur);
	snprintf(when, sizeof(when), "S_INPUT %u and back to %u", other, cur);
	note_changed(cx, &w, when, msg, sizeof(msg));
	if (have_fmt)	/* a driver may reset the format with the input */
		lc_set_format(cx->dev, &fmt);
	ck_assert_msg(!msg[0], "%s", msg);
}

static void suspend_kept(const struct check_ctx *cx)
{
	struct lc_watch w;
	char msg[REPORT_LEN] = "";
	watch_all(cx, &w);
	suspend_cycle(cx);
	note_changed(cx, &w, "runtime suspend (every handle closed past the autosuspend delay) and reopening",
		     msg, sizeof(msg));
	ck_assert_msg(!msg[0], "%s", msg);
}

/* ---------- LC-2: the picture ---------- */

/* The image controls the probes judge, and not listed as 'no visible
 * effect' by the board profile. */
static bool image_ctrl(const struct ctrl *c, const struct profile *pr)
{
	switch (c->q.id) {
	case V4L2_CID_BRIGHTNESS:
	case V4L2_CID_CONTRAST:
	case V4L2_CID_SATURATION:
	case V4L2_CID_HUE:
	case V4L2_CID_GAIN:
	case V4L2_CID_ANALOGUE_GAIN:
	case V4L2_CID_DIGITAL_GAIN:
	case V4L2_CID_EXPOSURE:
	case V4L2_CID_EXPOSURE_ABSOLUTE:
	case V4L2_CID_HFLIP:
	case V4L2_CID_VFLIP:
		return ctrl_settable_scalar(c) && !profile_is_no_effect(pr, c->slug, c->q.id);
	}
	return false;
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

struct pic {
	const struct check_ctx *cx;
	const struct profile *prof;
	struct capture cap;
	struct roi roi;
	struct lc_watch img;		/* image controls, v[]: the moderate values */
	int64_t defv[LC_MAX_WATCH];
	struct frame dflt, ref, f;	/* at the defaults, at the values, scratch */
	double tol;
};

static void pic_begin(struct pic *p, const struct check_ctx *cx)
{
	memset(p, 0, sizeof(*p));
	p->cx = cx;
	p->prof = profile_load_or_exit(g_opts.profile);
	profile_apply_scene(cx->dev, cx->model, p->prof, NULL);
	for (size_t i = 0; i < cx->model->n && p->img.n < LC_MAX_WATCH; i++) {
		const struct ctrl *c = &cx->model->c[i];
		if (!image_ctrl(c, p->prof))
			continue;
		p->defv[p->img.n] = c->q.default_value;
		p->img.v[p->img.n] = moderate(c);
		p->img.c[p->img.n++] = c;
	}
	if (!p->img.n)
		v_skip("no image control the probes can judge");
}

static void pic_settle(struct pic *p, struct frame *f)
{
	if (capture_settle_after_change(&p->cap, 0, f))
		ck_abort_msg("capture failed: %s", p->cap.err);
}

static void pic_set(struct pic *p, const int64_t *v, const char *what)
{
	expect_ok(lc_apply(p->cx->dev, &p->img, v), "setting the image controls to %s", what);
}

static double pic_diff(const struct pic *p, const struct frame *a, const struct frame *b)
{
	return stats_frame_difference(a, b, &p->roi);
}

/* While streaming: the picture at the defaults, then at the values (the
 * reference), and the noise of consecutive frames at the values. */
static void pic_reference(struct pic *p)
{
	pic_set(p, p->defv, "their defaults");
	pic_settle(p, &p->dflt);
	p->roi = profile_roi(p->prof, p->dflt.width, p->dflt.height);
	pic_set(p, p->img.v, "moderate values");
	pic_settle(p, &p->ref);
	one_frame(&p->cap, &p->f);
	p->tol = JUDGE_HALF_CODE + JUDGE_NOISE_K * pic_diff(p, &p->ref, &p->f);
	double effect = pic_diff(p, &p->dflt, &p->ref);
	v_measure("effect", effect, "frame difference");
	v_measure("tolerance", p->tol, "frame difference");
	if (!(effect > p->tol))
		v_skip("inconclusive: the image controls' values do not change the region (frame difference %.2f, "
		       "tolerance %.2f)", effect, p->tol);
}

/* The frame now (streaming again after the transition) against the reference. */
static void pic_judge(struct pic *p, const char *when)
{
	one_frame(&p->cap, &p->f);	/* every frame after STREAMON is made after the transition */
	double d = pic_diff(p, &p->ref, &p->f), dd = pic_diff(p, &p->dflt, &p->f);
	char vals[LIST_LEN], rep[LIST_LEN];
	v_measure("difference after", d, "frame difference");
	lc_describe(&p->img, vals, sizeof(vals));
	int changed = lc_changed(p->cx->dev, &p->img, rep, sizeof(rep));
	stream_off(&p->cap);
	ck_assert_msg(d <= p->tol,
		      "expected the picture after %s to match the one before it with %s (LC-2: frame difference <= "
		      "%.2f), got %.2f (%.2f from the picture at the default values%s); G reports %s%s",
		      when, vals, p->tol, d, dd, dd < d ? ": the hardware lost the values?" : "",
		      changed ? "changed values: " : "the same values", changed ? rep : "");
	frame_free(&p->dflt);
	frame_free(&p->ref);
	frame_free(&p->f);
}

/* Values set before STREAMON show in its first frame as they do when
 * written again while streaming; and again after STREAMOFF and STREAMON. */
static void picture_streaming(const struct check_ctx *cx)
{
	struct pic p;
	struct frame first = { 0 };
	pic_begin(&p, cx);
	pic_set(&p, p.img.v, "moderate values before streaming");
	stream_on(cx, &p.cap);
	one_frame(&p.cap, &first);
	pic_reference(&p);	/* the same values written again while streaming */
	double d = pic_diff(&p, &p.ref, &first), dd = pic_diff(&p, &p.dflt, &first);
	frame_free(&first);
	v_measure("difference at STREAMON", d, "frame difference");
	if (d > p.tol) {
		char vals[LIST_LEN];
		lc_describe(&p.img, vals, sizeof(vals));
		stream_off(&p.cap);
		ck_abort_msg("expected the first frame after STREAMON to show %s set before it, as when set while "
			     "streaming (LC-2: frame difference <= %.2f), got %.2f (%.2f from the picture at the default "
			     "values%s)", vals, p.tol, d, dd, dd < d ? ": STREAMON lost the hardware's values?" : "");
	}
	stream_off(&p.cap);
	stream_on(cx, &p.cap);
	pic_judge(&p, "STREAMOFF and STREAMON");
}

static void picture_format(const struct check_ctx *cx)
{
	struct pic p;
	struct v4l2_format cur, other;
	char when[96], fs[32];
	pic_begin(&p, cx);
	stream_on(cx, &p.cap);
	pic_reference(&p);
	stream_off(&p.cap);
	expect_ok(lc_get_format(cx->dev, &cur), "G_FMT");
	format_other(cx, &cur, &other);
	snprintf(when, sizeof(when), "S_FMT to %s and back", lc_format_str(&other, fs, sizeof(fs)));
	expect_ok(lc_set_format(cx->dev, &cur), "S_FMT back");
	stream_on(cx, &p.cap);
	pic_judge(&p, when);
}

static void picture_input(const struct check_ctx *cx)
{
	struct pic p;
	struct v4l2_format fmt;
	unsigned cur, other;
	char when[64];
	pic_begin(&p, cx);
	other = input_other(cx, &cur);
	stream_on(cx, &p.cap);
	pic_reference(&p);
	stream_off(&p.cap);
	int have_fmt = lc_get_format(cx->dev, &fmt) == 0;
	set_input(cx, other);
	set_input(cx, cur);
	if (have_fmt)
		lc_set_format(cx->dev, &fmt);
	snprintf(when, sizeof(when), "S_INPUT %u and back to %u", other, cur);
	stream_on(cx, &p.cap);
	pic_judge(&p, when);
}

static void picture_suspend(const struct check_ctx *cx)
{
	struct pic p;
	pic_begin(&p, cx);
	stream_on(cx, &p.cap);
	pic_reference(&p);
	stream_off(&p.cap);
	suspend_cycle(cx);
	stream_on(cx, &p.cap);
	pic_judge(&p, "runtime suspend and reopening");
}

static const struct check_def checks[] = {
	{ "lifecycle/streamon", "LC-1", "values set before streaming read the same after STREAMON and after STREAMOFF",
	  CHECK_PER_DEVICE, streamon_kept, NULL, NULL, 30, true },
	{ "lifecycle/streaming-set", "LC-1", "values set while streaming read the same after STREAMOFF and the next "
	  "STREAMON", CHECK_PER_DEVICE, streaming_set_kept, NULL, NULL, 30, true },
	{ "lifecycle/format", "LC-1", "values read the same after S_FMT to the same format, to another and back",
	  CHECK_PER_DEVICE, format_kept, NULL, NULL, 30, true },
	{ "lifecycle/input", "LC-1", "values read the same after S_INPUT to another input and back",
	  CHECK_PER_DEVICE, input_kept, NULL, NULL, 30, false },
	{ "lifecycle/runtime-suspend", "LC-1", "values read the same after every handle stays closed past the "
	  "autosuspend delay and the node is opened again", CHECK_PER_DEVICE, suspend_kept, NULL, NULL, 60, false },
	{ "lifecycle/picture-streaming", "LC-2", "image control values set before STREAMON show in its first frame as "
	  "when set while streaming, and the picture is the same after STREAMOFF and STREAMON",
	  CHECK_PER_DEVICE, picture_streaming, NULL, NULL, 60, true },
	{ "lifecycle/picture-format", "LC-2", "the picture with non-default image control values is the same after "
	  "S_FMT to another format and back", CHECK_PER_DEVICE, picture_format, NULL, NULL, 60, true },
	{ "lifecycle/picture-input", "LC-2", "the picture with non-default image control values is the same after "
	  "S_INPUT to another input and back", CHECK_PER_DEVICE, picture_input, NULL, NULL, 60, true },
	{ "lifecycle/picture-suspend", "LC-2", "the picture with non-default image control values is the same after "
	  "runtime suspend and reopening", CHECK_PER_DEVICE, picture_suspend, NULL, NULL, 60, true },
};
SUITE(suite_lifecycle, "lifecycle", "Values across streaming, format, input and runtime suspend", checks);
