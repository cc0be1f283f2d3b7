/* Snapshot/restore of every control a run may change. */
#include "ctrl/ctrl_snapshot.h"
#include "ctrl/ctrl_type.h"
#include "dev/hang.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool restorable(const struct ctrl *c)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	/* Volatile values are the hardware's, not ours to put back. */
	/* A control whose get or set hangs (dev/hang.h) is never read again. */
	return !c->excluded && !hang_blocks_values(q->id) && ctrl_readable(q) && ctrl_writable(q) && !(q->flags & V4L2_CTRL_FLAG_VOLATILE) &&
	       q->type != V4L2_CTRL_TYPE_BUTTON;
}

/* Read every saved control with one G_EXT_CTRLS (which = CUR_VAL may mix
 * classes). now[i] is filled for each saved i. Returns 0 or the errno. */
static int read_all(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
		    struct ctrl_val *now)
{
	struct v4l2_ext_control *ec = calloc(s->n ? s->n : 1, sizeof(*ec));
	size_t *idx = calloc(s->n ? s->n : 1, sizeof(*idx)), k = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!s->saved[i])
			continue;
		const struct ctrl *c = &m->c[i];
		ec[k].id = c->q.id;
		if (ctrl_has_payload(&c->q)) {
			ctrl_val_init(c, &now[i]);
			ec[k].size = now[i].size;
			ec[k].ptr = now[i].p;
		}
		idx[k++] = i;
	}
	struct v4l2_ext_controls cs = { .which = V4L2_CTRL_WHICH_CUR_VAL, .count = (uint32_t)k, .controls = ec };
	int e = k ? dev_ioctl(d, VIDIOC_G_EXT_CTRLS, &cs) : 0;
	for (size_t j = 0; !e && j < k; j++) {
		const struct ctrl *c = &m->c[idx[j]];
		struct ctrl_val *v = &now[idx[j]];
		if (ctrl_has_payload(&c->q))
			v->size = ec[j].size;
		else
			v->v = c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? ec[j].value64 : ec[j].value;
	}
	free(ec);
	free(idx);
	return e;
}

static void free_vals(struct ctrl_val *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ctrl_val_free(&v[i]);
	free(v);
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
	struct ctrl_val *now = calloc(s->n ? s->n : 1, sizeof(*now));
	s->bulk_ok = read_all(d, m, s, now) == 0;
	for (size_t i = 0; s->bulk_ok && i < s->n; i++)
		if (s->saved[i] && !ctrl_val_equal(&m->c[i], &now[i], &s->val[i]))
			s->bulk_ok = false;
	free_vals(now, s->n);
	return 0;
}

void (*snapshot_on_moved)(const char *names);

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
	char moved[512] = "";
	if (len)
		report[0] = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!s->saved[i])
			continue;
		const struct ctrl *c = &m->c[i];
		struct ctrl_val now = { 0 };
		int e = ctrl_get(d, c, V4L2_CTRL_WHICH_CUR_VAL, &now);
		if (!e && ctrl_val_equal(c, &now, &s->val[i])) {
			/* unchanged */
		} else if (!e && ctrl_moves_by_itself(d, c)) {
			append(moved, sizeof(moved), c->slug);
		} else {
			n++;
			append(report, len, c->slug);
		}
		ctrl_val_free(&now);
	}
	if (moved[0] && snapshot_on_moved)
		snapshot_on_moved(moved);
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

/* Set back the controls marked in `todo`, per control. Two passes: in an
 * auto cluster the manual control only takes its value once the auto
 * control is back to manual, whichever comes first. */
static void set_back(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s, const bool *todo)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->n; i++) {
			if (!todo[i])
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
}

int snapshot_restore(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
		     char *report, size_t len)
{
	set_back(d, m, s, s->saved);
	return snapshot_diff(d, m, s, report, len);
}

int snapshot_reset(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s)
{
	if (!s->bulk_ok) {
		set_back(d, m, s, s->saved);
		return 0;
	}
	struct ctrl_val *now = calloc(s->n ? s->n : 1, sizeof(*now));
	bool *todo = calloc(s->n ? s->n : 1, sizeof(*todo));
	int total = 0;
	/* A second round only when the first set something: putting one
	 * control back can move another (an auto control and its cluster). */
	for (int round = 0; round < 2; round++) {
		int n = 0;
		if (read_all(d, m, s, now)) {
			memcpy(todo, s->saved, s->n * sizeof(*todo));
			n = (int)s->n;
		} else {
			for (size_t i = 0; i < s->n; i++) {
				todo[i] = s->saved[i] && !ctrl_val_equal(&m->c[i], &now[i], &s->val[i]);
				n += todo[i];
			}
		}
		for (size_t i = 0; i < s->n; i++)
			ctrl_val_free(&now[i]);
		if (!n)
			break;
		set_back(d, m, s, todo);
		total += n;
	}
	free(now);
	free(todo);
	return total;
}

void snapshot_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->n; i++)
		ctrl_val_free(&s->val[i]);
	free(s->val);
	free(s->saved);
	memset(s, 0, sizeof(*s));
}
