/* The control model: the union of all enumeration methods, each control
 * described by QUERY_EXT_CTRL (or QUERYCTRL on drivers without it), with
 * its menu items. */
#include "ctrl/ctrl_model.h"
#include "ctrl/ctrl_enum.h"
#include "ctrl/ctrl_type.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ctrl_slugify(const char *name, char *out, size_t outlen)
{
	size_t o = 0;
	bool dash = false;
	for (const char *p = name; *p && o + 1 < outlen; p++) {
		unsigned char ch = (unsigned char)*p;
		if (isalnum(ch)) {
			if (dash && o)
				out[o++] = '-';
			if (o + 1 < outlen)
				out[o++] = (char)tolower(ch);
			dash = false;
		} else {
			dash = true;
		}
	}
	out[o] = 0;
	if (!o)
		snprintf(out, outlen, "unnamed");
}

static void describe(const struct dev *d, struct ctrl *c, uint32_t id)
{
	struct v4l2_query_ext_ctrl q = { .id = id };
	memset(&c->q, 0, sizeof(c->q));
	if (dev_ioctl(d, VIDIOC_QUERY_EXT_CTRL, &q) == 0 && q.id == id) {
		c->q = q;
		/* The model's name is a C string whatever the driver sent: every
		 * message prints it with %s. enum/query judges QC-10 (NUL within
		 * 32 bytes) from a query of its own. */
		c->q.name[sizeof(c->q.name) - 1] = 0;
		c->have_qext = true;
		return;
	}
	/* Legacy driver: QUERYCTRL only. */
	struct v4l2_queryctrl qc = { .id = id };
	c->have_qext = false;
	c->q.id = id;
	if (dev_ioctl(d, VIDIOC_QUERYCTRL, &qc) == 0) {
		c->q.type = qc.type;
		memcpy(c->q.name, qc.name, sizeof(qc.name));
		c->q.name[sizeof(qc.name) - 1] = 0;
		c->q.minimum = qc.minimum;
		c->q.maximum = qc.maximum;
		c->q.step = (uint64_t)(uint32_t)qc.step;
		c->q.default_value = qc.default_value;
		c->q.flags = qc.flags;
		c->q.elems = 1;
		c->q.elem_size = qc.type == V4L2_CTRL_TYPE_INTEGER64 ? 8 : 4;
		if (qc.type == V4L2_CTRL_TYPE_STRING)
			c->q.elem_size = (uint32_t)qc.maximum + 1;
	}
}

static void read_menu(const struct dev *d, struct ctrl *c)
{
	free(c->menu);
	c->menu = NULL;
	c->n_menu = 0;
	if (!ctrl_type_is_menu(c->q.type) || c->q.minimum < 0 || c->q.maximum < c->q.minimum ||
	    c->q.maximum - c->q.minimum > 1023)
		return;
	c->n_menu = (size_t)(c->q.maximum - c->q.minimum + 1);
	c->menu = calloc(c->n_menu, sizeof(*c->menu));
	for (size_t i = 0; i < c->n_menu; i++) {
		struct v4l2_querymenu qm = { .id = c->q.id, .index = (uint32_t)(c->q.minimum + (int64_t)i) };
		struct menu_item *it = &c->menu[i];
		it->index = qm.index;
		it->err = dev_ioctl(d, VIDIOC_QUERYMENU, &qm);
		if (!it->err) {
			if (c->q.type == V4L2_CTRL_TYPE_MENU)
				memcpy(it->name, qm.name, sizeof(qm.name));
			else
				it->value = qm.value;
		}
	}
}

void model_refresh(const struct dev *d, struct ctrl *c)
{
	describe(d, c, c->q.id);
}

static struct ctrl *add_id(struct ctrl_model *m, uint32_t id, unsigned method)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->c[i].q.id == id) {
			m->c[i].found_by |= method;
			return &m->c[i];
		}
	m->c = realloc(m->c, (m->n + 1) * sizeof(*m->c));
	struct ctrl *c = &m->c[m->n++];
	memset(c, 0, sizeof(*c));
	c->q.id = id;
	c->found_by = method;
	return c;
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = ((const struct ctrl *)a)->q.id, y = ((const struct ctrl *)b)->q.id;
	return x < y ? -1 : x > y;
}

int model_build(const struct dev *d, struct ctrl_model *m, char *err, size_t errlen)
{
	struct id_list loop, next, ext;
	memset(m, 0, sizeof(*m));
	enum_id_loop(d, &loop);
	enum_next_ctrl(d, &next);
	enum_next_ext(d, V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND, &ext);
	m->qext_works = ext.n > 0 || ext.end_err == EINVAL;
	/* PRIVATE_BASE+n are aliases of controls found elsewhere, except on
	 * old drivers that really number their private controls that way. */
	for (size_t i = 0; i < loop.n; i++)
		if (loop.id[i] < V4L2_CID_PRIVATE_BASE)
			add_id(m, loop.id[i], EM_ID_LOOP);
	for (size_t i = 0; i < next.n; i++)
		add_id(m, next.id[i] & V4L2_CTRL_ID_MASK, EM_NEXT_CTRL);
	for (size_t i = 0; i < ext.n; i++)
		add_id(m, ext.id[i] & V4L2_CTRL_ID_MASK, EM_NEXT_EXT);
	if (loop.n_private && next.n == 0 && ext.n == 0)
		for (size_t i = 0; i < loop.n; i++)
			if (loop.id[i] >= V4L2_CID_PRIVATE_BASE)
				add_id(m, loop.id[i], EM_ID_LOOP);
	id_list_free(&loop);
	id_list_free(&next);
	id_list_free(&ext);
	qsort(m->c, m->n, sizeof(*m->c), by_id);

	/* Describe each control; keep slugs unique (the check names must be). */
	for (size_t i = 0; i < m->n; i++) {
		struct ctrl *c = &m->c[i];
		describe(d, c, c->q.id);
		read_menu(d, c);
		char name[33];
		snprintf(name, sizeof(name), "%.32s", c->q.name);
		ctrl_slugify(name, c->slug, sizeof(c->slug));
		for (size_t j = 0; j < i; j++)
			if (!strcmp(m->c[j].slug, c->slug)) {
				size_t l = strlen(c->slug);
				snprintf(c->slug + (l > 50 ? 50 : l), sizeof(c->slug) - (l > 50 ? 50 : l),
					 "-%x", c->q.id);
				break;
			}
	}
	(void)err; (void)errlen;
	return 0;
}

void model_free(struct ctrl_model *m)
{
	for (size_t i = 0; i < m->n + m->n_hidden; i++)
		free(m->c[i].menu);
	free(m->c);
	memset(m, 0, sizeof(*m));
}

const struct ctrl *model_find(const struct ctrl_model *m, uint32_t id)
{
	for (size_t i = 0; i < m->n + m->n_hidden; i++)
		if (m->c[i].q.id == id)
			return &m->c[i];
	return NULL;
}
