/* One run per device: two runs on one device corrupt each other's verdicts
 * (one restores what the other is testing). An advisory lock (flock) per
 * device under /run/v4l2-conform/, keyed by the device number so that
 * /dev/video0 and a /dev/v4l/by-id/ link to it are the same device. The lock
 * file holds the pid of the run that holds it. */
#ifndef V4L2C_DEVLOCK_H
#define V4L2C_DEVLOCK_H
#include <stdbool.h>
#include <stddef.h>

/* The folder of the lock files: $V4L2C_LOCK_DIR, else /run/v4l2-conform,
 * else (not writable: not root) /tmp/v4l2-conform. */
const char *devlock_dir(void);
/* The lock file of a device, into path. 0, or -1 with a reason in err. */
int devlock_path(const char *device, char *path, size_t len, char *err, size_t errlen);
/* Another per-device file beside it ("char-81-0" + suffix): the journal. */
int devlock_file(const char *device, const char *suffix, char *path, size_t len, char *err, size_t errlen);
/* Take the device's lock. wait: block until the holder ends (a line on
 * stderr says whom it waits for); else fail at once. Returns the lock's file
 * descriptor (keep it open for the run: close-on-exec, but inherited by the
 * forked checks, so the lock lasts while any process of the run lives), or
 * -1 with the reason in err: "device in use by pid N". *holder gets N (0 if
 * unknown) when the device is in use. */
int devlock_acquire(const char *device, bool wait, int *holder, char *err, size_t errlen);
void devlock_release(int fd);
#endif
