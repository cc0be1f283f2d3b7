/* Snapshot/restore of every control a run may change. */
#include "ctrl_snapshot.h"
#include "ctrl_type.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool restorable(const struct ctrl *c)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	/* Volatile values are the hardware's, not ours to put back. */
	return !c->excluded && ctrl_readable(q) && ctrl_writable(q) && !(q->flags & V4L2_CTRL_FLAG_VOLATILE) &&
	       q->type != V4L2_CTRL_TYPE_BUTTON;
}

int snapshot_take(const struct dev *d, const struct ctrl_model *m, struct snapshot *s)
{
	s->n = m->n;
	s->val = calloc(m->n ? m->n : 1, sizeof(*s->val));
	s->saved = calloc(m->n ? m->n : 1, sizeof(*s->saved));
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		if (!restorable(c))
			continue;
		s->saved[i] = ctrl_get(d, c, V4L2_CTRL_WHICH_CUR_VAL, &s->val[i]) == 0;
	}
	return 0;
}

static void append(char *report, size_t len, const char *name)
{
	size_t o = strlen(report);
	if (o + 1 < len)
		snprintf(report + o, len - o, "%s%s", o ? ", " : "", name);
}

int snapshot_diff(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
		  char *report, size_t len)
{
	int n = 0;
	if (len)
		report[0] = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!s->saved[i])
			continue;
		const struct ctrl *c = &m->c[i];
		struct ctrl_val now = { 0 };
		if (ctrl_get(d, c, V4L2_CTRL_WHICH_CUR_VAL, &now) || !ctrl_val_equal(c, &now, &s->val[i])) {
			n++;
			append(report, len, c->slug);
		}
		ctrl_val_free(&now);
	}
	return n;
}

/* x is inactive and the driver refuses writes to it (EACCES, FL-5; uvcvideo
 * does): find the boolean or menu control that activates it, set x while
 * active, put that control back. Only tried after a refusal, so drivers that
 * accept writes to inactive controls never see it. */
static void restore_through_master(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
				   size_t x)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ctrl *c = &m->c[i];
		if (i == x || !s->saved[i] || (c->q.type != V4L2_CTRL_TYPE_BOOLEAN && c->q.type != V4L2_CTRL_TYPE_MENU))
			continue;
		for (int64_t v = c->q.minimum; v <= c->q.maximum; v++) {
			struct ctrl_val mv = { .v = v }, xv;
			if (v == s->val[i].v || !ctrl_value_valid(c, v) || ctrl_set(d, c, &mv))
				continue;
			ctrl_val_copy(&m->c[x], &xv, &s->val[x]);
			int e = ctrl_set(d, &m->c[x], &xv);
			ctrl_val_free(&xv);
			struct ctrl_val back;
			ctrl_val_copy(c, &back, &s->val[i]);
			ctrl_set(d, c, &back);
			ctrl_val_free(&back);
			if (!e)
				return;
		}
	}
}

int snapshot_restore(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
		     char *report, size_t len)
{
	/* Two passes: in an auto cluster the manual control only takes its
	 * value once the auto control is back to manual, whichever comes first. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->n; i++) {
			if (!s->saved[i])
				continue;
			const struct ctrl *c = &m->c[i];
			struct ctrl_val now = { 0 };
			int e = ctrl_get(d, c, V4L2_CTRL_WHICH_CUR_VAL, &now);
			if (e || !ctrl_val_equal(c, &now, &s->val[i])) {
				struct ctrl_val v;
				ctrl_val_copy(c, &v, &s->val[i]);
				if (ctrl_set(d, c, &v) == EACCES && pass == 1)
					restore_through_master(d, m, s, i);
				ctrl_val_free(&v);
			}
			ctrl_val_free(&now);
		}
	return snapshot_diff(d, m, s, report, len);
}

void snapshot_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->n; i++)
		ctrl_val_free(&s->val[i]);
	free(s->val);
	free(s->saved);
	memset(s, 0, sizeof(*s));
}
