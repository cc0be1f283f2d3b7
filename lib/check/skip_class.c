#include "check/skip_class.h"

#include <string.h>

static const char *const names[SKIP_CLASSES] = {
	"excluded", "profile", "source-dependent", "hang", "inconclusive", "informational", "device",
};

const char *skip_class_name(enum skip_class c)
{
	return c < SKIP_CLASSES ? names[c] : "device";
}

/* The words each class's v_skip messages use (suites/, lib/image/); the
 * first match wins, in this order: a probe's reason may carry its capture
 * ("capture YUYV 320x180, mmap x3; informational: ..."). */
enum skip_class skip_class_of(const char *reason)
{
	static const struct { const char *word; enum skip_class c; } words[] = {
		{ "excluded:", SKIP_EXCLUDED },
		{ "depends on the scene", SKIP_SOURCE },	/* its reason names the profile too */
		{ "board profile", SKIP_PROFILE },
		{ "hangs", SKIP_HANG },
		{ "inconclusive", SKIP_INCONCLUSIVE },
		{ "informational", SKIP_INFO },
	};
	if (!reason)
		return SKIP_DEVICE;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(reason, words[i].word))
			return words[i].c;
	return SKIP_DEVICE;
}
