/* The data graph of a media device (MEDIA_IOC_G_TOPOLOGY with pads and
 * links) and the paths from a sensor's source pad to the capture nodes it
 * can feed, for judging a sub-device's controls on a capture node's frames
 * (spec SD-6, SD-7). The path finding is pure (a table in, paths out), so
 * the unit tests give it topologies of their own. */
#ifndef V4L2C_MEDIA_TOPO_H
#define V4L2C_MEDIA_TOPO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct topo_entity {
	uint32_t id, function;
	char name[64];
	uint32_t intf_type;		/* of its interface (0: none) */
	uint32_t major, minor;		/* of its interface's node */
	char devnode[128];		/* /dev/NAME from sysfs ("" if none) */
};
struct topo_pad { uint32_t id, entity, index, flags; };	/* MEDIA_PAD_FL_SINK / _SOURCE */
struct topo_link { uint32_t id, source, sink, flags; };	/* data links only: pad ids */

struct topo {
	struct topo_entity *e;
	size_t ne;
	struct topo_pad *p;
	size_t np;
	struct topo_link *l;
	size_t nl;
};

#define TOPO_MAX_HOPS 16
/* One link of a path: from a source pad of one entity to a sink pad of the
 * next (inside an entity the path goes from its sink pad to the source pad
 * of the next hop). */
struct topo_hop { uint32_t link, source, sink; };
struct topo_path {
	uint32_t capture;			/* the capture node's entity */
	struct topo_hop hop[TOPO_MAX_HOPS];
	int nhops;
	uint32_t enable[TOPO_MAX_HOPS];		/* links of the path not enabled now */
	int nenable;
	uint32_t disable[TOPO_MAX_HOPS];	/* enabled links into a sink pad of the path from elsewhere */
	int ndisable;
};

/* Read the data graph; 0, or -1 with a one-line reason. */
int topo_read(const char *media, struct topo *t, char *err, size_t len);
void topo_free(struct topo *t);
const struct topo_entity *topo_entity(const struct topo *t, uint32_t id);
const struct topo_pad *topo_pad(const struct topo *t, uint32_t id);
const struct topo_link *topo_link(const struct topo *t, uint32_t id);
/* The entity whose interface is the node major:minor, or NULL. */
const struct topo_entity *topo_entity_of_node(const struct topo *t, uint32_t major, uint32_t minor);
/* A sensor: an entity with a source pad and no sink pad (the start of a
 * pipeline, dev-subdev.rst's "sensor" of its example pipeline). */
bool topo_is_sensor(const struct topo *t, uint32_t entity);
/* A capture node's entity: its interface is a V4L video node, and data flows
 * into it (a sink pad). */
bool topo_is_capture(const struct topo *t, uint32_t entity);
/* The media device (/dev/mediaN) whose graph lists the node major:minor;
 * 0 with its path and graph, or -1 with why. */
int topo_find_media(uint32_t major, uint32_t minor, char *media, size_t mlen, struct topo *t, char *err,
		    size_t elen);
/* For each capture node reachable from the entity's source pads, the path
 * that needs the fewest links enabled (already-enabled paths first, then
 * the fewest hops), through links that are enabled or can be (not
 * IMMUTABLE and disabled), never through a sink pad held by an immutable
 * enabled link from elsewhere. Returns how many (at most max), in the
 * graph's entity order. */
int topo_paths(const struct topo *t, uint32_t from, struct topo_path *out, int max);
/* "Sensor A:0 -> Debayer A:0, Debayer A:1 -> Scaler:0, ..." */
const char *topo_path_describe(const struct topo *t, const struct topo_path *p, char *buf, size_t len);
#endif
