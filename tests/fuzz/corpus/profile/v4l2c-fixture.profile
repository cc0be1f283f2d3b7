# Board profile for the frame probes (suites/suite_probe.c, format in lib/profile.h):
# the v4l2c-fixture driver (fixtures/drivers/v4l2c-fixture, issue 3).
# Its pattern: eight 75% colour bars over the top three quarters, a grey ramp
# over the bottom quarter, no on-screen text. The centre patch would see bars
# only (symmetric top to bottom, no bright ramp): probe the whole frame, so
# that vertical flip and wrap-around at high contrast show.
roi = 0, 0, 1, 1
