/* The suites compiled into v4l2-conform, in the order they run. */
#include "check/registry.h"

extern const struct suite_def suite_enum, suite_flags, suite_menu, suite_getset, suite_persist;
extern const struct suite_def suite_ext, suite_payload, suite_compound, suite_minmax, suite_events, suite_clusters, suite_prio, suite_concurrency;
extern const struct suite_def suite_request, suite_subdev;
extern const struct suite_def suite_probe, suite_lifecycle, suite_effect, suite_values,
	suite_probe_side;

const struct suite_def *const all_suites[] = {
	&suite_enum,
	&suite_flags,
	&suite_menu,
	&suite_getset,
	&suite_persist,
	&suite_ext,
	&suite_payload,
	&suite_compound,
	&suite_minmax,
	&suite_events,
	&suite_clusters,
	&suite_prio,
	&suite_concurrency,
	&suite_subdev,
	&suite_request,
	&suite_lifecycle,
	&suite_effect,
	&suite_values,
	&suite_probe,
	&suite_probe_side,
};
const size_t n_all_suites = sizeof(all_suites) / sizeof(all_suites[0]);
