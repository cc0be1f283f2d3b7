/* Snapshot and restore of every control, so a run leaves the device as it
 * found it even when a check crashes half-way through a change. */
#ifndef V4L2C_CTRL_SNAPSHOT_H
#define V4L2C_CTRL_SNAPSHOT_H
#include "ctrl/ctrl_value.h"

struct snapshot {
	struct ctrl_val *val;	/* indexed like the model */
	bool *saved;		/* false: not restorable (read-only, write-only, volatile, button) */
	size_t n;
	/* One G_EXT_CTRLS of every saved control read the same values as a
	 * G_EXT_CTRLS per control when the snapshot was taken: restores may
	 * read them all at once. A driver that mishandles multi-control
	 * requests (a fixture bug, a legacy driver) gets the per-control path. */
	bool bulk_ok;
};

int snapshot_take(const struct dev *d, const struct ctrl_model *m, struct snapshot *s);
/* Set back every saved control whose value differs. Returns the number of
 * controls that still differ afterwards (names listed in `report`). */
int snapshot_restore(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
		     char *report, size_t len);
/* The cheap restore before each check: read every saved control (at once
 * where bulk_ok), set back only what differs, and do not verify. Returns
 * the number of controls it had to set. */
int snapshot_reset(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s);
/* Number of saved controls whose current value differs; names in `report`.
 * A control that differs but is flagged INACTIVE or VOLATILE now is the
 * device's own move (ctrl_moves_by_itself), not counted: snapshot_on_moved
 * (when set; the runner makes it a v_info of the check) gets their names. */
int snapshot_diff(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
		  char *report, size_t len);
void snapshot_free(struct snapshot *s);
extern void (*snapshot_on_moved)(const char *names);
#endif
