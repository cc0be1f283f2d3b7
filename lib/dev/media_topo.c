/* The data graph of a media device and the paths from a sensor to the
 * capture nodes (media_topo.h). media-ioc-g-topology.rst: a data link joins
 * a source pad to a sink pad (MEDIA_LNK_FL_DATA_LINK); interface links join
 * an interface to its entity; ancillary links (6.0+, a lens to its sensor)
 * carry no data and are left out. */
#include "dev/media_topo.h"
#include "dev/device.h"
#include "dev/media.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

const struct topo_entity *topo_entity(const struct topo *t, uint32_t id)
{
	for (size_t i = 0; i < t->ne; i++)
		if (t->e[i].id == id)
			return &t->e[i];
	return NULL;
}

const struct topo_pad *topo_pad(const struct topo *t, uint32_t id)
{
	for (size_t i = 0; i < t->np; i++)
		if (t->p[i].id == id)
			return &t->p[i];
	return NULL;
}

const struct topo_link *topo_link(const struct topo *t, uint32_t id)
{
	for (size_t i = 0; i < t->nl; i++)
		if (t->l[i].id == id)
			return &t->l[i];
	return NULL;
}

const struct topo_entity *topo_entity_of_node(const struct topo *t, uint32_t major, uint32_t minor)
{
	for (size_t i = 0; i < t->ne; i++)
		if (t->e[i].intf_type && t->e[i].major == major && t->e[i].minor == minor)
			return &t->e[i];
	return NULL;
}

static bool has_pad(const struct topo *t, uint32_t entity, uint32_t flag)
{
	for (size_t i = 0; i < t->np; i++)
		if (t->p[i].entity == entity && (t->p[i].flags & flag))
			return true;
	return false;
}

bool topo_is_sensor(const struct topo *t, uint32_t entity)
{
	return has_pad(t, entity, MEDIA_PAD_FL_SOURCE) && !has_pad(t, entity, MEDIA_PAD_FL_SINK);
}

bool topo_is_capture(const struct topo *t, uint32_t entity)
{
	const struct topo_entity *e = topo_entity(t, entity);
	return e && e->intf_type == MEDIA_INTF_T_V4L_VIDEO && has_pad(t, entity, MEDIA_PAD_FL_SINK);
}

void topo_free(struct topo *t)
{
	free(t->e);
	free(t->p);
	free(t->l);
	memset(t, 0, sizeof(*t));
}

int topo_read(const char *media, struct topo *t, char *err, size_t len)
{
	memset(t, 0, sizeof(*t));
	int fd = open(media, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "%s: cannot open: %s", media, strerror(errno));
		return -1;
	}
	struct media_v2_topology q;
	int e = 0;
	for (int tries = 0; tries < 3; tries++) {
		memset(&q, 0, sizeof(q));
		if ((e = xioctl(fd, MEDIA_IOC_G_TOPOLOGY, &q)))
			break;
		uint64_t ver = q.topology_version;
		struct media_v2_entity *ent = calloc(q.num_entities + 1, sizeof(*ent));
		struct media_v2_interface *in = calloc(q.num_interfaces + 1, sizeof(*in));
		struct media_v2_pad *pd = calloc(q.num_pads + 1, sizeof(*pd));
		struct media_v2_link *lk = calloc(q.num_links + 1, sizeof(*lk));
		q.ptr_entities = (uintptr_t)ent;
		q.ptr_interfaces = (uintptr_t)in;
		q.ptr_pads = (uintptr_t)pd;
		q.ptr_links = (uintptr_t)lk;
		e = xioctl(fd, MEDIA_IOC_G_TOPOLOGY, &q);
		if (!e && q.topology_version == ver) {
			t->e = calloc(q.num_entities + 1, sizeof(*t->e));
			t->p = calloc(q.num_pads + 1, sizeof(*t->p));
			t->l = calloc(q.num_links + 1, sizeof(*t->l));
			for (uint32_t i = 0; i < q.num_entities; i++) {
				struct topo_entity *x = &t->e[t->ne++];
				x->id = ent[i].id;
				x->function = ent[i].function;
				copy_cut(x->name, sizeof(x->name), ent[i].name);
			}
			for (uint32_t i = 0; i < q.num_pads; i++)
				t->p[t->np++] = (struct topo_pad){ pd[i].id, pd[i].entity_id, pd[i].index, pd[i].flags };
			for (uint32_t i = 0; i < q.num_links; i++) {
				uint32_t type = lk[i].flags & MEDIA_LNK_FL_LINK_TYPE;
				if (type == MEDIA_LNK_FL_DATA_LINK) {
					t->l[t->nl++] = (struct topo_link){ lk[i].id, lk[i].source_id, lk[i].sink_id,
									    lk[i].flags };
					continue;
				}
				if (type != MEDIA_LNK_FL_INTERFACE_LINK)
					continue;
				for (uint32_t k = 0; k < q.num_interfaces; k++) {
					if (in[k].id != lk[i].source_id)
						continue;
					for (size_t x = 0; x < t->ne; x++)
						if (t->e[x].id == lk[i].sink_id && !t->e[x].intf_type) {
							t->e[x].intf_type = in[k].intf_type;
							t->e[x].major = in[k].devnode.major;
							t->e[x].minor = in[k].devnode.minor;
							media_devnode_of(t->e[x].major, t->e[x].minor, t->e[x].devnode,
									 sizeof(t->e[x].devnode));
						}
				}
			}
		}
		free(ent);
		free(in);
		free(pd);
		free(lk);
		if (e || t->e)
			break;
	}
	close(fd);
	if (e || !t->e) {
		snprintf(err, len, "%s: MEDIA_IOC_G_TOPOLOGY: %s", media, e ? strerror(e) : "the topology kept changing");
		topo_free(t);
		return -1;
	}
	return 0;
}

int topo_find_media(uint32_t major, uint32_t minor, char *media, size_t mlen, struct topo *t, char *err,
		    size_t elen)
{
	snprintf(err, elen, "no /dev/mediaN lists the node %u:%u in its graph", major, minor);
	for (int i = 0; i < 64; i++) {
		char path[32], why[300];
		snprintf(path, sizeof(path), "/dev/media%d", i);
		if (access(path, F_OK))
			continue;
		if (topo_read(path, t, why, sizeof(why)))
			continue;
		if (topo_entity_of_node(t, major, minor)) {
			copy_cut(media, mlen, path);
			return 0;
		}
		topo_free(t);
	}
	return -1;
}

/* ---------- paths ---------- */

#define COST_ENABLE 1000	/* a link to enable weighs more than any number of enabled hops */
#define COST_NONE 0x7fffffff

/* An enabled, immutable link from another source pad holds this sink pad:
 * no other link into it can be enabled. */
static bool sink_held(const struct topo *t, uint32_t sink, uint32_t except)
{
	for (size_t i = 0; i < t->nl; i++)
		if (t->l[i].sink == sink && t->l[i].id != except && (t->l[i].flags & MEDIA_LNK_FL_ENABLED) &&
		    (t->l[i].flags & MEDIA_LNK_FL_IMMUTABLE))
			return true;
	return false;
}

static int link_cost(const struct topo *t, const struct topo_link *l)
{
	if (l->flags & MEDIA_LNK_FL_ENABLED)
		return 1;
	if ((l->flags & MEDIA_LNK_FL_IMMUTABLE) || sink_held(t, l->sink, l->id))
		return COST_NONE;
	return COST_ENABLE;
}

int topo_paths(const struct topo *t, uint32_t from, struct topo_path *out, int max)
{
	int *dist = malloc((t->ne + 1) * sizeof(int));
	size_t *via = malloc((t->ne + 1) * sizeof(size_t));	/* the link into entity i */
	for (size_t i = 0; i < t->ne; i++) {
		dist[i] = t->e[i].id == from ? 0 : COST_NONE;
		via[i] = (size_t)-1;
	}
	/* Bellman-Ford over the entities: the graphs are small, costs positive. */
	for (size_t round = 0; round < t->ne; round++) {
		bool moved = false;
		for (size_t k = 0; k < t->nl; k++) {
			const struct topo_link *l = &t->l[k];
			const struct topo_pad *sp = topo_pad(t, l->source), *kp = topo_pad(t, l->sink);
			if (!sp || !kp || !(sp->flags & MEDIA_PAD_FL_SOURCE) || !(kp->flags & MEDIA_PAD_FL_SINK))
				continue;
			int c = link_cost(t, l);
			size_t a = (size_t)-1, b = (size_t)-1;
			for (size_t i = 0; i < t->ne; i++) {
				if (t->e[i].id == sp->entity)
					a = i;
				if (t->e[i].id == kp->entity)
					b = i;
			}
			if (a == (size_t)-1 || b == (size_t)-1 || c == COST_NONE || dist[a] == COST_NONE ||
			    t->e[b].id == from || (t->e[a].id != from && topo_is_capture(t, t->e[a].id)))
				continue;
			if (dist[a] + c < dist[b]) {
				dist[b] = dist[a] + c;
				via[b] = k;
				moved = true;
			}
		}
		if (!moved)
			break;
	}
	int n = 0;
	for (size_t i = 0; i < t->ne && n < max; i++) {
		if (dist[i] == COST_NONE || t->e[i].id == from || !topo_is_capture(t, t->e[i].id))
			continue;
		struct topo_path *p = &out[n];
		memset(p, 0, sizeof(*p));
		p->capture = t->e[i].id;
		struct topo_hop rev[TOPO_MAX_HOPS];
		int nh = 0;
		size_t at = i;
		while (t->e[at].id != from && nh < TOPO_MAX_HOPS) {
			const struct topo_link *l = &t->l[via[at]];
			rev[nh++] = (struct topo_hop){ l->id, l->source, l->sink };
			uint32_t up = topo_pad(t, l->source)->entity;
			for (at = 0; at < t->ne && t->e[at].id != up; at++)
				;
		}
		if (t->e[at].id != from)
			continue;	/* longer than TOPO_MAX_HOPS */
		for (int h = 0; h < nh; h++) {
			p->hop[h] = rev[nh - 1 - h];
			const struct topo_link *l = topo_link(t, p->hop[h].link);
			if (l->flags & MEDIA_LNK_FL_ENABLED)
				continue;
			p->enable[p->nenable++] = l->id;
			for (size_t k = 0; k < t->nl; k++)
				if (t->l[k].sink == l->sink && t->l[k].id != l->id &&
				    (t->l[k].flags & MEDIA_LNK_FL_ENABLED) && p->ndisable < TOPO_MAX_HOPS)
					p->disable[p->ndisable++] = t->l[k].id;
		}
		p->nhops = nh;
		n++;
	}
	free(dist);
	free(via);
	return n;
}

const char *topo_path_describe(const struct topo *t, const struct topo_path *p, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (int h = 0; h < p->nhops && k < len; h++) {
		const struct topo_pad *s = topo_pad(t, p->hop[h].source), *d = topo_pad(t, p->hop[h].sink);
		const struct topo_entity *a = topo_entity(t, s->entity), *b = topo_entity(t, d->entity);
		const struct topo_link *l = topo_link(t, p->hop[h].link);
		k += (size_t)snprintf(buf + k, len - k, "%s'%s':%u -> '%s':%u%s", h ? ", " : "", a->name, s->index,
				      b->name, d->index, l->flags & MEDIA_LNK_FL_ENABLED ? "" : " (to enable)");
	}
	return buf;
}
