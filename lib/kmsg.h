/* The kernel's complaints during a run (/dev/kmsg), so that a driver that
 * WARNs or oopses while a check passes is still reported (as IGT does). */
#ifndef V4L2C_KMSG_H
#define V4L2C_KMSG_H
#include <stddef.h>

/* Open /dev/kmsg positioned after the last message; -1 when unavailable
 * (not root, no /dev/kmsg): complaints are then simply not collected. */
int kmsg_open(void);
/* Read every new message of level <= max_level (4 = warning) into buf,
 * one per line; returns how many were found. */
int kmsg_collect(int fd, int max_level, char *buf, size_t len);
#endif
