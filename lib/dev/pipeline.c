/* Making a path stream and putting the pipeline back (pipeline.h). What a
 * streaming pipeline needs is the kernel's: dev-subdev.rst "Format
 * Negotiation" -- formats are set hop by hop from the source, "the format
 * on the source pad ... is propagated to the sink pad of the next entity"
 * by the application, and the link validation at STREAMON compares them
 * (EPIPE on a mismatch, vidioc-streamon.rst). */
#include "dev/pipeline.h"
#include "dev/device.h"
#include <errno.h>
#include <linux/media.h>
#include <stdio.h>
#include <string.h>

static const char *pad_name(const struct topo *t, uint32_t pad, char *buf, size_t len)
{
	const struct topo_pad *p = topo_pad(t, pad);
	const struct topo_entity *e = p ? topo_entity(t, p->entity) : NULL;
	snprintf(buf, len, "'%s':%u", e ? e->name : "?", p ? p->index : 0);
	return buf;
}

static const char *link_name(const struct topo *t, uint32_t link, char *buf, size_t len)
{
	const struct topo_link *l = topo_link(t, link);
	char a[96], b[96];
	snprintf(buf, len, "%s -> %s", pad_name(t, l ? l->source : 0, a, sizeof(a)),
		 pad_name(t, l ? l->sink : 0, b, sizeof(b)));
	return buf;
}

static void add_pad(struct pipe_saved *s, uint32_t pad)
{
	for (int i = 0; i < s->npads; i++)
		if (s->pad[i] == pad)
			return;
	if (s->npads < PIPE_MAX)
		s->pad[s->npads++] = pad;
}

int pipe_save(const struct topo *t, const struct topo_path *paths, int n, const struct pipe_ops *o,
	      struct pipe_saved *s, char *why, size_t len)
{
	memset(s, 0, sizeof(*s));
	char nm[200];
	/* every link that can change: a path's enabling may disable another */
	for (size_t i = 0; i < t->nl && s->nlinks < PIPE_MAX; i++) {
		if (t->l[i].flags & MEDIA_LNK_FL_IMMUTABLE)
			continue;
		bool on = false;
		int e = o->link_enabled(o->ctx, t->l[i].id, &on);
		if (e) {
			snprintf(why, len, "reading link %s: %s", link_name(t, t->l[i].id, nm, sizeof(nm)), errno_name(e));
			return e;
		}
		s->link[s->nlinks] = t->l[i].id;
		s->on[s->nlinks++] = on;
	}
	/* Every pad and capture node downstream of the sensor over any data
	 * link, breadth first, each entity's sink pads before its source pads
	 * (the order a restore sets them in): setting up one path sets the
	 * formats of the whole connected pipeline. */
	uint32_t queue[PIPE_MAX];
	int head = 0, tail = 0;
	if (n && paths[0].nhops)
		queue[tail++] = topo_pad(t, paths[0].hop[0].source)->entity;
	while (head < tail) {
		uint32_t ent = queue[head++];
		const struct topo_entity *te = topo_entity(t, ent);
		if (topo_is_capture(t, ent)) {
			if (s->ncaps < 8)
				s->cap[s->ncaps++] = ent;
			continue;
		}
		for (int sink = 1; sink >= 0; sink--)
			for (size_t i = 0; i < t->np && te && te->devnode[0]; i++)
				if (t->p[i].entity == ent && (t->p[i].flags & (sink ? MEDIA_PAD_FL_SINK : MEDIA_PAD_FL_SOURCE)))
					add_pad(s, t->p[i].id);
		for (size_t k = 0; k < t->nl; k++) {
			const struct topo_pad *sp = topo_pad(t, t->l[k].source), *kp = topo_pad(t, t->l[k].sink);
			if (!sp || !kp || sp->entity != ent)
				continue;
			bool seen = false;
			for (int i = 0; i < tail; i++)
				seen |= queue[i] == kp->entity;
			if (!seen && tail < PIPE_MAX)
				queue[tail++] = kp->entity;
		}
	}
	for (int i = 0; i < s->npads; i++) {
		int e = o->get_fmt(o->ctx, s->pad[i], &s->fmt[i]);
		if (e) {
			snprintf(why, len, "VIDIOC_SUBDEV_G_FMT on %s: %s", pad_name(t, s->pad[i], nm, sizeof(nm)),
				 errno_name(e));
			return e;
		}
	}
	for (int k = 0; k < s->ncaps; k++) {
		int e = o->cap_get(o->ctx, s->cap[k], &s->pix[k]);
		if (e) {
			snprintf(why, len, "VIDIOC_G_FMT on '%s': %s", topo_entity(t, s->cap[k])->name, errno_name(e));
			return e;
		}
	}
	return 0;
}

/* Set link l on or off unless it already is (it was read at save or just set). */
static int set_link(const struct topo *t, const struct pipe_ops *o, uint32_t id, bool on, char *why, size_t len)
{
	bool now = false;
	int e = o->link_enabled(o->ctx, id, &now);
	if (!e && now == on)
		return 0;
	const struct topo_link *l = topo_link(t, id);
	e = l ? o->setup_link(o->ctx, l, on) : ENOENT;
	if (e) {
		char nm[200];
		snprintf(why, len, "%s link %s (MEDIA_IOC_SETUP_LINK): %s", on ? "enabling" : "disabling",
			 link_name(t, id, nm, sizeof(nm)), errno_name(e));
	}
	return e;
}

static bool same_fmt(const struct v4l2_mbus_framefmt *a, const struct v4l2_mbus_framefmt *b)
{
	return a->code == b->code && a->width == b->width && a->height == b->height && a->field == b->field &&
	       a->colorspace == b->colorspace && a->ycbcr_enc == b->ycbcr_enc &&
	       a->quantization == b->quantization && a->xfer_func == b->xfer_func;
}

static bool same_pix(const struct pipe_pix *a, const struct pipe_pix *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Propagate src to the sink pad; where the sink takes another media bus
 * code, try a code the sink enumerates on the source pad (a sensor that
 * outputs RGB feeding a debayer that takes Bayer). */
static int propagate(const struct topo *t, const struct pipe_ops *o, uint32_t source, uint32_t sink,
		     struct v4l2_mbus_framefmt *src, const char **rule, char *why, size_t len)
{
	char a[96], b[96];
	struct v4l2_mbus_framefmt k = *src;
	int e = o->set_fmt(o->ctx, sink, &k);
	if (e) {
		snprintf(why, len, "VIDIOC_SUBDEV_S_FMT on %s: %s", pad_name(t, sink, b, sizeof(b)), errno_name(e));
		if (!pipe_fmt_refusal_allowed(e))
			*rule = "SD-8";
		return e;
	}
	if (k.code == src->code && k.width == src->width && k.height == src->height)
		return 0;
	uint32_t code;
	for (uint32_t i = 0; !o->enum_code(o->ctx, sink, i, &code) && i < 64; i++) {
		struct v4l2_mbus_framefmt s2 = *src;
		s2.code = code;
		if (o->set_fmt(o->ctx, source, &s2) || s2.code != code)
			continue;
		k = s2;
		if (!o->set_fmt(o->ctx, sink, &k) && k.code == s2.code && k.width == s2.width && k.height == s2.height) {
			*src = s2;
			return 0;
		}
	}
	snprintf(why, len, "pad formats: %s gives code 0x%04x %ux%u, %s takes only 0x%04x %ux%u and the source "
		 "pad takes none of the codes the sink enumerates", pad_name(t, source, a, sizeof(a)), src->code,
		 src->width, src->height, pad_name(t, sink, b, sizeof(b)), k.code, k.width, k.height);
	return EPIPE;
}

/* Is link id enabled once the path is set up (the saved state, then the
 * path's changes)? */
static bool on_after(const struct topo *t, const struct pipe_saved *s, const struct topo_path *p, uint32_t id)
{
	for (int i = 0; i < p->nenable; i++)
		if (p->enable[i] == id)
			return true;
	for (int i = 0; i < p->ndisable; i++)
		if (p->disable[i] == id)
			return false;
	for (int i = 0; i < s->nlinks; i++)
		if (s->link[i] == id)
			return s->on[i];
	const struct topo_link *l = topo_link(t, id);
	return l && (l->flags & MEDIA_LNK_FL_ENABLED);
}

/* The capture node behind a source pad's format: the pixel format that
 * stores its media bus code, its size and colorimetry. */
static int set_capture(const struct topo *t, const struct pipe_ops *o, uint32_t entity,
		       const struct v4l2_mbus_framefmt *src, struct pipe_pix *pix, char *why, size_t len)
{
	const char *cn = topo_entity(t, entity)->name;
	uint32_t fourcc = 0;
	int e = o->cap_fourcc(o->ctx, entity, src->code, &fourcc);
	if (e == EOPNOTSUPP) {	/* the video node sets up its pipeline itself: keep its format */
		if ((e = o->cap_get(o->ctx, entity, pix)))
			snprintf(why, len, "VIDIOC_G_FMT on '%s': %s", cn, errno_name(e));
		return e;
	}
	if (e) {
		snprintf(why, len, "'%s' offers no pixel format for media bus code 0x%04x (VIDIOC_ENUM_FMT with "
			 "mbus_code): %s", cn, src->code, errno_name(e));
		return e;
	}
	struct pipe_pix want = { src->width, src->height, fourcc, src->field, src->colorspace, src->ycbcr_enc,
				 src->quantization, src->xfer_func };
	*pix = want;
	if ((e = o->cap_set(o->ctx, entity, pix))) {
		snprintf(why, len, "VIDIOC_S_FMT on '%s': %s", cn, errno_name(e));
		return e;
	}
	if (pix->width != want.width || pix->height != want.height || pix->fourcc != want.fourcc) {
		snprintf(why, len, "VIDIOC_S_FMT on '%s' asked %ux%u fourcc 0x%08x (its source pad's), got %ux%u "
			 "0x%08x", cn, want.width, want.height, want.fourcc, pix->width, pix->height, pix->fourcc);
		return EPIPE;
	}
	return 0;
}

/* The enabled data links downstream of the sensor once the path is set up,
 * in breadth-first order from its entity: each given to visit(), which
 * returns an errno to stop; the sink entity is walked on from unless it is
 * a capture node. */
struct walk {
	const struct topo *t;
	const struct topo_path *p;
	const struct pipe_ops *o;
	const struct pipe_saved *s;
	const char **rule;
	char *why;
	size_t len;
};

static int walk(const struct walk *w, uint32_t from, int (*visit)(const struct walk *w, const struct topo_link *l,
								  void *arg), void *arg)
{
	const struct topo *t = w->t;
	uint32_t queue[PIPE_MAX];
	int head = 0, tail = 0, e;
	queue[tail++] = from;
	while (head < tail) {
		uint32_t ent = queue[head++];
		for (size_t k = 0; k < t->nl; k++) {
			const struct topo_link *l = &t->l[k];
			const struct topo_pad *sp = topo_pad(t, l->source), *kp = topo_pad(t, l->sink);
			if (!sp || !kp || sp->entity != ent || !on_after(t, w->s, w->p, l->id))
				continue;
			if ((e = visit(w, l, arg)))
				return e;
			if (topo_is_capture(t, kp->entity))
				continue;
			bool seen = false;
			for (int i = 0; i < tail; i++)
				seen |= queue[i] == kp->entity;
			if (!seen && tail < PIPE_MAX)
				queue[tail++] = kp->entity;
		}
	}
	return 0;
}

struct conf_arg {
	struct pipe_pix *pix;
	bool moved;
};

/* One link of a configure() pass: its source pad's format on its sink pad,
 * or on the capture node. */
static int conf_link(const struct walk *w, const struct topo_link *l, void *arg)
{
	struct conf_arg *a = arg;
	const struct topo *t = w->t;
	const struct topo_pad *kp = topo_pad(t, l->sink);
	struct v4l2_mbus_framefmt src;
	char nm[96];
	int e = w->o->get_fmt(w->o->ctx, l->source, &src);
	if (e) {
		snprintf(w->why, w->len, "VIDIOC_SUBDEV_G_FMT on %s: %s", pad_name(t, l->source, nm, sizeof(nm)),
			 errno_name(e));
		return e;
	}
	if (topo_is_capture(t, kp->entity)) {
		struct pipe_pix got;
		if ((e = set_capture(t, w->o, kp->entity, &src, &got, w->why, w->len)))
			return e;
		if (kp->entity == w->p->capture)
			*a->pix = got;
		return 0;
	}
	uint32_t code = src.code;
	if ((e = propagate(t, w->o, l->source, l->sink, &src, w->rule, w->why, w->len)))
		return e;
	a->moved |= src.code != code;
	return 0;
}

/* One pass over every enabled data link downstream of the sensor: the
 * whole connected pipeline is validated at STREAMON, not only the path (a
 * sensor feeding both a debayer and a raw capture node must suit both).
 * *moved: a source pad's code was changed to suit its sink, so what was set
 * before it may no longer match. */
static int configure(const struct walk *w, uint32_t from, struct pipe_pix *pix, bool *moved)
{
	struct conf_arg a = { pix, false };
	int e = walk(w, from, conf_link, &a);
	*moved = a.moved;
	return e;
}

int pipe_toggle_links(const struct topo *t, const struct topo_path *p, const struct pipe_ops *o, char *why,
		      size_t len)
{
	for (int i = 0; i < p->nhops; i++) {
		const struct topo_link *l = topo_link(t, p->hop[i].link);
		bool on = false;
		if (!l || (l->flags & MEDIA_LNK_FL_IMMUTABLE) || o->link_enabled(o->ctx, l->id, &on) || !on)
			continue;
		int e = set_link(t, o, l->id, false, why, len);
		if (!e)
			e = set_link(t, o, l->id, true, why, len);
		if (e)
			return e;
	}
	return 0;
}

bool pipe_fmt_refusal_allowed(int e)
{
	/* ENODEV: no answer at all, the suite found no node for the entity
	 * (the graph names a node that does not exist: MC-1's to judge). */
	return e == EBUSY || e == ENOTTY || e == EPERM || e == ENODEV;
}

/* After a pass in which every enabled link downstream of the sensor had
 * S_FMT answer its source pad's format on its sink pad: both ends read back
 * alike (vidioc-subdev-g-fmt.rst: S_FMT returns "the current format as
 * would be returned by a VIDIOC_SUBDEV_G_FMT call"; SD-9). Links into a
 * capture node are the capture format's (set_capture). */
static int read_link(const struct walk *w, const struct topo_link *l, void *arg)
{
	const struct topo *t = w->t;
	struct v4l2_mbus_framefmt x, y;
	char a[96], b[96];
	if (topo_is_capture(t, topo_pad(t, l->sink)->entity))
		return 0;	/* the capture format's (set_capture) */
	if (w->o->get_fmt(w->o->ctx, l->source, &x) || w->o->get_fmt(w->o->ctx, l->sink, &y))
		return 0;	/* the steps before read them: not this check's to judge */
	if (x.code == y.code && x.width == y.width && x.height == y.height)
		return 0;
	snprintf(w->why, w->len, "VIDIOC_SUBDEV_S_FMT on %s answered its source pad's format (code 0x%04x %ux%u), "
		 "VIDIOC_SUBDEV_G_FMT then reads code 0x%04x %ux%u there (%s: code 0x%04x %ux%u)",
		 pad_name(t, l->sink, b, sizeof(b)), x.code, x.width, x.height, y.code, y.width, y.height,
		 pad_name(t, l->source, a, sizeof(a)), x.code, x.width, x.height);
	*w->rule = "SD-9";
	return EIO;
}

/* pipe_restore's work; a refused link is MC-3's, a refused pad format
 * SD-8's (the state set back was the driver's own). */
static int restore(const struct topo *t, const struct pipe_ops *o, const struct pipe_saved *s, const char **rule,
		   char *why, size_t len);

int pipe_setup(const struct topo *t, const struct topo_path *p, const struct pipe_ops *o,
	       const struct pipe_saved *s, unsigned width, unsigned height, struct pipe_pix *pix,
	       const char **rule, char *why, size_t len)
{
	const char *no_rule;
	if (!rule)
		rule = &no_rule;
	*rule = NULL;
	int e = restore(t, o, s, rule, why, len);	/* from the state found, whatever ran before */
	if (e)
		return e;
	/* Links: nothing streams, the links holding the path's sink pads from
	 * elsewhere go first, so media-ioc-setup-link.rst allows no refusal of
	 * a mutable link (topo_paths() never changes an immutable one). */
	for (int i = 0; i < p->ndisable; i++)
		if ((e = set_link(t, o, p->disable[i], false, why, len)))
			return *rule = "MC-3", e;
	for (int i = 0; i < p->nenable; i++)
		if ((e = set_link(t, o, p->enable[i], true, why, len)))
			return *rule = "MC-3", e;
	if (!p->nhops)
		return EINVAL;
	uint32_t from = topo_pad(t, p->hop[0].source)->entity;
	if (width && height) {	/* the size asked for: at the sensor, the rest follows */
		struct v4l2_mbus_framefmt f;
		char nm[96];
		bool set = false;
		if (!(e = o->get_fmt(o->ctx, p->hop[0].source, &f))) {
			f.width = width;
			f.height = height;
			e = o->set_fmt(o->ctx, p->hop[0].source, &f);
			set = true;
		}
		if (e) {
			snprintf(why, len, "VIDIOC_SUBDEV_%s_FMT %ux%u on %s: %s", set ? "S" : "G", width, height,
				 pad_name(t, p->hop[0].source, nm, sizeof(nm)), errno_name(e));
			if (set && !pipe_fmt_refusal_allowed(e))
				*rule = "SD-8";
			return e;
		}
	}
	bool moved = true;
	memset(pix, 0, sizeof(*pix));
	const struct walk w = { t, p, o, s, rule, why, len };
	for (int pass = 0; pass < 3 && moved; pass++)
		if ((e = configure(&w, from, pix, &moved)))
			return e;
	if (moved) {
		snprintf(why, len, "pad formats: the sensor's source format kept changing to suit its sinks");
		return EPIPE;
	}
	return walk(&w, from, read_link, NULL);
}

int pipe_restore(const struct topo *t, const struct pipe_ops *o, const struct pipe_saved *s, char *why,
		 size_t len)
{
	const char *rule;
	return restore(t, o, s, &rule, why, len);
}

static int restore(const struct topo *t, const struct pipe_ops *o, const struct pipe_saved *s, const char **rule,
		   char *why, size_t len)
{
	int first = 0;
	char w[300], nm[96];
	/* off first: a sink pad may take one enabled link only */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < s->nlinks; i++)
			if (s->on[i] == (pass == 1)) {
				int e = set_link(t, o, s->link[i], s->on[i], w, sizeof(w));
				if (e && !first) {
					first = e;
					*rule = "MC-3";
					snprintf(why, len, "%s", w);
				}
			}
	for (int i = 0; i < s->npads; i++) {
		struct v4l2_mbus_framefmt f;
		if (!o->get_fmt(o->ctx, s->pad[i], &f) && same_fmt(&f, &s->fmt[i]))
			continue;
		f = s->fmt[i];
		int e = o->set_fmt(o->ctx, s->pad[i], &f);
		if (e && !first) {
			first = e;
			*rule = pipe_fmt_refusal_allowed(e) ? NULL : "SD-8";
			snprintf(why, len, "VIDIOC_SUBDEV_S_FMT on %s: %s", pad_name(t, s->pad[i], nm, sizeof(nm)),
				 errno_name(e));
		}
	}
	for (int i = 0; i < s->ncaps; i++) {
		struct pipe_pix f;
		if (!o->cap_get(o->ctx, s->cap[i], &f) && same_pix(&f, &s->pix[i]))
			continue;
		f = s->pix[i];
		int e = o->cap_set(o->ctx, s->cap[i], &f);
		if (e && !first) {
			first = e;
			snprintf(why, len, "VIDIOC_S_FMT on '%s': %s", topo_entity(t, s->cap[i])->name, errno_name(e));
		}
	}
	return first;
}

int pipe_verify(const struct topo *t, const struct pipe_ops *o, const struct pipe_saved *s, char *why,
		size_t len)
{
	char nm[200];
	for (int i = 0; i < s->nlinks; i++) {
		bool on = false;
		int e = o->link_enabled(o->ctx, s->link[i], &on);
		if (e || on != s->on[i]) {
			snprintf(why, len, "link %s is %s, was %s", link_name(t, s->link[i], nm, sizeof(nm)),
				 e ? errno_name(e) : on ? "enabled" : "disabled", s->on[i] ? "enabled" : "disabled");
			return -1;
		}
	}
	for (int i = 0; i < s->npads; i++) {
		struct v4l2_mbus_framefmt f;
		int e = o->get_fmt(o->ctx, s->pad[i], &f);
		if (e || !same_fmt(&f, &s->fmt[i])) {
			const struct v4l2_mbus_framefmt *w = &s->fmt[i];
			snprintf(why, len, "pad %s: %s code 0x%04x %ux%u field %u colorspace %u, was 0x%04x %ux%u field %u "
				 "colorspace %u", pad_name(t, s->pad[i], nm, sizeof(nm)), e ? errno_name(e) : "now",
				 f.code, f.width, f.height, f.field, f.colorspace, w->code, w->width, w->height, w->field,
				 w->colorspace);
			return -1;
		}
	}
	for (int i = 0; i < s->ncaps; i++) {
		struct pipe_pix f;
		int e = o->cap_get(o->ctx, s->cap[i], &f);
		if (e || !same_pix(&f, &s->pix[i])) {
			snprintf(why, len, "capture node '%s': %s %ux%u fourcc 0x%08x, was %ux%u 0x%08x",
				 topo_entity(t, s->cap[i])->name, e ? errno_name(e) : "now", f.width, f.height, f.fourcc,
				 s->pix[i].width, s->pix[i].height, s->pix[i].fourcc);
			return -1;
		}
	}
	return 0;
}
