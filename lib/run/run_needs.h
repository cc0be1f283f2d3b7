/* What a node lacks of what checks need (enum check_needs in
 * check/registry.h), and the skip reason of the checks that need it. */
#ifndef V4L2C_RUN_NEEDS_H
#define V4L2C_RUN_NEEDS_H
#include "ctrl/ctrl_model.h"
#include "dev/device.h"

/* The NEEDS_* bits this node lacks: only ENOTTY (the ioctl does not exist
 * on the node) takes one away, and a sub-device node is no video node. */
unsigned int run_needs_missing(const struct dev *d, const struct ctrl_model *m);
/* Why the checks that need `needs` (of the `missing` ones) do not run. */
const char *run_needs_reason(unsigned int needs, unsigned int missing);
#endif
