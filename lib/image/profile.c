/* Board profile parser (see profile.h). */
#include "image/profile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	p->roi = ROI_FRAC_CENTRE;
	p->max_latency = PROFILE_DEFAULT_MAX_LATENCY;
	p->suspend_wait_ms = PROFILE_DEFAULT_SUSPEND_WAIT_MS;
}

void profile_free(struct profile *p)
{
	free(p->set);
	free(p->no_effect);
	free(p->distinct);
	free(p->require_effect);
	profile_init(p);
}

static int perr(char *err, size_t errlen, const char *name, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int perr(char *err, size_t errlen, const char *name, unsigned line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(err, errlen, "%s:%u: %s", name, line, msg);
	else
		snprintf(err, errlen, "%s: %s", name, msg);
	return -1;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

/* A control name: a slug (lower-case letters, digits, '-') or 0xID. */
static bool valid_ctrl_name(const char *s)
{
	if (!*s || strlen(s) >= PROFILE_NAME_MAX)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(s, &end, 16);
		return !*end && end != s + 2 && !errno && v && v <= 0xffffffffUL;
	}
	for (const char *c = s; *c; c++)
		if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '-'))
			return false;
	return true;
}

static bool parse_fraction(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno || !(v >= 0 && v <= 1))
		return false;
	*out = v;
	return true;
}

static bool parse_uint(const char *s, unsigned long max, unsigned *out)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || errno || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

/* Append the comma-separated control names of value to a name list. */
static int add_names(char (**list)[PROFILE_NAME_MAX], size_t *n, char *value, const char *key, const char *name,
		     unsigned line, char *err, size_t errlen)
{
	char *save = NULL;
	int count = 0;
	for (char *t = strtok_r(value, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		t = trim(t);
		if (!valid_ctrl_name(t))
			return perr(err, errlen, name, line, "%s: '%s' is not a control name (a slug such as 'gain' or 0xID)",
				    key, t);
		char (*nl)[PROFILE_NAME_MAX] = realloc(*list, (*n + 1) * sizeof(**list));
		if (!nl)
			return perr(err, errlen, name, line, "out of memory");
		*list = nl;
		snprintf((*list)[(*n)++], PROFILE_NAME_MAX, "%s", t);
		count++;
	}
	if (!count)
		return perr(err, errlen, name, line, "%s needs at least one control name", key);
	return 0;
}

static int add_setting(struct profile *p, const char *probe, const char *ctrl, const char *value, const char *key,
		       const char *name, unsigned line, char *err, size_t errlen)
{
	if (probe && !valid_ctrl_name(probe))
		return perr(err, errlen, name, line, "%s: '%s' is not a control name", key, probe);
	if (!valid_ctrl_name(ctrl))
		return perr(err, errlen, name, line, "%s: '%s' is not a control name (a slug such as 'test-pattern' or 0xID)",
			    key, ctrl);
	if (strlen(value) >= PROFILE_NAME_MAX)
		return perr(err, errlen, name, line, "%s: the value is longer than %d characters", key,
			    PROFILE_NAME_MAX - 1);
	for (size_t i = 0; i < p->n_set; i++)
		if (!strcmp(p->set[i].probe, probe ? probe : "") && !strcmp(p->set[i].ctrl, ctrl))
			return perr(err, errlen, name, line, "%s given twice (first on line %u)", key, p->set[i].line);
	struct profile_setting *ns = realloc(p->set, (p->n_set + 1) * sizeof(*p->set));
	if (!ns)
		return perr(err, errlen, name, line, "out of memory");
	p->set = ns;
	struct profile_setting *s = &p->set[p->n_set++];
	memset(s, 0, sizeof(*s));
	snprintf(s->probe, sizeof(s->probe), "%s", probe ? probe : "");
	snprintf(s->ctrl, sizeof(s->ctrl), "%s", ctrl);
	snprintf(s->value, sizeof(s->value), "%s", value);
	s->line = line;
	return 0;
}

static int parse_line(struct profile *p, char *key, char *value, const char *name, unsigned line,
		      unsigned *seen_roi, unsigned *seen_size, unsigned *seen_fps, unsigned *seen_lat, char *err,
		      size_t errlen)
{
	if (!strcmp(key, "roi")) {
		if (*seen_roi)
			return perr(err, errlen, name, line, "roi given twice (first on line %u)", *seen_roi);
		double f[4];
		int n = 0;
		char *save = NULL;
		for (char *t = strtok_r(value, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (n == 4 || !parse_fraction(trim(t), &f[n]))
				return perr(err, errlen, name, line,
					    "roi needs four fractions 0..1 (left, top, right, bottom)");
			n++;
		}
		if (n != 4)
			return perr(err, errlen, name, line, "roi needs four fractions 0..1 (left, top, right, bottom)");
		if (!(f[2] > f[0] && f[3] > f[1]))
			return perr(err, errlen, name, line, "roi: right must exceed left and bottom must exceed top");
		p->roi = (struct roi_frac){ f[0], f[1], f[2], f[3] };
		p->have_roi = true;
		*seen_roi = line;
		return 0;
	}
	if (!strcmp(key, "capture-size")) {
		if (*seen_size)
			return perr(err, errlen, name, line, "capture-size given twice (first on line %u)", *seen_size);
		char *x = strchr(value, 'x');
		if (!x)
			return perr(err, errlen, name, line, "capture-size needs WIDTHxHEIGHT, e.g. 320x180");
		*x = 0;
		if (!parse_uint(trim(value), 65536, &p->width) || !parse_uint(trim(x + 1), 65536, &p->height) ||
		    !p->width || !p->height)
			return perr(err, errlen, name, line, "capture-size needs WIDTHxHEIGHT, e.g. 320x180");
		*seen_size = line;
		return 0;
	}
	if (!strcmp(key, "frame-rate")) {
		if (*seen_fps)
			return perr(err, errlen, name, line, "frame-rate given twice (first on line %u)", *seen_fps);
		if (!parse_uint(value, 1000, &p->fps) || !p->fps)
			return perr(err, errlen, name, line, "frame-rate needs frames a second (1-1000)");
		*seen_fps = line;
		return 0;
	}
	if (!strcmp(key, "max-latency")) {
		if (*seen_lat)
			return perr(err, errlen, name, line, "max-latency given twice (first on line %u)", *seen_lat);
		if (!parse_uint(value, 1000, &p->max_latency))
			return perr(err, errlen, name, line, "max-latency needs a number of frames (0-1000)");
		*seen_lat = line;
		return 0;
	}
	if (!strcmp(key, "suspend-wait")) {
		if (p->suspend_wait_line)
			return perr(err, errlen, name, line, "suspend-wait given twice (first on line %u)",
				    p->suspend_wait_line);
		if (!parse_uint(value, 60000, &p->suspend_wait_ms))
			return perr(err, errlen, name, line, "suspend-wait needs milliseconds (0-60000)");
		p->suspend_wait_line = line;
		return 0;
	}
	if (!strcmp(key, "no-effect"))
		return add_names(&p->no_effect, &p->n_no_effect, value, key, name, line, err, errlen);
	if (!strcmp(key, "distinct-items"))
		return add_names(&p->distinct, &p->n_distinct, value, key, name, line, err, errlen);
	if (!strcmp(key, "require-effect"))
		return add_names(&p->require_effect, &p->n_require_effect, value, key, name, line, err, errlen);
	if (!strncmp(key, "set.", 4))
		return add_setting(p, NULL, key + 4, value, key, name, line, err, errlen);
	if (!strncmp(key, "scene.", 6)) {
		char probe[PROFILE_NAME_MAX];
		const char *dot = strchr(key + 6, '.');
		if (!dot || (size_t)(dot - (key + 6)) >= sizeof(probe) || dot == key + 6)
			return perr(err, errlen, name, line, "%s: use scene.PROBED-CONTROL.CONTROL = VALUE", key);
		memcpy(probe, key + 6, (size_t)(dot - (key + 6)));
		probe[dot - (key + 6)] = 0;
		return add_setting(p, probe, dot + 1, value, key, name, line, err, errlen);
	}
	return perr(err, errlen, name, line,
		    "unknown key '%s' (roi, capture-size, frame-rate, set.CONTROL, scene.PROBED.CONTROL, no-effect, "
		    "distinct-items, require-effect, max-latency, suspend-wait)",
		    key);
}

int profile_parse(const char *text, const char *name, struct profile *p, char *err, size_t errlen)
{
	profile_init(p);
	snprintf(p->path, sizeof(p->path), "%s", name);
	char *copy = strdup(text);
	if (!copy)
		return perr(err, errlen, name, 0, "out of memory");
	unsigned line = 0, seen_roi = 0, seen_size = 0, seen_fps = 0, seen_lat = 0;
	int rc = 0;
	/* split by hand: strtok would merge empty lines and lose the numbering */
	for (char *l = copy; l && !rc;) {
		char *next = strchr(l, '\n');
		if (next)
			*next++ = 0;
		line++;
		char *hash = strchr(l, '#');
		if (hash)
			*hash = 0;
		char *s = trim(l);
		if (*s) {
			char *eq = strchr(s, '=');
			if (!eq) {
				rc = perr(err, errlen, name, line, "expected KEY = VALUE, got '%.60s'", s);
				break;
			}
			*eq = 0;
			char *key = trim(s), *value = trim(eq + 1);
			if (!*key)
				rc = perr(err, errlen, name, line, "a line with '=' but no key");
			else if (!*value)
				rc = perr(err, errlen, name, line, "%s has no value", key);
			else
				rc = parse_line(p, key, value, name, line, &seen_roi, &seen_size, &seen_fps, &seen_lat, err,
						errlen);
		}
		l = next;
	}
	free(copy);
	if (rc) {
		char keep[sizeof(p->path)];
		snprintf(keep, sizeof(keep), "%s", p->path);
		profile_free(p);
		snprintf(p->path, sizeof(p->path), "%s", keep);
	}
	return rc;
}

int profile_load(const char *path, struct profile *p, char *err, size_t errlen)
{
	profile_init(p);
	FILE *f = fopen(path, "r");
	if (!f)
		return perr(err, errlen, path, 0, "cannot read the profile: %s", strerror(errno));
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int rc = 0;
	for (;;) {
		if (!buf) {
			rc = perr(err, errlen, path, 0, "out of memory");
			break;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
		if (n + 1 == cap) {
			if (cap >= (1u << 20)) {
				rc = perr(err, errlen, path, 0, "larger than 1 MiB: not a profile");
				break;
			}
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	if (!rc && ferror(f))
		rc = perr(err, errlen, path, 0, "read error");
	fclose(f);
	if (!rc) {
		buf[n] = 0;
		if (memchr(buf, 0, n))
			rc = perr(err, errlen, path, 0, "contains NUL bytes: not a text profile");
		else
			rc = profile_parse(buf, path, p, err, errlen);
	}
	free(buf);
	return rc;
}

const struct profile *profile_load_or_exit(const char *path)
{
	static struct profile prof;
	static bool loaded;
	if (loaded)
		return &prof;
	char err[512];
	if (!path)
		profile_init(&prof);
	else if (profile_load(path, &prof, err, sizeof(err))) {
		fprintf(stderr, "v4l2-conform: %s\n", err);
		exit(2);
	}
	loaded = true;
	return &prof;
}

bool profile_name_matches(const char *name, const char *slug, uint32_t id)
{
	if (name[0] == '0' && (name[1] == 'x' || name[1] == 'X'))
		return strtoul(name, NULL, 16) == id;
	return slug && !strcmp(name, slug);
}

bool profile_is_no_effect(const struct profile *p, const char *slug, uint32_t id)
{
	for (size_t i = 0; i < p->n_no_effect; i++)
		if (profile_name_matches(p->no_effect[i], slug, id))
			return true;
	return false;
}

bool profile_is_distinct_items(const struct profile *p, const char *slug, uint32_t id)
{
	for (size_t i = 0; i < p->n_distinct; i++)
		if (profile_name_matches(p->distinct[i], slug, id))
			return true;
	return false;
}

bool profile_requires_effect(const struct profile *p, const char *slug, uint32_t id)
{
	for (size_t i = 0; i < p->n_require_effect; i++)
		if (profile_name_matches(p->require_effect[i], slug, id))
			return true;
	return false;
}

struct roi profile_roi(const struct profile *p, unsigned width, unsigned height)
{
	return roi_from_frac(&p->roi, width, height);
}
