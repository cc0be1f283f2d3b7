/* The control model and the controls whose ioctls hang (see ctrl_hang.h). */
#include "ctrl/ctrl_hang.h"
#include "ctrl/ctrl_type.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hang_learn_model(const struct ctrl_model *m)
{
	for (size_t i = 0; i < hang_count(); i++) {
		struct hang *h = hang_at(i);
		if (!h->id)
			continue;
		const struct ctrl *c = model_find(m, h->id);
		if (c) {
			if (!h->name[0])
				snprintf(h->name, sizeof(h->name), "%.31s", c->q.name);
			h->compound = ctrl_is_compound(&c->q);
		}
		h->prev_plain = h->prev_compound = 0;
		for (size_t k = 0; k < m->n; k++) {
			const struct ctrl *o = &m->c[k];
			uint32_t *prev = ctrl_is_compound(&o->q) ? &h->prev_compound : &h->prev_plain;
			if (o->q.id < h->id && o->q.id > *prev)
				*prev = o->q.id;
		}
		h->order_known = true;
	}
}

uint32_t model_next_id(const struct ctrl_model *m, uint32_t from, uint32_t next)
{
	uint32_t best = 0;
	from &= V4L2_CTRL_ID_MASK;
	for (size_t k = 0; k < m->n; k++) {
		const struct ctrl *c = &m->c[k];
		bool cmpd = ctrl_is_compound(&c->q);
		if (!(next & (cmpd ? V4L2_CTRL_FLAG_NEXT_COMPOUND : V4L2_CTRL_FLAG_NEXT_CTRL)))
			continue;
		if (c->q.id > from && (!best || c->q.id < best))
			best = c->q.id;
	}
	return best;
}

/* A stable partition: the controls that answer first, in their order, the
 * hung ones after m->n (model_find still finds them: a check that looks for
 * an id the device does not have must not take a hung control for one).
 * The snapshot follows the same order and keeps every entry: a hidden
 * control whose values still answer is still put back before each check. */
void model_drop_hung(struct ctrl_model *m, struct snapshot *s)
{
	size_t total = m->n + m->n_hidden, k = 0;
	if (!hang_count() || !total)
		return;
	bool with_s = s && s->n == total;
	struct ctrl *c = malloc(total * sizeof(*c));
	struct ctrl_val *v = with_s ? malloc(total * sizeof(*v)) : NULL;
	bool *saved = with_s ? malloc(total * sizeof(*saved)) : NULL;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < total; i++) {
			if ((hang_find(m->c[i].q.id) != NULL) != (pass == 1))
				continue;
			if (with_s) {
				v[k] = s->val[i];
				saved[k] = s->saved[i] && !hang_blocks_values(m->c[i].q.id);
			}
			c[k++] = m->c[i];
		}
	size_t n = 0;
	while (n < total && !hang_find(c[n].q.id))
		n++;
	memcpy(m->c, c, total * sizeof(*c));
	free(c);
	if (with_s) {
		memcpy(s->val, v, total * sizeof(*v));
		memcpy(s->saved, saved, total * sizeof(*saved));
		free(v);
		free(saved);
	}
	m->n = n;
	m->n_hidden = total - n;
	if (hang_find(m->quiet_sentinel))
		m->quiet_sentinel = 0;
}

void snapshot_drop_hung(const struct ctrl_model *m, struct snapshot *s)
{
	for (size_t i = 0; i < s->n && i < m->n + m->n_hidden; i++)
		if (s->saved[i] && hang_blocks_values(m->c[i].q.id))
			s->saved[i] = false;
}
