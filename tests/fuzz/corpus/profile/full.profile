# vivid
roi = 0.1, 0.2 ,0.9,1   # trailing comment
capture-size=320x180
frame-rate = 25
set.osd-text-mode = None
set.0x00f0f003 = 3
scene.vertical-flip.test-pattern = 3
no-effect = gain, volume
no-effect = mute
distinct-items = test-pattern
max-latency = 12
