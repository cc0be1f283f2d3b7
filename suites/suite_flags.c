/* Flags the documentation gives a meaning beyond the type's invariants
 * (enum/flags): a DISABLED control (FL-1, EX-6) and the standard controls
 * the documentation calls read-only (FL-15).
 *
 * DISABLED, as vidioc-queryctrl.rst of 6.1 and 6.12 has it: the control is
 * permanently disabled and applications should ignore it; any attempt to
 * change it gives EINVAL; a driver may keep an unsupported control that
 * way or answer EINVAL for it (the footnote; enum/flags accepts the flag,
 * enum/private-aliases and enum/found-by-every-method see that the
 * EINVAL way does not cut the old-style private enumeration short). The
 * documentation says nothing of reading one: both answers pass, the one
 * the framework does not give warns. Where the framework differs from the
 * documentation on a change (v4l2_s_ctrl of 6.1 and 6.12 has no DISABLED
 * test and changes the value), the framework's answer warns. */
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <string.h>

/* ---------- DISABLED (FL-1, EX-6) ---------- */

static bool is_disabled_scalar(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!(c->q.flags & V4L2_CTRL_FLAG_DISABLED))
		return false;
	if (ctrl_has_payload(&c->q) || c->q.type == V4L2_CTRL_TYPE_CTRL_CLASS) {
		*why = "a DISABLED payload or class control: its change attempt is not modelled";
		return false;
	}
	return true;
}

/* The value the change attempts write: the current one where G_CTRL reads
 * it (a driver that wrongly accepts the write is still caught by its
 * answer, and the device is left as found), else the default. */
static int64_t attempt_value(const struct dev *d, const struct ctrl *c)
{
	int32_t v = 0;
	if (ctrl_is_scalar_int32(&c->q) && ctrl_get_old(d, c->q.id, &v) == 0)
		return v;
	return c->q.default_value;
}

/* One extended call on the control alone. */
static int ext_one(const struct dev *d, unsigned long req, const struct ctrl *c)
{
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	ext_add(&b, c, attempt_value(d, c));
	int e = ext_do(d, req, &b);
	ext_free(&b);
	return e;
}

static bool still_disabled(const struct dev *d, uint32_t id)
{
	uint32_t f = 0;
	return ctrl_query_flags(d, id, &f) && (f & V4L2_CTRL_FLAG_DISABLED);
}

static void change_refused(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	int e = ext_one(cx->dev, VIDIOC_S_EXT_CTRLS, c);
	/* Documentation and framework (prepare_ext_ctrls) agree: EINVAL. */
	expect_errno(e, EINVAL, "S_EXT_CTRLS of a DISABLED control: any attempt to change it gives EINVAL (EX-6)");
	e = ext_one(cx->dev, VIDIOC_TRY_EXT_CTRLS, c);
	if (e == 0)
		v_warn("TRY_EXT_CTRLS of a DISABLED control succeeded: the documentation forbids only changes, the "
		       "framework (prepare_ext_ctrls) gives EINVAL (EX-6)");
	else
		expect_errno(e, EINVAL, "TRY_EXT_CTRLS of a DISABLED control: EINVAL or success (EX-6)");
	if (ctrl_is_scalar_int32(&c->q)) {
		int32_t v = (int32_t)attempt_value(cx->dev, c);
		e = ctrl_set_old(cx->dev, c->q.id, &v);
		if (e == 0)
			v_warn("S_CTRL of a DISABLED control succeeded: the documentation says EINVAL; the 6.1 and 6.12 "
			       "framework's v4l2_s_ctrl (v4l2-ctrls-api.c) does not test the flag and changes the value (EX-6)");
		else
			expect_errno(e, EINVAL, "S_CTRL of a DISABLED control: any attempt to change it gives EINVAL (EX-6)");
		e = ctrl_get_old(cx->dev, c->q.id, &v);
		if (e != 0 && e != EINVAL)
			expect_errno(e, 0, "G_CTRL of a DISABLED control: success or EINVAL (FL-1)");
		if (e == EINVAL)
			v_warn("G_CTRL of a DISABLED control gave EINVAL: allowed, but the framework's v4l2_g_ctrl reads it (FL-1)");
	}
	struct ctrl_val got = { 0 };
	e = ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &got);
	ctrl_val_free(&got);
	if (e == 0)
		v_warn("G_EXT_CTRLS of a DISABLED control succeeded: allowed, but the framework (prepare_ext_ctrls) gives EINVAL (FL-1)");
	else
		expect_errno(e, EINVAL, "G_EXT_CTRLS of a DISABLED control: success or EINVAL (FL-1)");
	ck_assert_msg(still_disabled(cx->dev, c->q.id),
		      "expected %s to stay DISABLED after the attempts to change it: permanently disabled (FL-1)", c->q.name);
}

/* FL-1: "permanently". After an attempt to write each DISABLED control (the
 * answer is change_refused's business), every control reports DISABLED
 * exactly as it did when the run began, through QUERY_EXT_CTRL and, for
 * the controls it covers, QUERYCTRL. */
static void permanent(const struct check_ctx *cx)
{
	size_t ndis = 0;
	for (size_t i = 0; i < cx->model->n; i++) {
		const struct ctrl *c = &cx->model->c[i];
		if (!(c->q.flags & V4L2_CTRL_FLAG_DISABLED))
			continue;
		ndis++;
		if (ctrl_is_scalar_int32(&c->q)) {
			int32_t v = (int32_t)attempt_value(cx->dev, c);
			(void)ctrl_set_old(cx->dev, c->q.id, &v);
		}
		if (!ctrl_has_payload(&c->q) && c->q.type != V4L2_CTRL_TYPE_CTRL_CLASS)
			(void)ext_one(cx->dev, VIDIOC_S_EXT_CTRLS, c);
	}
	for (size_t i = 0; i < cx->model->n; i++) {
		const struct ctrl *c = &cx->model->c[i];
		bool was = c->q.flags & V4L2_CTRL_FLAG_DISABLED;
		uint32_t f = 0;
		if (ctrl_query_flags(cx->dev, c->q.id, &f))
			ck_assert_msg(!!(f & V4L2_CTRL_FLAG_DISABLED) == was,
				      "expected %s %s DISABLED as at the start of the run (permanently, FL-1), got flags 0x%x",
				      c->q.name, was ? "still" : "never", f);
		if (ctrl_is_compound(&c->q))
			continue;
		struct v4l2_queryctrl qc = { .id = c->q.id };
		if (dev_ioctl(cx->dev, VIDIOC_QUERYCTRL, &qc) == 0)
			ck_assert_msg(!!(qc.flags & V4L2_CTRL_FLAG_DISABLED) == was,
				      "expected QUERYCTRL to report %s %s DISABLED (FL-1), got flags 0x%x", c->q.name,
				      was ? "still" : "never", qc.flags);
	}
	v_info("%zu DISABLED control(s)", ndis);
}

/* ---------- documented read-only standard controls (FL-15) ---------- */

/* The standard controls whose description in the documentation says
 * "read-only" (Documentation/userspace-api/media/v4l/ of 6.1 and 6.12:
 * grep -i 'read-only' control.rst ext-ctrls-*.rst). AVERAGE_QP is 6.12's
 * only (0x990b91; spelled out, as older uapi headers lack it). */
static const struct doc_ro {
	uint32_t id;
	const char *doc;
	bool fw_not_ro;	/* the framework's v4l2_ctrl_fill does not make it READ_ONLY */
} doc_read_only[] = {
	{ V4L2_CID_MIN_BUFFERS_FOR_CAPTURE, "control.rst:286 (6.12: 290)" },
	{ V4L2_CID_MIN_BUFFERS_FOR_OUTPUT, "control.rst:292 (6.12: 296)" },
	{ V4L2_CID_AUTO_FOCUS_STATUS, "ext-ctrls-camera.rst:171" },
	{ V4L2_CID_CAMERA_ORIENTATION, "ext-ctrls-camera.rst:510 (6.12: 512)" },
	{ V4L2_CID_CAMERA_SENSOR_ROTATION, "ext-ctrls-camera.rst:541 (6.12: 544)" },
	{ V4L2_CID_MPEG_VIDEO_DEC_PTS, "ext-ctrls-codec.rst:665" },
	{ V4L2_CID_MPEG_VIDEO_DEC_FRAME, "ext-ctrls-codec.rst:673" },
	{ V4L2_CID_CODEC_BASE + 657, "ext-ctrls-codec.rst:1657 (6.12 only)" },	/* V4L2_CID_MPEG_VIDEO_AVERAGE_QP */
	{ V4L2_CID_DV_TX_HOTPLUG, "ext-ctrls-dv.rst:47" },
	{ V4L2_CID_DV_TX_RXSENSE, "ext-ctrls-dv.rst:56" },
	{ V4L2_CID_DV_TX_EDID_PRESENT, "ext-ctrls-dv.rst:64" },
	{ V4L2_CID_DV_RX_POWER_PRESENT, "ext-ctrls-dv.rst:132" },
	{ V4L2_CID_FLASH_STROBE_STATUS, "ext-ctrls-flash.rst:114" },
	{ V4L2_CID_FLASH_READY, "ext-ctrls-flash.rst:188" },
	{ V4L2_CID_PIXEL_RATE, "ext-ctrls-image-process.rst:32" },
	/* the 6.1 and 6.12 framework's v4l2_ctrl_fill: VOLATILE, not READ_ONLY */
	{ V4L2_CID_RF_TUNER_PLL_LOCK, "ext-ctrls-rf-tuner.rst:89", true },
};

static const struct doc_ro *doc_ro_find(uint32_t id)
{
	for (size_t i = 0; i < sizeof(doc_read_only) / sizeof(doc_read_only[0]); i++)
		if (doc_read_only[i].id == id)
			return &doc_read_only[i];
	return NULL;
}

static bool documented_ro(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return doc_ro_find(c->q.id) != NULL;
}

static void documented_read_only(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	const struct doc_ro *d = doc_ro_find(q->id);
	if (q->flags & V4L2_CTRL_FLAG_READ_ONLY)
		return;
	char fs[200];
	ctrl_flags_str(q->flags, fs, sizeof(fs));
	if (d->fw_not_ro) {
		v_warn("the documentation (%s) calls %s read-only, but it lacks READ_ONLY (%s): the framework's "
		       "v4l2_ctrl_fill gives it VOLATILE only (FL-15)", d->doc, q->name, fs);
		return;
	}
	ck_abort_msg("expected READ_ONLY on %s, which the documentation (%s) calls a read-only control (FL-15), got %s",
		     q->name, d->doc, fs);
}

static const struct check_def checks[] = {
	{ "flags/disabled-change-refused", "EX-6",
	  "S_EXT_CTRLS (and S_CTRL) of a DISABLED control gives EINVAL; reading it may work or give EINVAL; it stays DISABLED",
	  CHECK_PER_CONTROL, change_refused, is_disabled_scalar, .needs = NEEDS_EXT, .on_disabled = true },
	{ "flags/disabled-permanent", "FL-1",
	  "after writes to the DISABLED controls, every control reports DISABLED exactly as at the start of the run",
	  CHECK_PER_DEVICE, permanent, .needs = NEEDS_CTRLS },
	{ "flags/documented-read-only", "FL-15",
	  "a standard control the documentation calls read-only has the READ_ONLY flag",
	  CHECK_PER_CONTROL, documented_read_only, documented_ro, .on_disabled = true },
};
SUITE(suite_flags, "flags", "Flags with a documented meaning (DISABLED, read-only controls)", checks);
