/* The closest valid value of an integer control (LC-6): where the
 * documentation lets a driver "take the closest valid value" instead of
 * returning ERANGE, the value it takes must be that one. Pure, unit-tested
 * (tests/unit/test_closest.c). */
#ifndef V4L2C_CLOSEST_H
#define V4L2C_CLOSEST_H
#include <stdbool.h>
#include <stdint.h>
#include <linux/videodev2.h>

/* The valid values of an INTEGER / INTEGER64 control are min + n * step up
 * to max, and max itself. The nearest to req goes to *a; on a tie (req
 * halfway between two) the lower to *a and the higher to *b, otherwise
 * *b = *a. */
void ctrl_closest_valid(const struct v4l2_query_ext_ctrl *q, int64_t req, int64_t *a, int64_t *b);
/* Did a driver that took req (no ERANGE) take what LC-6 allows: a closest
 * valid value, or what the framework stores (VA-1, lib/ctrl/fw_value.c:
 * 0..255 step 4 takes 256 as 252, the grid value below the off-grid
 * maximum). *framework: got is the framework's value. One rule for every
 * check that predicts a written-back value (issue 21 item 4). */
bool ctrl_closest_taken(const struct v4l2_query_ext_ctrl *q, int64_t req, int64_t got, bool *framework);
#endif
