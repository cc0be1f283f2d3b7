/* Board profiles: what the frame probes need to know about a board's scene
 * (issue 5). A small `key = value` text file in fixtures/boards/NAME.profile:
 *
 *   # comment (also after a value)
 *   roi = 0.25, 0.25, 0.75, 0.75       region of interest: left, top, right, bottom
 *                                      as fractions of the frame (default: centre patch)
 *   capture-size = 320x180             capture at this size (default: the device's current one)
 *   frame-rate = 25                    capture at this many frames a second (default: the
 *                                      device's current rate; both restored afterwards)
 *   set.osd-text-mode = None           set before every probe (control: slug or 0xID;
 *                                      value: integer or menu item name)
 *   scene.vertical-flip.test-pattern = 3   set only before the probes of vertical-flip
 *   no-effect = gain, volume           known 'no visible effect' controls (repeatable,
 *                                      comma-separated): their probes are not applicable
 *   distinct-items = test-pattern      menus whose every item must give a distinct image
 *   require-effect = gain, exposure-time-absolute   controls whose effect depends on the
 *                                      source (gain, exposure, white balance...) that this
 *                                      board's scene does show: their probes must pass
 *                                      (without it they are skipped, lib/image/probe_judge.h)
 *   max-latency = 8                    frames to wait for an effect beyond the driver's
 *                                      queue (default 8)
 *   suspend-wait = 500                 milliseconds every handle stays closed for the
 *                                      runtime-suspend checks where the device has no
 *                                      power/autosuspend_delay_ms (default 200)
 *
 * Keys are case-sensitive; unknown keys, duplicates of single-valued keys and
 * malformed values are errors (one line: "FILE:LINE: what is wrong"). */
#ifndef V4L2C_PROFILE_H
#define V4L2C_PROFILE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "image/stats.h"

#define PROFILE_NAME_MAX 64
#define PROFILE_DEFAULT_MAX_LATENCY 8
#define PROFILE_DEFAULT_SUSPEND_WAIT_MS 200

struct profile_setting {
	char probe[PROFILE_NAME_MAX];	/* "" for every probe, else the probed control */
	char ctrl[PROFILE_NAME_MAX];	/* slug or 0xID */
	char value[PROFILE_NAME_MAX];	/* integer or menu item name */
	unsigned line;
};

struct profile {
	char path[256];
	bool have_roi;
	struct roi_frac roi;
	unsigned width, height;		/* capture-size, 0: keep */
	unsigned fps;			/* frame-rate, 0: keep */
	unsigned max_latency;		/* frames */
	unsigned suspend_wait_ms;	/* suspend-wait */
	unsigned suspend_wait_line;	/* where it was given, 0: default */
	struct profile_setting *set;
	size_t n_set;
	char (*no_effect)[PROFILE_NAME_MAX];
	size_t n_no_effect;
	char (*distinct)[PROFILE_NAME_MAX];
	size_t n_distinct;
	char (*require_effect)[PROFILE_NAME_MAX];
	size_t n_require_effect;
};

/* Parse profile text (name is used in messages). 0, or -1 with a one-line
 * reason in err. p is initialised by the call; free it with profile_free(). */
int profile_parse(const char *text, const char *name, struct profile *p, char *err, size_t errlen);
/* Read and parse a file. */
int profile_load(const char *path, struct profile *p, char *err, size_t errlen);
/* An empty profile: every default. */
void profile_init(struct profile *p);
void profile_free(struct profile *p);

/* The run's profile, loaded once (path NULL: the defaults). A malformed or
 * unreadable file ends the program: "v4l2-conform: <reason>" on stderr and
 * exit status 2. For the runner (at start-up) and the probe suite. */
const struct profile *profile_load_or_exit(const char *path);

/* Does a profile name (slug such as "horizontal-flip", or "0x00980914")
 * denote this control? */
bool profile_name_matches(const char *name, const char *slug, uint32_t id);
bool profile_is_no_effect(const struct profile *p, const char *slug, uint32_t id);
bool profile_is_distinct_items(const struct profile *p, const char *slug, uint32_t id);
bool profile_requires_effect(const struct profile *p, const char *slug, uint32_t id);
/* The region for a frame of this size: the profile's, or the centre patch. */
struct roi profile_roi(const struct profile *p, unsigned width, unsigned height);
#endif
