#include "image/excuse.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "image/lifecycle.h"
#include "image/probe_judge.h"
#include "image/probe_node.h"
#include "image/stats.h"
#include "check/run_opts.h"
#include "check/verdict.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool excuse_image_ctrl(const struct ctrl *c, const struct profile *pr)
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

/* The plainest path: S_CTRL for the user class; the others only come in
 * through S_EXT_CTRLS ("These ioctls work only with user controls"). */
static int set_plain(const struct dev *d, const struct ctrl *c, int64_t v)
{
	if (V4L2_CTRL_ID2WHICH(c->q.id) != V4L2_CTRL_CLASS_USER || !ctrl_type_is_int32(c->q.type))
		return ctrl_set_scalar(d, c, &v);
	int32_t v32 = (int32_t)v;
	return ctrl_set_old(d, c->q.id, &v32);
}

struct look {
	const struct dev *d;
	struct capture *cap;
	struct roi roi;
	unsigned extra;
	struct frame base, f;
	double tol;
};

/* The region's difference from the picture at the defaults, after a set;
 * negative when no frame came. */
static double moved_by(struct look *l)
{
	if (capture_settle_after_change(l->cap, l->extra, &l->f))
		return -1;
	return stats_frame_difference(&l->base, &l->f, &l->roi);
}

static int cached = -1;		/* the answer, once found: 1 earned, 0 not */
static char cached_seen[768];

/* A picture shown to respond once is the run's answer: every check runs
 * in a process of its own, and the look costs a few settled frames. Only
 * the good answer is kept (a file in the run's scratch directory, which
 * no other run sees: an answer left in a reused output directory would
 * have excused the next run's pictures unseen); a
 * suspect picture is looked at again by each check that would excuse
 * itself, so that each names what it saw. */
static bool responds_file(char *path, size_t len)
{
	if (!g_opts.scratch_dir)
		return false;
	snprintf(path, len, "%s/keep-picture-responds", g_opts.scratch_dir);
	return true;
}

static bool responded_before(void)
{
	char path[512];
	return responds_file(path, sizeof(path)) && access(path, F_OK) == 0;
}

static void remember_response(void)
{
	char path[512];
	FILE *f;
	if (responds_file(path, sizeof(path)) && (f = fopen(path, "w")))
		fclose(f);
}

bool excuse_earned(const struct dev *d, const struct ctrl_model *m, struct capture *cap, char *seen, size_t len)
{
	if (cached >= 0) {
		snprintf(seen, len, "%s", cached_seen);
		return cached;
	}
	seen[0] = 0;
	if (responded_before())
		return true;
	const struct profile *pr = profile_load_or_exit(g_opts.profile);
	struct lc_watch img = { 0 };
	int64_t was[LC_MAX_WATCH];
	for (size_t i = 0; i < m->n && img.n < LC_MAX_WATCH; i++) {
		const struct ctrl *c = &m->c[i];
		uint32_t flags = 0;
		if (!excuse_image_ctrl(c, pr) || ctrl_get_scalar(d, c, &was[img.n]))
			continue;
		if (ctrl_query_flags(d, c->q.id, &flags) && (flags & V4L2_CTRL_FLAG_INACTIVE))
			continue;	/* its auto mode's to move */
		img.v[img.n] = c->q.default_value;
		img.c[img.n++] = c;
	}
	seen[0] = 0;
	if (!img.n)
		return true;	/* nothing to show it with: the profile's choice */
	/* How long a set may take to show: the node's latency when a probe
	 * measured it (lib/image/probe_node.h) with two frames to spare, and at
	 * least the whole queue (4 frames on vivid instead of 12), else the
	 * profile's max-latency. The probes trust that latency for their own
	 * verdicts; a control slower than it by more than two frames would be
	 * seen as not moving the picture (a failure here, never an excuse). */
	const int lat = probe_node_latency();
	struct look l = { .d = d, .cap = cap, .extra = pr->max_latency };
	if (lat >= 0)
		l.extra = (unsigned)lat + 2 > cap->queued + 1 ? (unsigned)lat + 2 - cap->queued - 1 : 0;
	bool earned = true, responded = false, confirmed = false;
	struct frame ref = { 0 }, at_end = { 0 };
	unsigned set = 0;	/* ends that could be written */
	for (size_t i = 0; i < img.n; i++)
		set_plain(d, img.c[i], img.v[i]);
	if (capture_settle_after_change(cap, l.extra, &l.base) || capture_next(cap, &l.f))
		goto out;	/* no frames: not this check's finding */
	l.roi = profile_roi(pr, l.base.width, l.base.height);
	l.tol = JUDGE_HALF_CODE + JUDGE_NOISE_K * stats_frame_difference(&l.base, &l.f, &l.roi);
	double most = 0;
	char tried[512] = "";
	/* Until S_EXT_CTRLS is seen to move it too (or not to). */
	for (size_t i = 0; i < img.n && earned && !confirmed; i++) {
		const struct ctrl *c = img.c[i];
		const int64_t ends[2] = { c->q.minimum, c->q.maximum };
		for (int k = 0; k < 2 && earned && !confirmed; k++) {
			if (ends[k] == c->q.default_value || set_plain(d, c, ends[k]))
				continue;
			set++;
			double dd = moved_by(&l);
			if (dd < 0)
				goto out;
			if (dd > most)
				most = dd;
			size_t at = strlen(tried);
			snprintf(tried + at, sizeof(tried) - at, "%s%s = %lld: %.2f", at ? ", " : "", c->slug,
				 (long long)ends[k], dd);
			if (dd <= l.tol)
				continue;
			responded = true;
			/* The same value the way the checks write it, from the
			 * default, judged against the picture at the default as
			 * S_CTRL leaves it now: the first base may not be that
			 * picture (a set of the value a control already holds
			 * programs nothing, and a hardware state that another path
			 * left behind would show as a move of its own). */
			if (frame_copy(&at_end, &l.f) || set_plain(d, c, c->q.default_value) ||
			    capture_settle_after_change(cap, l.extra, &ref))
				goto out;
			const double dref = stats_frame_difference(&ref, &at_end, &l.roi);
			int64_t w = ends[k];
			int e = ctrl_set_scalar(d, c, &w);
			double de = e || capture_settle_after_change(cap, l.extra, &l.f) ? -1
				    : stats_frame_difference(&ref, &l.f, &l.roi);
			if (dref <= l.tol || e || de < 0)
				continue;	/* nothing to compare S_EXT_CTRLS with: try further */
			if (de > l.tol) {
				confirmed = true;
				continue;
			}
			earned = false;
			snprintf(seen, len, "the picture responds to S_CTRL %s = %lld (frame difference %.2f to the "
				 "picture at its default, tolerance %.2f) but not to S_EXT_CTRLS (which = CUR_VAL) of the "
				 "same value (%.2f): that set path stores the value without programming the hardware",
				 c->slug, (long long)ends[k], dref, l.tol, de);
		}
		set_plain(d, c, c->q.default_value);
	}
	if (!responded && set) {	/* none settable now (GRABBED...): the device's to excuse */
		earned = false;
		const double y = stats_luma_mean(&l.base, &l.roi);
		snprintf(seen, len, "no standard image control moves the picture: with every one at its default (S_CTRL) "
			 "the region's mean luma is %.1f%s; each at its minimum and maximum changed the region by at "
			 "most %.2f (tolerance %.2f): %s", y, y <= 16.5 || y >= 234.5 ? ", stuck at an extreme" : "",
			 most, l.tol, tried);
	}
out:
	for (size_t i = 0; i < img.n; i++)
		set_plain(d, img.c[i], was[i]);
	frame_free(&l.base);
	frame_free(&l.f);
	frame_free(&ref);
	frame_free(&at_end);
	cached = earned;
	/* Only a picture both paths were seen to move is the run's answer. */
	if (earned && confirmed)
		remember_response();
	snprintf(cached_seen, sizeof(cached_seen), "%s", seen);
	return earned;
}

void excuse_or_fail(const struct dev *d, const struct ctrl_model *m, struct capture *cap, const char *excuse)
{
	char seen[768];
	if (excuse_earned(d, m, cap, seen, sizeof(seen)))
		return;
	ck_abort_msg("expected the picture to respond to its image controls before excusing '%s' (PB-6), got %s",
		     excuse, seen);
}
