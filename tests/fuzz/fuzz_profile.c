/* libFuzzer target: the board profile reader (lib/image/profile.c). A profile is
 * input from a board's owner; whatever it holds, the reader either accepts it
 * or names the problem, and what it accepted is usable (profile_roi inside
 * the frame). Run by `make fuzz` (tests/fuzz.mk). */
#include "image/profile.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	struct profile p;
	char err[512];
	if (profile_parse(text, "fuzz.profile", &p, err, sizeof(err)) == 0) {
		/* A profile that parsed must give a region inside any frame. */
		static const unsigned sizes[][2] = { { 1, 1 }, { 2, 3 }, { 640, 480 }, { 1920, 1080 }, { 65535, 1 } };
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			struct roi r = profile_roi(&p, sizes[i][0], sizes[i][1]);
			if (r.x + r.w > sizes[i][0] || r.y + r.h > sizes[i][1] || !r.w || !r.h)
				abort();
		}
		profile_is_no_effect(&p, "brightness", 0x00980900);
		profile_is_distinct_items(&p, "test-pattern", 0x009f0903);
	} else if (!err[0] || strchr(err, '\n')) {
		abort();	/* a rejection is one line naming the problem */
	}
	profile_free(&p);
	free(text);
	return 0;
}
