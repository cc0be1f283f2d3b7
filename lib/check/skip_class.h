/* Skips as a number that matters (issue 21 item 2): every skip falls in
 * one reason class, counted in results.json ("skips") and in each board's
 * summary line, so that a lab sees what a run did not judge, and why.
 *   excluded         the run's options kept the control out (--exclude-control)
 *   profile          the board profile's choice ('no visible effect', ...)
 *   source-dependent a documented source-dependent control on this source
 *   hang             an ioctl of the control hangs (found earlier in the run)
 *   inconclusive     the picture could not show it (an earned excuse, PB-6)
 *   informational    a measurement with nothing to judge (visible-effect)
 *   device           the device lacks what the check needs (no such control,
 *                    value, format, input, capture, events ...) */
#ifndef V4L2C_SKIP_CLASS_H
#define V4L2C_SKIP_CLASS_H
#include <stddef.h>

enum skip_class { SKIP_EXCLUDED, SKIP_PROFILE, SKIP_SOURCE, SKIP_HANG, SKIP_INCONCLUSIVE, SKIP_INFO, SKIP_DEVICE,
		  SKIP_CLASSES };

/* The class of a skip from its reason (the v_skip message). */
enum skip_class skip_class_of(const char *reason);
const char *skip_class_name(enum skip_class c);
#endif
