/* What the probes measure once per node and run, and share (issue 24): the
 * latency of a change (frames from the set to the first frame that shows
 * it) and the noise frames of a scene (PROBE_NOISE_FRAMES frames with
 * nothing changing). Every probe runs in a process of its own, so the
 * figures live in files in the run's scratch directory (g_opts.scratch_dir,
 * local storage made fresh for each run and emptied at its end): nothing
 * carries over from one run, one kernel or one device to the next. Without
 * a scratch directory nothing is kept and each probe measures for itself.
 *
 * Noise frames are kept per scene: a probe whose first frame is not the
 * picture of any kept set (frame difference above that set's tolerance: a
 * probe-specific scene, another format) measures its own, and keeps it for
 * the probes after it. The latency is the first one measured on the node:
 * a settle after a change still waits for the picture to hold still
 * (probe_session.c), so a control slower than the one measured costs a
 * frame or two more, never a stale frame. */
#ifndef V4L2C_PROBE_NODE_H
#define V4L2C_PROBE_NODE_H
#include <stdbool.h>
#include "image/frame.h"
#include "image/stats.h"

#define PROBE_NOISE_FRAMES 5	/* frames at one setting for the noise floor */
#define PROBE_NODE_SCENES 8	/* noise sets kept per node */

/* The latency kept for this node: frames, or -1 when none is kept. */
int probe_node_latency(void);
void probe_node_keep_latency(int frames);

/* A kept noise set whose picture is f's (frame difference of f to the set's
 * last frame within the set's own tolerance): fr[] filled (allocated as
 * needed), true. tol_diff: the frame-difference tolerance of a set,
 * JUDGE_HALF_CODE + JUDGE_NOISE_K times its mean consecutive difference. */
bool probe_node_noise(const struct frame *f, const struct roi *r, struct frame fr[PROBE_NOISE_FRAMES]);
void probe_node_keep_noise(const struct frame fr[PROBE_NOISE_FRAMES]);
double probe_node_tol_diff(const struct frame fr[PROBE_NOISE_FRAMES], const struct roi *r);

/* Remove every file kept in dir (the runner, before it removes its scratch
 * directory). */
void probe_node_clear(const char *dir);
#endif
