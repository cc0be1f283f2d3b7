/* Control events (spec section 11): subscribe, dequeue and wait, every
 * wait bounded by poll() on POLLPRI alone (EV-10: asking for POLLIN too
 * can start read() emulation on an idle capture node). Handles opened by
 * dev_open() are O_NONBLOCK, so DQEVENT never blocks (EV-9). */
#ifndef V4L2C_EVENTS_H
#define V4L2C_EVENTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ctrl/ctrl_model.h"

/* Waits: long enough for a driver that queues from a worker, short enough
 * that a missing event costs little. Framework drivers queue the event
 * before the ioctl that causes it returns. */
#define EV_WAIT_MS 1000		/* an event that must come */
#define EV_QUIET_MS 50		/* how long "nothing arrives" is watched */

/* VIDIOC_SUBSCRIBE_EVENT for V4L2_EVENT_CTRL; 0 or the errno. */
int ev_subscribe(const struct dev *d, uint32_t id, uint32_t flags);
/* VIDIOC_UNSUBSCRIBE_EVENT of (type, id); type V4L2_EVENT_ALL drops all. */
int ev_unsubscribe(const struct dev *d, uint32_t type, uint32_t id);
/* Subscribe to every control of the model (excluded ones too: subscribing
 * writes nothing). Returns 0 or the first errno (its id in *bad_id). */
int ev_subscribe_model(const struct dev *d, const struct ctrl_model *m, uint32_t flags, uint32_t *bad_id);

/* POLLPRI within timeout_ms? 1 yes, 0 no, or -errno when poll() fails.
 * revents (may be NULL) gets what poll() returned. */
int ev_poll(const struct dev *d, int timeout_ms, short *revents);
/* One DQEVENT: 0, ENOENT when nothing is pending, or the errno. */
int ev_dequeue(const struct dev *d, struct v4l2_event *ev);
/* The next event within timeout_ms: 0, ETIMEDOUT, or the errno. */
int ev_wait(const struct dev *d, int timeout_ms, struct v4l2_event *ev);
/* The next control event for `id` within timeout_ms; events for other ids
 * are counted in *others (may be NULL) and dropped. 0, ETIMEDOUT, errno. */
int ev_wait_id(const struct dev *d, uint32_t id, int timeout_ms, struct v4l2_event *ev, unsigned *others);
/* Dequeue everything pending now (no waiting) into evs (up to max kept,
 * the rest dropped); returns how many were dequeued, or -errno. */
int ev_drain(const struct dev *d, struct v4l2_event *evs, size_t max);

/* "Nothing arrives" on d. A timed wait proves little and costs much; a
 * sentinel proves it in one round trip: events on one handle are queued in
 * the order they happen, so when d, subscribed to the sentinel control,
 * gets the sentinel's change (made through another handle; on an M2M
 * node through d itself, subscribed with ALLOW_FEEDBACK, since another
 * handle is another context) before anything else, nothing else was
 * pending. The sentinel is the model's
 * quiet_sentinel (picked by ev_pick_sentinel before the checks run); when
 * there is none, or the check itself subscribed to it, or it stays silent,
 * a timed wait of EV_QUIET_MS stands in. Returns how many other events
 * arrived (the first in *first, may be NULL), or -errno. The sentinel
 * stays subscribed on d, its events consumed, its value changed: the
 * runner puts it back before the next check. */
int ev_quiet(const struct dev *d, const struct ctrl_model *m, struct v4l2_event *first);
/* Let the device finish what earlier writes started: a camera completes
 * an asynchronous control (a UVC focus motor) by a status interrupt some
 * time after the write returned, and the event it gives then can reach a
 * handle that subscribed after the write. A handle of its own, subscribed
 * to every control, listens until EV_SETTLE_MS pass without an event
 * (at most EV_SETTLE_MAX_MS). Returns how many late events it heard, or
 * -errno. On an M2M node another handle is another context that hears
 * nothing of d's: there it is a plain wait of EV_SETTLE_MS. A check that
 * saw a stray event settles and tries once more: a driver bug repeats,
 * an earlier write's completion does not. */
#define EV_SETTLE_MS 300
#define EV_SETTLE_MAX_MS 3000
int ev_settle(const struct dev *d, const struct ctrl_model *m);
/* Forget what the previous check subscribed to (checks may share a test
 * process): the runner calls it before every check. */
void ev_new_check(void);
/* A control fit to be the sentinel: settable integer or boolean, standard
 * ids first, from the end of the model (checks pick the first controls),
 * and proven on this device: one change through d gives exactly one event,
 * its own, to a handle subscribed to every control (on an M2M node: a new
 * context changes it and hears it with ALLOW_FEEDBACK). Its value is put back.
 * 0 when no control qualifies. */
uint32_t ev_pick_sentinel(const struct dev *d, const struct ctrl_model *m);

/* "ctrl 0x00980900 changes=value|flags value=128 seq=3" for messages. */
const char *ev_str(const struct v4l2_event *ev, char *buf, size_t len);
const char *ev_changes_str(uint32_t changes, char *buf, size_t len);
#endif
