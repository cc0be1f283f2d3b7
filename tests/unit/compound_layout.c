/* Prints every row of the compound payload tables (lib/ctrl/compound.c) with
 * the offsets and sizes the uapi headers it is compiled against give.
 * harness/test_coverage.py compiles it against the headers of each kernel
 * series and against the build's own: the rows must not differ, so the
 * tables the suite was built with hold on both kernels (not a unit test of
 * its own: make unit does not build it). */
#include "ctrl/compound.h"
#include "ctrl/ctrl_type.h"
#include <linux/videodev2.h>
#include <stdio.h>

int main(void)
{
	for (uint32_t t = V4L2_CTRL_COMPOUND_TYPES; t < 0x300; t++) {
		if (ctrl_type_struct_size(t))
			printf("size\t0x%x\t%zu\n", t, ctrl_type_struct_size(t));
		for (size_t i = 0; i < cp_bad_count(t); i++) {
			const struct cp_bad *b = cp_bad_at(t, i);
			printf("bad\t0x%x\t%s\t%u\t%u\t%lld\n", t, b->field, b->off, b->width, (long long)b->value);
		}
		for (size_t i = 0; i < cp_reserved_count(t); i++) {
			const struct cp_reserved *r = cp_reserved_at(t, i);
			printf("reserved\t0x%x\t%s\t%u\t%u\n", t, r->field, r->off, r->len);
		}
		for (size_t i = 0; i < cp_default_count(t); i++) {
			const struct cp_default *d = cp_default_at(t, i);
			printf("default\t0x%x\t%s\t%u\t%u\t%u\t%lld\n", t, d->field, d->off, d->len, d->width,
			       (long long)d->value);
		}
	}
	return 0;
}
