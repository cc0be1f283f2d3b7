# Board profile for the frame probes (suites/suite_probe.c, format in lib/profile.h):
# vivid (Linux 6.1), capture node, input 0 (webcam), default format YUYV.
# What vivid draws and how its controls map to pixels: spec section 18.

# The centre patch: away from the on-screen text (top left) even when it is on.
roi = 0.25, 0.25, 0.75, 0.75

# vivid starts at 5 frames a second. 10 at a quarter of the default size
# makes the probes twice as fast and stays well within what the virtual board
# renders: vivid's capture thread warns in the kernel log ("schedule_timeout:
# wrong timeout value") whenever it falls a frame behind, as at 25 fps at
# 640x360 under QEMU TCG, or when the host stalls the guest for longer than a
# frame. Both are restored after each probe.
capture-size = 320x180
frame-rate = 10

# Scene for every probe: no on-screen text (its counters change every frame),
# no scrolling.
set.osd-text-mode = 2            # None
set.horizontal-movement = 3      # No Movement
set.vertical-movement = 3        # No Movement

# The default 75% colour bar is uniform top to bottom: vertical flip needs
# horizontal bars.
scene.vertical-flip.test-pattern = 3   # Horizontal 100% Colorbar

# Every test pattern must look different.
distinct-items = test-pattern

# Controls with no pixel effect on the webcam input (section 18): gain only
# changes the on-screen text, the test controls and audio nothing, alpha only
# alpha formats; the analog/HDMI signal controls act on the other inputs;
# dropped buffers and timestamp/sequence settings change no pixel.
no-effect = gain, volume, mute, alpha-component, apply-alpha-to-red-only
no-effect = boolean, integer-32-bits, integer-64-bits, menu, bitmask, integer-menu
no-effect = rx-rgb-quantization-range, standard-aspect-ratio, dv-timings-aspect-ratio
no-effect = standard-signal-mode, standard, dv-timings-signal-mode, dv-timings, maximum-edid-blocks
no-effect = loop-video, timestamp-source, wrap-sequence-number, wrap-timestamp, reduced-framerate
no-effect = percentage-of-dropped-buffers
