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
 * autosuspend delay) and name each control that changed. The picture check
 * sets the image controls the probes can judge a quarter of the way from
 * their default towards the far end (moderate, so nothing clips), takes one
 * reference frame (lib/image/picture_ref.c) and goes through every transition in
 * one session, comparing the first frame after each: reference pictures
 * cost frames, and the suite must stay cheap on a 10 frames/s board. The
 * picture at the default values shows the effect is visible at all (else:
 * skip). */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include "image/lc_same.h"
#include "image/lifecycle.h"
#include "image/picture_ref.h"
#include "image/profile.h"
#include "check/registry.h"
#include "run/runner.h"
#include "check/verdict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_LEN 1536	/* a check's message */
#define LIST_LEN 640	/* the controls listed in it */

/* ---------- shared ---------- */

static void watch_all(const struct check_ctx *cx, struct lc_watch *w)
{
	unsigned refused = 0;
	if (!lc_set_others(cx->dev, cx->model, w, &refused))
		v_skip("no documented control can be set to another value%s", refused ? " (every set refused)" : "");
	if (refused)
		v_info("%u controls refused a new value here and are not watched", refused);
}

/* Note what changed after `when` into msg (first finding kept), citing rule. */
static void note_changed_rule(const struct check_ctx *cx, const struct lc_watch *w, const char *when, const char *rule,
			      char *msg, size_t len)
{
	char rep[LIST_LEN];
	int n = lc_changed(cx->dev, w, rep, sizeof(rep));
	if (n && !msg[0])
		snprintf(msg, len, "expected every control to keep its value across %s (%s), got %d of %zu changed: %s",
			 when, rule, n, w->n, rep);
}

static void note_changed(const struct check_ctx *cx, const struct lc_watch *w, const char *when, char *msg,
			 size_t len)
{
	note_changed_rule(cx, w, when, "LC-1", msg, len);
}

static void close_all(const struct check_ctx *cx)
{
	dev_close((struct dev *)cx->dev);
}

static void reopen(const struct check_ctx *cx)
{
	struct dev tmp = *cx->dev;
	v_open_again(&tmp, (struct dev *)cx->dev, "again");
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

/* Another format; false when the device offers a single one (the same
 * format was tried already: LC-7). */
static bool format_other(const struct check_ctx *cx, const struct v4l2_format *cur, struct v4l2_format *other)
{
	int e = lc_format_other(cx->dev, cur, other);
	if (e == ENOENT) {
		v_info("the device offers a single format: S_FMT with the current one only");
		return false;
	}
	expect_ok(e, "S_FMT to another format");
	return true;
}

/* The same input (standard, timings) again (LC-7), into msg. */
static void same_input(const struct check_ctx *cx, const struct lc_watch *w, char *msg, size_t len)
{
	char done[256];
	int e = lc_same_input(cx->dev, done, sizeof(done));
	if (e == ENOTTY)
		v_skip("the node has no input (ENUMINPUT/G_INPUT)");
	expect_ok(e, "%s then the next set with the current value", done[0] ? done : "G_INPUT");
	note_changed(cx, w, done, msg, len);
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
	pic_stream_on(&cap, cx->dev);
	pic_next(&cap, &f);
	note_changed(cx, &w, "STREAMON (set before streaming)", msg, sizeof(msg));
	pic_stream_off(&cap);
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
	pic_stream_on(&cap, cx->dev);
	watch_all(cx, &w);
	pic_next(&cap, &f);
	pic_stream_off(&cap);
	note_changed(cx, &w, "STREAMOFF (set while streaming)", msg, sizeof(msg));
	pic_stream_on(&cap, cx->dev);
	pic_next(&cap, &f);
	note_changed(cx, &w, "a second STREAMON", msg, sizeof(msg));
	pic_stream_off(&cap);
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
	note_changed(cx, &w, "S_FMT to the same format (LC-7)", msg, sizeof(msg));
	if (format_other(cx, &cur, &other)) {
		snprintf(when, sizeof(when), "S_FMT to another format (%s)", lc_format_str(&other, fs, sizeof(fs)));
		note_changed(cx, &w, when, msg, sizeof(msg));
		same = cur;
		expect_ok(lc_set_format(cx->dev, &same), "S_FMT back");
		note_changed(cx, &w, "S_FMT back to the first format", msg, sizeof(msg));
	}
	ck_assert_msg(!msg[0], "%s", msg);
}

static void input_kept(const struct check_ctx *cx)
{
	struct lc_watch w;
	struct v4l2_format fmt;
	unsigned n = 0, cur = 0;
	char msg[REPORT_LEN] = "", when[64];
	int have_fmt = lc_get_format(cx->dev, &fmt) == 0;
	watch_all(cx, &w);
	same_input(cx, &w, msg, sizeof(msg));
	expect_ok(lc_inputs(cx->dev, &n, &cur), "G_INPUT");
	if (n < 2) {
		v_info("a single input: S_INPUT with the current one only");
	} else {
		unsigned other = cur ? 0 : 1;
		set_input(cx, other);
		set_input(cx, cur);
		snprintf(when, sizeof(when), "S_INPUT %u and back to %u", other, cur);
		note_changed(cx, &w, when, msg, sizeof(msg));
	}
	if (have_fmt)	/* a driver may reset the format with the input */
		lc_set_format(cx->dev, &fmt);
	ck_assert_msg(!msg[0], "%s", msg);
}

/* LC-8: on an M2M node a context's values end with its handle (PE-2), so
 * the suspend that matters is the one while it stays open: a codec driver
 * holds no power reference for an open handle and autosuspends between jobs
 * (hantro, rkvdec). Applies where the device reports runtime PM with an
 * autosuspend delay and does suspend with the handle open; nothing is
 * closed. */
static void context_suspend_kept(const struct check_ctx *cx)
{
	struct lc_power pw;
	struct lc_watch w;
	char st[32], msg[REPORT_LEN] = "";
	lc_power_of(cx->dev, &pw);
	lc_runtime_status(&pw, st, sizeof(st));
	if (!st[0] || !strcmp(st, "unsupported") || pw.delay_ms < 0)
		v_skip("M2M node without runtime PM autosuspend (power/runtime_status \"%s\", %s): nothing suspends the "
		       "device under an open context (LC-8); a context's values end with its handle (PE-2, persist/reopen)",
		       st, pw.delay_ms < 0 ? "no power/autosuspend_delay_ms" : "an autosuspend delay");
	watch_all(cx, &w);
	bool suspended = false;
	const char *src = "";
	unsigned ms = lc_wait_suspend(&pw, profile_load_or_exit(g_opts.profile)->suspend_wait_ms, &suspended, &src);
	v_measure("open", ms, "ms");
	if (!suspended) {
		lc_runtime_status(&pw, st, sizeof(st));
		v_skip("M2M node: power/runtime_status stays \"%s\" %u ms past the last ioctl with this context's handle "
		       "open (%s): the driver keeps the device powered for an open handle, no suspend to survive (LC-8)",
		       st, ms, src);
	}
	v_info("the device suspended with this context's handle open, %u ms after its last ioctl (%s)", ms, src);
	note_changed_rule(cx, &w, "runtime suspend with the context's handle open",
			  "LC-8: dev-mem2mem.rst, properties \"local to the file handle\", the hardware reprogrammed", msg,
			  sizeof(msg));
	ck_assert_msg(!msg[0], "%s", msg);
}

static void suspend_kept(const struct check_ctx *cx)
{
	struct lc_watch w;
	char msg[REPORT_LEN] = "";
	if (dev_is_m2m(cx->dev)) {
		context_suspend_kept(cx);
		return;
	}
	watch_all(cx, &w);
	suspend_cycle(cx);
	note_changed(cx, &w, "runtime suspend (every handle closed past the autosuspend delay) and reopening",
		     msg, sizeof(msg));
	ck_assert_msg(!msg[0], "%s", msg);
}

/* ---------- LC-2: the picture ---------- */

/* One session through every transition (one reference picture: each costs
 * frames), the first frame after each compared with the reference. A
 * transition that lost the values has them written again (defaults, then
 * the values) so that the next one is judged on its own. */
struct pic_run {
	struct pic p;
	const struct check_ctx *cx;
	char msg[REPORT_LEN];
	int failed;
};

static void pic_note(struct pic_run *r, const char *when)
{
	char want[LIST_LEN + 64], got[160], rep[LIST_LEN];
	double d;
	pic_next(&r->p.cap, &r->p.f);
	if (pic_matches_ref(&r->p, &r->p.f, &d, want, sizeof(want), got, sizeof(got)))
		return;
	int changed = lc_changed(r->p.dev, &r->p.img, rep, sizeof(rep));
	if (!r->failed++)
		snprintf(r->msg, sizeof(r->msg), "expected %s after each transition (LC-2), got", want);
	size_t at = strlen(r->msg);
	snprintf(r->msg + at, sizeof(r->msg) - at, "%s after %s: %s, G reporting %s%s", r->failed > 1 ? ";" : "",
		 when, got, changed ? "changed values: " : "the same values", changed ? rep : "");
	pic_set(&r->p, r->p.defv, "their defaults");
	pic_set(&r->p, r->p.img.v, "moderate values again");
}

static void picture_kept(const struct check_ctx *cx)
{
	struct pic_run r = { .cx = cx };
	struct pic *p = &r.p;
	struct v4l2_format cur, other;
	unsigned n = 0, in = 0;
	char when[96], fs[32];
	pic_begin(p, cx->dev, cx->model);
	/* Set before STREAMON: its first frame against the values written
	 * again while streaming. */
	pic_set(p, p->img.v, "moderate values before streaming");
	pic_stream_on(&p->cap, cx->dev);
	struct frame first = { 0 };
	pic_next(&p->cap, &first);
	pic_reference(p);
	frame_copy(&p->f, &first);
	frame_free(&first);
	double d;
	char want[LIST_LEN + 64], got[160];
	if (!pic_matches_ref(p, &p->f, &d, want, sizeof(want), got, sizeof(got))) {
		snprintf(r.msg, sizeof(r.msg), "expected %s after each transition (LC-2), got after STREAMON with the "
			 "values set before it: %s", want, got);
		r.failed++;
	}
	pic_stream_off(&p->cap);
	pic_stream_on(&p->cap, cx->dev);
	pic_note(&r, "STREAMOFF and STREAMON");
	pic_stream_off(&p->cap);
	/* LC-7: the same format, input, standard and timings again, on every
	 * device, whether or not there is another to switch to. */
	if (!lc_get_format(cx->dev, &cur)) {
		struct v4l2_format same = cur;
		expect_ok(lc_set_format(cx->dev, &same), "S_FMT with the current format");
		close_all(cx);	/* the stream's owner no more (below) */
		reopen(cx);
		pic_stream_on(&p->cap, cx->dev);
		pic_note(&r, "S_FMT with the current format");
		pic_stream_off(&p->cap);
	}
	char done[256];
	if (!lc_same_input(cx->dev, done, sizeof(done))) {
		close_all(cx);
		reopen(cx);
		pic_stream_on(&p->cap, cx->dev);
		pic_note(&r, done);
		pic_stream_off(&p->cap);
	}
	if (lc_get_format(cx->dev, &cur) || lc_format_other(cx->dev, &cur, &other)) {
		v_info("no other format: S_FMT not tried");
	} else {
		snprintf(when, sizeof(when), "S_FMT to %s and back", lc_format_str(&other, fs, sizeof(fs)));
		expect_ok(lc_set_format(cx->dev, &cur), "S_FMT back");
		/* A handle that set the format may now own the stream (uvcvideo
		 * keeps it until close: uvc_v4l2.c, uvc_acquire_privileges) and
		 * the picture comes through the capture's own handle. */
		close_all(cx);
		reopen(cx);
		pic_stream_on(&p->cap, cx->dev);
		pic_note(&r, when);
		pic_stream_off(&p->cap);
	}
	if (lc_inputs(cx->dev, &n, &in) || n < 2) {
		v_info("a single input: S_INPUT not tried");
	} else {
		struct v4l2_format fmt;
		int have_fmt = lc_get_format(cx->dev, &fmt) == 0;
		set_input(cx, in ? 0 : 1);
		set_input(cx, in);
		if (have_fmt)
			lc_set_format(cx->dev, &fmt);
		close_all(cx);	/* the stream's owner no more (above) */
		reopen(cx);
		snprintf(when, sizeof(when), "S_INPUT %u and back to %u", in ? 0 : 1, in);
		pic_stream_on(&p->cap, cx->dev);
		pic_note(&r, when);
		pic_stream_off(&p->cap);
	}
	suspend_cycle(cx);
	pic_stream_on(&p->cap, cx->dev);
	pic_note(&r, "runtime suspend and reopening");
	pic_end(p);
	v_measure("transitions that lost the picture", r.failed, "");
	ck_assert_msg(!r.failed, "%s", r.msg);
}

static const struct check_def checks[] = {
	{ "lifecycle/streamon", "LC-1", "values set before streaming read the same after STREAMON and after STREAMOFF",
	  CHECK_PER_DEVICE, streamon_kept, NULL, NULL, 30, true },
	{ "lifecycle/streaming-set", "LC-1", "values set while streaming read the same after STREAMOFF and the next "
	  "STREAMON", CHECK_PER_DEVICE, streaming_set_kept, NULL, NULL, 30, true, .needs = NEEDS_CTRLS },
	{ "lifecycle/format", "LC-1", "values read the same after S_FMT to the same format, to another and back (where there is another)",
	  CHECK_PER_DEVICE, format_kept, NULL, NULL, 30, true },
	{ "lifecycle/input", "LC-1", "values read the same after S_INPUT (S_STD, S_DV_TIMINGS) with the current ones, and S_INPUT to another "
	  "input and back (where there is another)",
	  CHECK_PER_DEVICE, input_kept, NULL, NULL, 30, false, .needs = NEEDS_VIDEO_NODE },
	{ "lifecycle/runtime-suspend", "LC-1", "values read the same after every handle stays closed past the "
	  "autosuspend delay and the node is opened again (M2M: a context's values after the device suspends with "
	  "its handle open, LC-8)", CHECK_PER_DEVICE, suspend_kept, NULL, NULL, 60, false },
	{ "lifecycle/picture", "LC-2", "with the image controls at non-default values the picture is the same after "
	  "STREAMON (values set before it), STREAMOFF and STREAMON, S_FMT with the current format, S_INPUT (S_STD, "
	  "S_DV_TIMINGS) with the current ones, S_FMT to another format and back, S_INPUT to "
	  "another input and back, and runtime suspend", CHECK_PER_DEVICE, picture_kept, NULL, NULL, 90, true },
};
SUITE(suite_lifecycle, "lifecycle", "Values across streaming, format, input and runtime suspend", checks);
