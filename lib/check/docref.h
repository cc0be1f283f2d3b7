/* Where a rule comes from in the kernel's documentation: "v4l/vidioc-g-ctrl.rst:45"
 * (relative to Documentation/userspace-api/media/; "(6.12: N)" when the line
 * moved), from spec/coverage.tsv by tools/docrefs.sh at build time. NULL for
 * rules that no documentation statement cites (the suite's own, e.g. LC-n). */
#ifndef CHECK_DOCREF_H
#define CHECK_DOCREF_H

const char *docref_of(const char *rule);

#endif
