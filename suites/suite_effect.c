/* What a set does to the picture, whichever way it comes in (issue 13; LC-3,
 * LC-4 in spec/rules-lifecycle.md). The image controls the probes judge
 * are set to moderate values through S_CTRL, S_EXT_CTRLS with which =
 * CUR_VAL and with which = the control's class, one control a call, and all
 * in one S_EXT_CTRLS: each must give the same picture (LC-3). TRY_EXT_CTRLS
 * changes neither value nor picture (LC-3). A set that fails changes no
 * value, sends no event to any handle and leaves the picture alone (LC-4):
 * a driver that writes registers while validating, or announces a change it
 * then refuses, breaks that where no ioctl shows it. */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/events.h"
#include "ctrl/ext_ctrls.h"
#include "image/picture_ref.h"
#include "check/registry.h"
#include "check/verdict.h"

#include <stdio.h>
#include <string.h>

#define MSG_LEN 1536

/* ---------- LC-3: every way in ---------- */

/* The reference picture is set the first way (lib/ctrl/ctrl_value.c's
 * ctrl_set_scalar: S_EXT_CTRLS which = CUR_VAL, one control a call); each
 * of these must give the same. */
enum way { WAY_S_CTRL, WAY_EXT_CLASS, WAY_EXT_ALL, WAY_N };
static const char *const way_name[WAY_N] = {
	"S_CTRL, one control a call (user class; S_EXT_CTRLS for the others)",
	"S_EXT_CTRLS which = the control's class, one control a call",
	"one S_EXT_CTRLS (which = CUR_VAL) with every image control",
};

static int ext_one(const struct dev *d, unsigned long req, uint32_t which, const struct ctrl *c, int64_t v)
{
	struct ext_batch b;
	ext_init(&b, which);
	ext_add(&b, c, v);
	int e = ext_do(d, req, &b);
	ext_free(&b);
	return e;
}

static int ext_all(const struct dev *d, unsigned long req, const struct lc_watch *w)
{
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	for (size_t i = 0; i < w->n; i++)
		ext_add(&b, w->c[i], w->v[i]);
	int e = ext_do(d, req, &b);
	ext_free(&b);
	return e;
}

static int set_by(const struct pic *p, enum way w)
{
	const struct lc_watch *img = &p->img;
	if (w == WAY_EXT_ALL)
		return ext_all(p->dev, VIDIOC_S_EXT_CTRLS, img);
	for (size_t i = 0; i < img->n; i++) {
		const struct ctrl *c = img->c[i];
		int32_t v32 = (int32_t)img->v[i];
		/* GC: "These ioctls work only with user controls": the others
		 * come in through S_EXT_CTRLS on the S_CTRL round too. */
		const bool user = V4L2_CTRL_ID2WHICH(c->q.id) == V4L2_CTRL_CLASS_USER;
		int e = w == WAY_S_CTRL && user ? ctrl_set_old(p->dev, c->q.id, &v32)
			: ext_one(p->dev, VIDIOC_S_EXT_CTRLS,
				  w == WAY_S_CTRL ? V4L2_CTRL_WHICH_CUR_VAL : V4L2_CTRL_ID2WHICH(c->q.id), c, img->v[i]);
		if (e)
			return e;
	}
	return 0;
}

static void ways_in(const struct check_ctx *cx)
{
	struct pic p;
	char want[640], got[160], msg[MSG_LEN] = "", rep[640];
	double d;
	pic_begin(&p, cx->dev, cx->model);
	for (size_t i = 0; i < p.img.n; i++)
		if (!ctrl_type_is_int32(p.img.c[i]->q.type))
			v_skip("%s is not reachable through S_CTRL", p.img.c[i]->slug);
	pic_stream_on(&p.cap, cx->dev);
	pic_reference(&p);
	for (int w = 0; w < WAY_N && !msg[0]; w++) {
		pic_set(&p, p.defv, "their defaults");
		int e = set_by(&p, (enum way)w);
		if (e) {
			snprintf(msg, sizeof(msg), "expected %s to set the image controls, got %s", way_name[w],
				 errno_name(e));
			break;
		}
		pic_settle(&p, &p.f);
		if (!pic_matches_ref(&p, &p.f, &d, want, sizeof(want), got, sizeof(got)))
			snprintf(msg, sizeof(msg), "expected %s to give %s, as the other ways in do (LC-3), got %s",
				 way_name[w], want, got);
	}
	if (!msg[0]) {
		/* TRY from the defaults: neither the values nor the picture move. */
		pic_set(&p, p.defv, "their defaults");
		int e = ext_all(p.dev, VIDIOC_TRY_EXT_CTRLS, &p.img);
		pic_settle(&p, &p.f);
		struct lc_watch dflt = p.img;
		memcpy(dflt.v, p.defv, sizeof(dflt.v));
		double dd = pic_diff(&p, &p.dflt, &p.f);
		if (e)
			snprintf(msg, sizeof(msg), "expected TRY_EXT_CTRLS of the image controls to succeed, got %s",
				 errno_name(e));
		else if (lc_changed(p.dev, &dflt, rep, sizeof(rep)))
			snprintf(msg, sizeof(msg), "expected TRY_EXT_CTRLS to change no value (LC-3), got %s", rep);
		else if (dd > p.tol)
			snprintf(msg, sizeof(msg), "expected TRY_EXT_CTRLS to leave the picture alone (LC-3: frame difference "
				 "<= %.2f from the picture at the current values), got %.2f (%.2f from the tried values')",
				 p.tol, dd, pic_diff(&p, &p.ref, &p.f));
	}
	pic_end(&p);
	ck_assert_msg(!msg[0], "%s", msg);
}

/* ---------- LC-4: a failed set ---------- */

/* An entry every driver must refuse: a menu item past the maximum (ERANGE,
 * or EINVAL); else a write to a read-only control (EACCES). */
static const struct ctrl *refused_entry(const struct ctrl_model *m, const struct lc_watch *img, int64_t *v)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		if (ctrl_settable_int32(c) && ctrl_type_is_menu(c->q.type) && c->q.maximum < INT32_MAX) {
			*v = c->q.maximum + 1;
			return c;
		}
	}
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		if ((c->q.flags & V4L2_CTRL_FLAG_READ_ONLY) && ctrl_type_is_int32(c->q.type) &&
		    !(c->q.flags & V4L2_CTRL_FLAG_DISABLED) && c->q.type != V4L2_CTRL_TYPE_BUTTON) {
			*v = c->q.default_value;
			return c;
		}
	}
	return NULL;
}

/* After a refused set: no value moved, no event on the other handle, the
 * picture is the one at the current (default) values. */
static void after_refusal(struct pic *p, const struct dev *other, const struct lc_watch *dflt, const char *what,
			  char *msg, size_t len)
{
	char rep[640], es[128];
	struct v4l2_event ev;
	pic_settle(p, &p->f);
	double d = pic_diff(p, &p->dflt, &p->f);
	int n = ev_drain(other, &ev, 1);
	if (lc_changed(p->dev, dflt, rep, sizeof(rep)))
		snprintf(msg, len, "expected %s to change no value (LC-4), got %s", what, rep);
	else if (n > 0)
		snprintf(msg, len, "expected %s to send no event to any handle (LC-4), got %s%s", what,
			 ev_str(&ev, es, sizeof(es)), n > 1 ? " and more" : "");
	else if (d > p->tol)
		snprintf(msg, len, "expected %s to leave the picture alone (LC-4: frame difference <= %.2f), got %.2f "
			 "(%.2f from the picture at the refused values: written to the hardware while validating?)",
			 what, p->tol, d, pic_diff(p, &p->ref, &p->f));
}

static void failed_set(const struct check_ctx *cx)
{
	struct pic p;
	struct dev other;
	char msg[MSG_LEN] = "", what[256];
	int64_t bad_v;
	pic_begin(&p, cx->dev, cx->model);
	const struct ctrl *bad = refused_entry(cx->model, &p.img, &bad_v);
	if (!bad)
		v_skip("no menu and no read-only control: no value every driver must refuse");
	v_open_again(cx->dev, &other, "a second time");
	for (size_t i = 0; i < p.img.n; i++)
		expect_ok(ev_subscribe(&other, p.img.c[i]->q.id, 0), "subscribing to %s", p.img.c[i]->slug);
	expect_ok(ev_subscribe(&other, bad->q.id, 0), "subscribing to %s", bad->slug);
	pic_stream_on(&p.cap, cx->dev);
	pic_reference(&p);
	pic_set(&p, p.defv, "their defaults");
	struct lc_watch dflt = p.img;
	memcpy(dflt.v, p.defv, sizeof(dflt.v));
	dflt.c[dflt.n] = bad;
	expect_ok(ctrl_get_scalar(cx->dev, bad, &dflt.v[dflt.n]), "G %s", bad->slug);
	dflt.n++;
	ev_drain(&other, NULL, 0);

	/* Every image control to its moderate value, then the refused entry. */
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	for (size_t i = 0; i < p.img.n; i++)
		ext_add(&b, p.img.c[i], p.img.v[i]);
	ext_add(&b, bad, bad_v);
	int e = ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b);
	ext_free(&b);
	snprintf(what, sizeof(what), "S_EXT_CTRLS of the image controls with %s = %lld, refused with %s", bad->slug,
		 (long long)bad_v, errno_name(e));
	if (e)
		after_refusal(&p, &other, &dflt, what, msg, sizeof(msg));
	else
		v_info("S_EXT_CTRLS with %s = %lld succeeded (getset/menu-invalid judges that)", bad->slug,
		       (long long)bad_v);
	if (!msg[0]) {
		int32_t v32 = (int32_t)bad_v;
		e = ctrl_set_old(cx->dev, bad->q.id, &v32);
		snprintf(what, sizeof(what), "S_CTRL %s = %lld, refused with %s", bad->slug, (long long)bad_v,
			 errno_name(e));
		if (e)
			after_refusal(&p, &other, &dflt, what, msg, sizeof(msg));
	}
	pic_end(&p);
	dev_close(&other);
	ck_assert_msg(!msg[0], "%s", msg);
}

static const struct check_def checks[] = {
	{ "effect/ways-in", "LC-3", "S_CTRL, S_EXT_CTRLS (which = CUR_VAL, which = the class, several controls in one "
	  "call) give the same picture; TRY_EXT_CTRLS changes neither value nor picture",
	  CHECK_PER_DEVICE, ways_in, NULL, NULL, 60, true, NEEDS_EXT },
	{ "effect/failed-set", "LC-4", "a refused S_EXT_CTRLS or S_CTRL changes no value, sends no event to any "
	  "handle and leaves the picture alone", CHECK_PER_DEVICE, failed_set, NULL, NULL, 60, true,
	  NEEDS_EXT | NEEDS_EVENTS },
};
SUITE(suite_effect, "effect", "The same effect whichever way a value comes in; none from a refused set", checks);
