/* The restore journal (issue 14): a run killed with SIGKILL cannot restore
 * the device, so before its first write it stores the snapshot durably
 * (fsync'd, at a fixed per-device path under /run beside the device lock, and
 * a copy in the output folder) and deletes it only after the final restore
 * succeeded. A left-over journal is restored by the next run on the device,
 * or by `v4l2-conform --restore -d DEV`.
 *
 * Format, one line each: "v4l2-conform-journal 1", "device PATH", "pid N",
 * then per saved control "ctrl 0xID TYPE v VALUE" (scalars) or
 * "ctrl 0xID TYPE p SIZE HEX" (payloads). A sensor sub-device's run (the
 * pipeline its probes change, spec SD-7) adds "media PATH" and the state
 * found: "link 0xID 0|1", "pad 0xID CODE W H FIELD CS ENC QUANT XFER",
 * "cap 0xENTITY W H FOURCC FIELD CS ENC QUANT XFER" (graph ids, which hold
 * while the media device stays registered). */
#ifndef V4L2C_JOURNAL_H
#define V4L2C_JOURNAL_H
#include <stdio.h>
#include "ctrl/ctrl_snapshot.h"
#include "dev/pipeline.h"

struct journal_entry {
	uint32_t id, type;
	struct ctrl_val val;
};

struct journal {
	char device[256];
	int pid;		/* of the run that wrote it */
	struct journal_entry *e;
	size_t n;
	char media[64];			/* the pipeline part: "" and NULL if none */
	struct pipe_saved *pipe;
};

/* The pipeline part of a journal to write: the media device and the state
 * found (run_pipe.c's). */
struct journal_pipe {
	const char *media;
	const struct pipe_saved *saved;
};

/* The journal's fixed path for a device (under /run, see devlock.h). */
int journal_path(const char *device, char *path, size_t len);
/* Write the snapshot's saved controls: to a temporary file, fsync, rename,
 * fsync the folder. 0 or -1 (errno). */
int journal_write(const char *path, const char *device, const struct ctrl_model *m, const struct snapshot *s,
		  const struct journal_pipe *jp);
/* Parse a journal; 0, or -1 with a one-line reason in err (malformed, or
 * unreadable: errno ENOENT when there is none). */
int journal_parse(FILE *f, struct journal *j, char *err, size_t errlen);
int journal_read(const char *path, struct journal *j, char *err, size_t errlen);
void journal_free(struct journal *j);
/* Set back every journalled control (matched by id and type in the model)
 * whose value differs. Returns how many still differ (names in report). */
int journal_apply(const struct dev *d, const struct ctrl_model *m, const struct journal *j, char *report,
		  size_t len);

/* journal_pipe.c, for journal.c: the pipeline part's lines written to f,
 * and one line parsed into j (1: a pipeline line, 0: not one, -1:
 * malformed). */
void journal_pipe_write(FILE *f, const struct journal_pipe *jp);
int journal_pipe_parse(const char *line, struct journal *j);
/* Set the journal's pipeline back through o on the graph t (pipe_restore),
 * and read it back (pipe_verify): 0, or an errno with why. */
int journal_pipe_apply(const struct journal *j, const struct topo *t, const struct pipe_ops *o, char *why,
		       size_t len);
/* A left-over journal's pipeline part, set back on the device once per
 * process (before the run saves the pipeline's state: run_pipe_find(); and
 * from journal_recover()), said on stdout. 0, or -1 when it did not go
 * back (said on stderr). */
int journal_recover_pipeline(const char *device);

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
