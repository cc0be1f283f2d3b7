/* Host unit tests: does a node agree with the media graph (spec MC-1, MC-2;
 * lib/dev/media.c)? /dev/null (1:3) stands in for a node: it exists, but it
 * is no V4L2 node, so the graph's claims about it are tested one by one. */
#include <check.h>
#include "unit.h"
#include <linux/media.h>
#include <stdio.h>
#include <string.h>

#include "dev/media.h"

static char why[512];

static struct media_node node(const char *path, unsigned maj, unsigned min, unsigned type)
{
	struct media_node n;
	memset(&n, 0, sizeof(n));
	snprintf(n.devnode, sizeof(n.devnode), "%s", path);
	n.major = maj;
	n.minor = min;
	n.intf_type = type;
	snprintf(n.entity, sizeof(n.entity), "Sensor A");
	return n;
}

START_TEST(test_missing_devnode_is_mc1)
{
	struct media_node n = node("", 81, 3, MEDIA_INTF_T_V4L_SUBDEV);
	ck_assert_int_eq(media_node_agrees(&n, why, sizeof(why)), MEDIA_NODE_MISSING);
	ck_assert_ptr_nonnull(strstr(why, "no such device in sysfs"));
}
END_TEST

START_TEST(test_other_number_is_mc1)
{
	struct media_node n = node("/dev/null", 1, 4, MEDIA_INTF_T_V4L_VIDEO);
	ck_assert_int_eq(media_node_agrees(&n, why, sizeof(why)), MEDIA_NODE_MISSING);
	ck_assert_ptr_nonnull(strstr(why, "names 1:4"));
}
END_TEST

START_TEST(test_node_of_another_kind_is_mc2)
{
	struct media_node n = node("/dev/null", 1, 3, MEDIA_INTF_T_V4L_SUBDEV);
	ck_assert_int_eq(media_node_agrees(&n, why, sizeof(why)), MEDIA_NODE_WRONG);
	ck_assert_ptr_nonnull(strstr(why, "VIDIOC_SUBDEV_QUERYCAP"));
}
END_TEST

/* An M2M device's interface links to its source and sink entities
 * (v4l2-mem2mem.c: "NAME-source", "NAME-sink"): the node is named NAME. */
START_TEST(test_name_shared_by_several_entities)
{
	char a[64] = "stateless-decoder-source";
	media_name_shared(a, "stateless-decoder-sink");
	ck_assert_str_eq(a, "stateless-decoder-");
	char b[64] = "visl-sink";
	media_name_shared(b, "visl-sink");
	ck_assert_str_eq(b, "visl-sink");
	char c[64] = "sensor";
	media_name_shared(c, "sensors");
	ck_assert_str_eq(c, "");
	char d[64] = "lens";
	media_name_shared(d, "debayer");
	ck_assert_str_eq(d, "");
}
END_TEST

START_TEST(test_v4l_interfaces)
{
	ck_assert(media_intf_is_v4l(MEDIA_INTF_T_V4L_SUBDEV));
	ck_assert(media_intf_is_v4l(MEDIA_INTF_T_V4L_TOUCH));
	ck_assert(!media_intf_is_v4l(MEDIA_INTF_T_DVB_FE));
	ck_assert(!media_intf_is_v4l(MEDIA_INTF_T_ALSA_PCM_CAPTURE));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("media_graph");
	TCase *tc = tcase_create("agreement");
	tcase_add_test(tc, test_missing_devnode_is_mc1);
	tcase_add_test(tc, test_other_number_is_mc1);
	tcase_add_test(tc, test_node_of_another_kind_is_mc2);
	tcase_add_test(tc, test_v4l_interfaces);
	tcase_add_test(tc, test_name_shared_by_several_entities);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
