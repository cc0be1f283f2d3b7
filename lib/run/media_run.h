/* v4l2-conform -m /dev/mediaN: the suite on every interface node of a media
 * graph, one results directory per node named by its entity, plus the
 * graph's own checks (every interface is a node that exists, each node is
 * the interface of the entity the graph says; spec MC-1, MC-2). */
#ifndef V4L2C_MEDIA_RUN_H
#define V4L2C_MEDIA_RUN_H
/* argv as given to v4l2-conform; media: the -m argument. Returns the exit
 * status: 0 every node passed, 1 a check failed (on a node or the graph),
 * 2 not a media device / no node could be tested. */
int media_run_main(int argc, char **argv, const char *media);
#endif
