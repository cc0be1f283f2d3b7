/* The control model and the controls whose ioctls hang (dev/hang.h): the
 * registry learns their names and where NEXT queries reach them, and a
 * check process leaves them out of its model and snapshot, so that the
 * checks that loop over every control never touch one. */
#ifndef V4L2C_CTRL_HANG_H
#define V4L2C_CTRL_HANG_H
#include "ctrl/ctrl_model.h"
#include "ctrl/ctrl_snapshot.h"
#include "dev/hang.h"

/* Each hung control's name and kind, and the controls before it of each
 * kind (hang_reaches), from the model. */
void hang_learn_model(const struct ctrl_model *m);
/* The control a query from `from` with `next` flags reaches, by the model
 * (0: none): the smallest id above `from` of the kinds the flags take. */
uint32_t model_next_id(const struct ctrl_model *m, uint32_t from, uint32_t next);
/* Leave every hung control out of the loops over m (moved past m->n, where
 * model_find still finds it); s (indexed like m, every entry; may be NULL)
 * follows the new order and forgets the controls whose values hang.
 * Pointers into m->c move, and the per-item lists the model gives change:
 * for the checks of the device as a whole. */
void model_drop_hung(struct ctrl_model *m, struct snapshot *s);
/* The snapshot alone: controls whose get or set hangs are neither read nor
 * set back (the model and its items stay as they are). */
void snapshot_drop_hung(const struct ctrl_model *m, struct snapshot *s);
#endif
