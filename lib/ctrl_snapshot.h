/* Snapshot and restore of every control, so a run leaves the device as it
 * found it even when a check crashes half-way through a change. */
#ifndef V4L2C_CTRL_SNAPSHOT_H
#define V4L2C_CTRL_SNAPSHOT_H
#include "ctrl_value.h"

struct snapshot {
	struct ctrl_val *val;	/* indexed like the model */
	bool *saved;		/* false: not restorable (read-only, write-only, volatile, button) */
	size_t n;
};

int snapshot_take(const struct dev *d, const struct ctrl_model *m, struct snapshot *s);
/* Set back every saved control whose value differs. Returns the number of
 * controls that still differ afterwards (names listed in `report`). */
int snapshot_restore(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
		     char *report, size_t len);
/* Number of saved controls whose current value differs; names in `report`. */
int snapshot_diff(const struct dev *d, const struct ctrl_model *m, const struct snapshot *s,
		  char *report, size_t len);
void snapshot_free(struct snapshot *s);
#endif
