/* The media controller graph of a /dev/mediaN node (MEDIA_IOC_DEVICE_INFO,
 * MEDIA_IOC_G_TOPOLOGY): its interface nodes and the entity each one is the
 * interface of, for running the suite on every node of a camera pipeline. */
#ifndef V4L2C_MEDIA_H
#define V4L2C_MEDIA_H
#include <stddef.h>
#include <stdint.h>

struct media_node {
	uint32_t intf_id, intf_type;	/* MEDIA_INTF_T_V4L_VIDEO, _SUBDEV, ... */
	uint32_t major, minor;		/* what the graph says the node is */
	char entity[64];		/* the entity the interface link points at ("" if none) */
	uint32_t entity_function;
	char devnode[128];		/* /dev/NAME from sysfs uevent for major:minor ("" if none) */
	char slug[64];			/* a file-name form of the entity's name: "sensor-a"; of an
					 * interface linked to several entities, of what their names
					 * share ("stateless-decoder-source", "-sink": "stateless-decoder") */
};

struct media_graph {
	char driver[16], model[32], bus_info[32];
	struct media_node *n;
	size_t count;
};

/* Read the graph. 0, or -1 with a one-line reason in err ("/dev/video0: not
 * a media device (MEDIA_IOC_DEVICE_INFO: ...)"). */
int media_graph_read(const char *path, struct media_graph *g, char *err, size_t errlen);
void media_graph_free(struct media_graph *g);
/* The graph of the media device (/dev/media0../dev/media63) that lists the
 * node `path` (by its major:minor) among its interfaces: 0, or -1 when no
 * media device does. */
int media_graph_of_node(const char *path, struct media_graph *g);
/* Does the node agree with the graph? MEDIA_NODE_OK; MEDIA_NODE_MISSING: no
 * node with the interface's major:minor (spec MC-1); MEDIA_NODE_WRONG: the
 * node is not of the interface's kind, or a sub-device node is named other
 * than its entity (MC-2). why says what differs. */
enum media_node_agreement { MEDIA_NODE_OK, MEDIA_NODE_MISSING, MEDIA_NODE_WRONG };
enum media_node_agreement media_node_agrees(const struct media_node *n, char *why, size_t len);
/* Cut name to the whole words it shares at its start with other: of
 * "enc-source" and "enc-sink", "enc-" (not "enc-s"); of names that share no
 * whole word, "". Names an interface linked to several entities. */
void media_name_shared(char *name, const char *other);
/* /dev/NAME of the char device major:minor (sysfs uevent DEVNAME), "" if none. */
void media_devnode_of(uint32_t major, uint32_t minor, char *out, size_t len);
/* "Sensor A" -> "sensor-a": an entity's name as a file name. */
void media_slugify(const char *name, char *out, size_t len);
/* A V4L2 interface the suite can test (video, VBI, radio, SDR, touch, sub-device). */
int media_intf_is_v4l(uint32_t intf_type);
#endif
