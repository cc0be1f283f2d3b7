/* A sensor sub-device's controls judged on the frames of the capture nodes
 * its source pad reaches (spec SD-6, SD-7): the runner finds the paths and
 * saves the pipeline's state before the checks, the probes run once per
 * capture node (check_ctx.route), and after the checks the state is read
 * back against the one found and set again. */
#ifndef V4L2C_RUN_PIPE_H
#define V4L2C_RUN_PIPE_H
#include <stddef.h>
#include "dev/device.h"
#include "dev/pipeline.h"
#include "check/results.h"

/* For a sub-device node: its media device, whether it is a sensor, the
 * paths to capture nodes, the state they would change. */
void run_pipe_find(const struct dev *d);
size_t run_pipe_count(void);
/* The state found and its media device, for the restore journal; NULL
 * (and *media NULL) when there is no route. */
const struct pipe_saved *run_pipe_saved(const char **media);
const struct pipe_route *run_pipe_route(size_t i);
/* Why there is no route (the skip of the probes on this node). */
const char *run_pipe_why(void);
/* After the checks, run/pipeline-restored (SD-7): the state found set
 * again (what a probe cut short by a failure left is put back too) and
 * read back; the result added to rs (NULL: no route, no check). */
const struct result *run_pipe_restored(struct result_set *rs);
/* After the checks, before run/pipeline-restored: for each route,
 * run/pipeline-streams@CAPTURE (SD-6; a refusal against the documentation
 * fails with MC-3, SD-8 or SD-9): the path's mutable links off and on, a
 * size the sensor must adjust, the formats set along the pipeline and read
 * back, STREAMON on the capture node; each result added to rs and printed. */
void run_pipe_streams(struct result_set *rs, void (*print)(const struct result *));
#endif
