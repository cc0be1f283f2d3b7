/* The media graph. Interfaces are linked to their entity by an interface
 * link (MEDIA_LNK_FL_INTERFACE_LINK, media-ioc-g-topology.rst); the device
 * node of an interface is found through sysfs by its major:minor, as the
 * graph gives no path. */
#include "dev/media.h"
#include "dev/device.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int media_intf_is_v4l(uint32_t t)
{
	switch (t) {
	case MEDIA_INTF_T_V4L_VIDEO: case MEDIA_INTF_T_V4L_VBI: case MEDIA_INTF_T_V4L_RADIO:
	case MEDIA_INTF_T_V4L_SUBDEV: case MEDIA_INTF_T_V4L_SWRADIO: case MEDIA_INTF_T_V4L_TOUCH:
		return 1;
	}
	return 0;
}

/* /dev/NAME of char device major:minor, from its uevent's DEVNAME. */
void media_devnode_of(uint32_t major, uint32_t minor, char *out, size_t len)
{
	char p[96], line[256];
	out[0] = 0;
	snprintf(p, sizeof(p), "/sys/dev/char/%u:%u/uevent", major, minor);
	FILE *f = fopen(p, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = 0;
			char path[300];
			snprintf(path, sizeof(path), "/dev/%s", line + 8);
			copy_cut(out, len, path);
		}
	fclose(f);
}

/* "Sensor A" -> "sensor-a": stable names for results directories. */
void media_slugify(const char *name, char *out, size_t len)
{
	size_t j = 0;
	for (size_t i = 0; name[i] && j + 1 < len; i++) {
		unsigned char ch = (unsigned char)name[i];
		if (isalnum(ch))
			out[j++] = (char)tolower(ch);
		else if (j && out[j - 1] != '-')
			out[j++] = '-';
	}
	while (j && out[j - 1] == '-')
		j--;
	out[j] = 0;
}

void media_name_shared(char *name, const char *other)
{
	size_t k = 0;
	while (name[k] && name[k] == other[k])
		k++;
	if (name[k] || other[k])
		while (k && isalnum((unsigned char)name[k - 1]))
			k--;
	name[k] = 0;
}

int media_graph_read(const char *path, struct media_graph *g, char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	struct media_device_info info;
	memset(&info, 0, sizeof(info));
	int e = xioctl(fd, MEDIA_IOC_DEVICE_INFO, &info);
	if (e) {
		snprintf(err, errlen, "%s: not a media device (MEDIA_IOC_DEVICE_INFO: %s)", path, strerror(e));
		close(fd);
		return -1;
	}
	copy_cut(g->driver, sizeof(g->driver), info.driver);
	copy_cut(g->model, sizeof(g->model), info.model);
	copy_cut(g->bus_info, sizeof(g->bus_info), info.bus_info);
	/* Twice: first the counts, then the arrays (the graph may grow in
	 * between; the version tells, and one retry is enough for a test). */
	struct media_v2_topology t;
	for (int tries = 0; tries < 2; tries++) {
		memset(&t, 0, sizeof(t));
		if ((e = xioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t)))
			break;
		struct media_v2_entity *ent = calloc(t.num_entities + 1, sizeof(*ent));
		struct media_v2_interface *in = calloc(t.num_interfaces + 1, sizeof(*in));
		struct media_v2_link *lk = calloc(t.num_links + 1, sizeof(*lk));
		uint64_t ver = t.topology_version;
		t.ptr_entities = (uintptr_t)ent;
		t.ptr_interfaces = (uintptr_t)in;
		t.ptr_links = (uintptr_t)lk;
		t.ptr_pads = 0;
		e = xioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t);
		if (!e && t.topology_version == ver) {
			g->n = calloc(t.num_interfaces + 1, sizeof(*g->n));
			for (uint32_t i = 0; i < t.num_interfaces; i++) {
				struct media_node *n = &g->n[g->count++];
				n->intf_id = in[i].id;
				n->intf_type = in[i].intf_type;
				n->major = in[i].devnode.major;
				n->minor = in[i].devnode.minor;
				media_devnode_of(n->major, n->minor, n->devnode, sizeof(n->devnode));
				/* name: the linked entity's name; an interface linked to
				 * several entities (a memory-to-memory device's source and
				 * sink, v4l2-mem2mem.c: "NAME-source", "NAME-sink") is named
				 * by what their names share, whatever the link order. */
				char name[64] = "";
				int linked = 0;
				for (uint32_t l = 0; l < t.num_links; l++) {
					if ((lk[l].flags & MEDIA_LNK_FL_LINK_TYPE) != MEDIA_LNK_FL_INTERFACE_LINK ||
					    lk[l].source_id != in[i].id)
						continue;
					for (uint32_t x = 0; x < t.num_entities; x++)
						if (ent[x].id == lk[l].sink_id) {
							if (!linked++) {
								copy_cut(n->entity, sizeof(n->entity), ent[x].name);
								n->entity_function = ent[x].function;
								copy_cut(name, sizeof(name), ent[x].name);
							} else {
								media_name_shared(name, ent[x].name);
							}
						}
				}
				media_slugify(name[0] ? name : n->entity[0] ? n->entity : n->devnode + 5, n->slug,
					sizeof(n->slug));
			}
		}
		free(ent);
		free(in);
		free(lk);
		if (e || g->n)
			break;
	}
	close(fd);
	if (e || !g->n) {
		snprintf(err, errlen, "%s: cannot read the media graph (MEDIA_IOC_G_TOPOLOGY: %s)", path,
			 e ? strerror(e) : "the topology kept changing");
		return -1;
	}
	return 0;
}

void media_graph_free(struct media_graph *g)
{
	free(g->n);
	memset(g, 0, sizeof(*g));
}

int media_graph_of_node(const char *path, struct media_graph *g)
{
	struct stat st;
	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		return -1;
	for (int i = 0; i < 64; i++) {
		char p[32], err[400];
		snprintf(p, sizeof(p), "/dev/media%d", i);
		if (access(p, F_OK) || media_graph_read(p, g, err, sizeof(err)))
			continue;
		for (size_t k = 0; k < g->count; k++)
			if (g->n[k].major == major(st.st_rdev) && g->n[k].minor == minor(st.st_rdev))
				return 0;
		media_graph_free(g);
	}
	return -1;
}

enum media_node_agreement media_node_agrees(const struct media_node *n, char *why, size_t len)
{
	struct stat st;
	why[0] = 0;
	if (!n->devnode[0] || stat(n->devnode, &st) || !S_ISCHR(st.st_mode) || major(st.st_rdev) != n->major ||
	    minor(st.st_rdev) != n->minor) {
		snprintf(why, len, "interface %u (type 0x%08x) of '%s' names %u:%u, but %s", n->intf_id, n->intf_type,
			 n->entity, n->major, n->minor,
			 n->devnode[0] ? "that node is missing or has another number" : "no such device in sysfs");
		return MEDIA_NODE_MISSING;
	}
	struct dev d;
	char err[300];
	if (dev_open(&d, n->devnode, false, err, sizeof(err))) {
		snprintf(why, len, "%s", err);
		return MEDIA_NODE_WRONG;
	}
	bool want_subdev = n->intf_type == MEDIA_INTF_T_V4L_SUBDEV;
	if (want_subdev != dev_is_subdev(&d))
		snprintf(why, len, "the graph says interface type 0x%08x (%s), the node is a %s", n->intf_type,
			 want_subdev ? "a sub-device" : "not a sub-device", dev_kind_name(&d));
	else if (!n->entity[0])
		snprintf(why, len, "the graph links interface %u to no entity", n->intf_id);
	else if (dev_is_subdev(&d) && d.cap.card[0] && strcmp(n->entity, (const char *)d.cap.card))
		snprintf(why, len, "the graph links it to entity '%s', the node is named '%s'", n->entity,
			 (const char *)d.cap.card);
	dev_close(&d);
	return why[0] ? MEDIA_NODE_WRONG : MEDIA_NODE_OK;
}
