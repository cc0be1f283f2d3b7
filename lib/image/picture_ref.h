/* The picture as evidence that the hardware uses the control values (issue
 * 13, LC-2..LC-4): the image controls the probes can judge set to moderate
 * non-default values, a reference frame at them and one at the defaults,
 * the noise tolerance, and the comparison of a later frame. For checks that
 * run inside a test process: failures to capture end the check
 * (ck_abort), a scene that cannot show the effect skips it (v_skip). */
#ifndef V4L2C_PICTURE_REF_H
#define V4L2C_PICTURE_REF_H
#include "image/capture.h"
#include "ctrl/ctrl_model.h"
#include "image/lifecycle.h"
#include "image/profile.h"
#include "image/stats.h"

/* Stream on d's node (a handle of its own) at the board profile's size and
 * rate, 2 buffers; closed at exit if the check ends while streaming. */
void pic_stream_on(struct capture *cap, const struct dev *d);
void pic_stream_off(struct capture *cap);
void pic_next(struct capture *cap, struct frame *f);

struct pic {
	const struct dev *dev;		/* where the controls are set (the check's handle) */
	const struct ctrl_model *model;
	const struct profile *prof;
	struct capture cap;
	struct roi roi;
	struct lc_watch img;		/* image controls, v[]: moderate non-default values */
	int64_t defv[LC_MAX_WATCH];	/* their defaults */
	struct frame dflt, ref, f;	/* at the defaults, at the values, scratch */
	double tol;			/* frame difference that is noise */
};

/* The board profile's scene, then the image controls the probes judge (not
 * 'no-effect' in the profile), each a quarter of the way from its default
 * to the far end (booleans: the other value). Skips when there is none. */
void pic_begin(struct pic *p, const struct dev *d, const struct ctrl_model *m);
void pic_end(struct pic *p);
/* Set every image control to v[i] (S_CTRL path of ctrl_set_scalar). */
void pic_set(struct pic *p, const int64_t *v, const char *what);
/* The first frame made after the last change. */
void pic_settle(struct pic *p, struct frame *f);
double pic_diff(const struct pic *p, const struct frame *a, const struct frame *b);
/* While streaming: dflt at the defaults, ref at the values, tol from the
 * next frame; skip when the values do not change the region. Leaves the
 * controls at the values. */
void pic_reference(struct pic *p);
/* Is f the reference picture? want: "the picture with brightness = 96, ...
 * (frame difference <= 0.50)"; got: "58.99 (0.00 from the picture at the
 * default values: the hardware lost the values?)". */
bool pic_matches_ref(const struct pic *p, const struct frame *f, double *d, char *want, size_t wlen, char *got,
		     size_t glen);
#endif
