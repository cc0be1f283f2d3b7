#include "image/profile_scene.h"
#include "ctrl/ctrl_value.h"
#include "check/verdict.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct ctrl *find_ctrl(const struct ctrl_model *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (profile_name_matches(name, m->c[i].slug, m->c[i].q.id))
			return &m->c[i];
	return NULL;
}

/* A profile value: an integer, or a menu item by name or slug. */
static bool profile_value(const struct ctrl *c, const char *s, int64_t *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 0);
	if (end != s && !*end && !errno) {
		*v = x;
		return true;
	}
	for (size_t i = 0; i < c->n_menu; i++) {
		char slug[64];
		if (c->menu[i].err)
			continue;
		ctrl_slugify(c->menu[i].name, slug, sizeof(slug));
		if (!strcasecmp(c->menu[i].name, s) || !strcmp(slug, s)) {
			*v = c->menu[i].index;
			return true;
		}
	}
	return false;
}

void profile_apply_scene(const struct dev *d, const struct ctrl_model *m, const struct profile *p,
			 const struct ctrl *probed)
{
	for (size_t i = 0; i < p->n_set; i++) {
		const struct profile_setting *s = &p->set[i];
		if (s->probe[0] && (!probed || !profile_name_matches(s->probe, probed->slug, probed->q.id)))
			continue;
		const struct ctrl *c = find_ctrl(m, s->ctrl);
		if (!c) {
			v_info("profile line %u: no control '%s' on this device (ignored)", s->line, s->ctrl);
			continue;
		}
		int64_t v;
		if (!profile_value(c, s->value, &v)) {
			v_warn("profile line %u: '%s' is not a value of %s (ignored)", s->line, s->value, c->slug);
			continue;
		}
		int e = ctrl_set_scalar(d, c, &v);
		if (e)
			v_warn("profile line %u: setting %s = %s gave %s", s->line, c->slug, s->value, errno_name(e));
	}
}
