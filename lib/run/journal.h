/* The restore journal (issue 14): a run killed with SIGKILL cannot restore
 * the device, so before its first write it stores the snapshot durably
 * (fsync'd, at a fixed per-device path under /run beside the device lock, and
 * a copy in the output folder) and deletes it only after the final restore
 * succeeded. A left-over journal is restored by the next run on the device,
 * or by `v4l2-conform --restore -d DEV`.
 *
 * Format, one line each: "v4l2-conform-journal 1", "device PATH", "pid N",
 * then per saved control "ctrl 0xID TYPE v VALUE" (scalars) or
 * "ctrl 0xID TYPE p SIZE HEX" (payloads). */
#ifndef V4L2C_JOURNAL_H
#define V4L2C_JOURNAL_H
#include <stdio.h>
#include "ctrl/ctrl_snapshot.h"

struct journal_entry {
	uint32_t id, type;
	struct ctrl_val val;
};

struct journal {
	char device[256];
	int pid;		/* of the run that wrote it */
	struct journal_entry *e;
	size_t n;
};

/* The journal's fixed path for a device (under /run, see devlock.h). */
int journal_path(const char *device, char *path, size_t len);
/* Write the snapshot's saved controls: to a temporary file, fsync, rename,
 * fsync the folder. 0 or -1 (errno). */
int journal_write(const char *path, const char *device, const struct ctrl_model *m, const struct snapshot *s);
/* Parse a journal; 0, or -1 with a one-line reason in err (malformed, or
 * unreadable: errno ENOENT when there is none). */
int journal_parse(FILE *f, struct journal *j, char *err, size_t errlen);
int journal_read(const char *path, struct journal *j, char *err, size_t errlen);
void journal_free(struct journal *j);
/* Set back every journalled control (matched by id and type in the model)
 * whose value differs. Returns how many still differ (names in report). */
int journal_apply(const struct dev *d, const struct ctrl_model *m, const struct journal *j, char *report,
		  size_t len);

/* The runner's hooks. */
/* A left-over journal of an interrupted run: restore it and say so on
 * stdout. Returns controls still differing (0 also when there was none), -1
 * when the journal is unreadable (said on stderr). *found: there was one. */
int journal_recover(const struct dev *d, const struct ctrl_model *m, const char *device, bool *found);
/* After the snapshot, before the first write: write both journals. */
int journal_save(const char *device, const char *out_dir, const struct ctrl_model *m, const struct snapshot *s);
/* After the final restore succeeded. */
void journal_done(const char *device, const char *out_dir);
/* v4l2-conform --restore: exit status 0 restored (or nothing to restore),
 * 1 controls still differ, 2 the journal is unusable. */
int journal_restore_main(const struct dev *d, const struct ctrl_model *m, const char *device);
#endif
