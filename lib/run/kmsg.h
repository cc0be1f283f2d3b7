/* The kernel's complaints during a run (/dev/kmsg), so that a driver that
 * WARNs or oopses while a check passes is still reported (as IGT does). */
#ifndef V4L2C_KMSG_H
#define V4L2C_KMSG_H
#include <stddef.h>

/* Open /dev/kmsg positioned after the last message; -1 when unavailable
 * (not root, no /dev/kmsg): complaints are then simply not collected. */
int kmsg_open(void);
/* The clock kmsg_read converts record times to: CLOCK_MONOTONIC, seconds. */
double kmsg_clock(void);

struct kmsg_rec;
/* Every new record (all levels), oldest first, with its time on this
 * process's CLOCK_MONOTONIC (kmsg_open calibrates the kernel's clock against
 * it with a debug-level mark). Returns the count; free with kmsg_free. */
size_t kmsg_read(int fd, struct kmsg_rec **out);
void kmsg_free(struct kmsg_rec *r, size_t n);
#endif
