/* The events suite's EV-5/EV-7 check: the range, flag and dimension
 * changes a driver makes by itself on S_INPUT are announced (its own file:
 * suite_events.c holds the table and the value-event checks). */
#include "ctrl/events.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- range, flag and dimension changes made by the driver (EV-5, EV-7) ---------- */

struct qsave { struct v4l2_query_ext_ctrl q; uint32_t got; };

static void query_all(const struct check_ctx *cx, struct qsave *qs)
{
	for (size_t i = 0; i < cx->model->n; i++) {
		memset(&qs[i].q, 0, sizeof(qs[i].q));
		qs[i].q.id = cx->model->c[i].q.id;
		dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &qs[i].q);
		qs[i].got = 0;
	}
}

static int count_inputs(const struct dev *d)
{
	int n = 0;
	for (uint32_t i = 0; i < 64; i++) {
		struct v4l2_input in = { .index = i };
		if (dev_ioctl(d, VIDIOC_ENUMINPUT, &in))
			break;
		n++;
	}
	return n;
}

/* Compare before/after, check every difference was announced; returns the
 * number of problems, described in msg. */
static int announced(const struct check_ctx *cx, const struct qsave *before, struct qsave *after, const char *when, char *msg,
		     size_t len, int *changes)
{
	struct v4l2_event ev;
	int probs = 0;
	size_t o = strlen(msg);
	while (ev_dequeue(cx->dev, &ev) == 0)
		for (size_t i = 0; i < cx->model->n; i++)
			if (after[i].q.id == ev.id)
				after[i].got |= ev.u.ctrl.changes;
	for (size_t i = 0; i < cx->model->n; i++) {
		const struct v4l2_query_ext_ctrl *a = &before[i].q, *b = &after[i].q;
		uint32_t need = 0;
		if (a->minimum != b->minimum || a->maximum != b->maximum || a->step != b->step ||
		    a->default_value != b->default_value)
			need |= V4L2_EVENT_CTRL_CH_RANGE;
		/* VOLATILE toggles with INACTIVE in auto clusters; GRABBED is FL-2's. */
		if ((a->flags ^ b->flags) & ~(uint32_t)V4L2_CTRL_FLAG_GRABBED)
			need |= V4L2_EVENT_CTRL_CH_FLAGS;
		if (a->elems != b->elems || memcmp(a->dims, b->dims, sizeof(a->dims)))
			need |= V4L2_EVENT_CTRL_CH_DIMENSIONS;
		if (!need)
			continue;
		(*changes)++;
		uint32_t missing = need & ~after[i].got;
		if (missing && o < len) {
			char f[64];
			probs++;
			o += snprintf(msg + o, len - o, "%s%s %s: no %s event", o ? "; " : "", when, b->name,
				      ev_changes_str(missing, f, sizeof(f)));
		}
	}
	return probs;
}

void events_input_change(const struct check_ctx *cx)
{
	int nin = count_inputs(cx->dev);
	if (nin < 2)
		v_skip("fewer than two inputs: no driver-made range change to provoke");
	uint32_t orig = 0;
	expect_ok(dev_ioctl(cx->dev, VIDIOC_G_INPUT, &orig), "VIDIOC_G_INPUT");
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	bool have_fmt = dev_can_capture(cx->dev) && dev_ioctl(cx->dev, VIDIOC_G_FMT, &fmt) == 0;
	size_t n = cx->model->n;
	struct qsave *q0 = calloc(n, sizeof(*q0)), *q1 = calloc(n, sizeof(*q1)), *q2 = calloc(n, sizeof(*q2));
	uint32_t bad = 0;
	ck_assert_msg(ev_subscribe_model(cx->dev, cx->model, 0, &bad) == 0, "SUBSCRIBE to control 0x%08x failed", bad);
	char msg[1500] = "";
	int probs = 0, changes = 0, switched = 0;
	for (uint32_t in = 0; in < (uint32_t)nin && !probs; in++) {
		if (in == orig)
			continue;
		ev_drain(cx->dev, NULL, 0);
		query_all(cx, q0);
		uint32_t i = in;
		if (dev_ioctl(cx->dev, VIDIOC_S_INPUT, &i))
			continue;
		switched++;
		query_all(cx, q1);
		char when[32];
		snprintf(when, sizeof(when), "input %u:", in);
		probs += announced(cx, q0, q1, when, msg, sizeof(msg), &changes);
		i = orig;
		int e = dev_ioctl(cx->dev, VIDIOC_S_INPUT, &i);
		if (e) {
			snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), "; cannot switch back to input %u: %s", orig,
				 errno_name(e));
			probs++;
			break;
		}
		query_all(cx, q2);
		snprintf(when, sizeof(when), "back to input %u:", orig);
		probs += announced(cx, q1, q2, when, msg, sizeof(msg), &changes);
	}
	if (have_fmt)
		dev_ioctl(cx->dev, VIDIOC_S_FMT, &fmt);
	free(q0);
	free(q1);
	free(q2);
	if (!switched)
		v_skip("S_INPUT refused every other input");
	if (probs)
		ck_abort_msg("expected an event for every range, flag or dimension change made by the driver, got %d missing: %s (EV-7, EV-5)",
			     probs, msg);
	if (!changes)
		v_skip("switching inputs changed no control's range, flags or dimensions");
	v_info("%d control changes on S_INPUT, each announced", changes);
}
