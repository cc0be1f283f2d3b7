"""Binary PPM/PGM (P6/P5) -> PNG with the standard library only, so that
frames the probes save can be shown in the HTML report."""
import struct
import zlib


def read_pnm(data: bytes):
    """Return (width, height, channels, pixels) of a binary P5/P6 image."""
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    magic, w, h, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    if magic not in (b"P5", b"P6") or maxval > 255:
        raise ValueError("only 8-bit binary P5/P6 images are supported")
    ch = 3 if magic == b"P6" else 1
    pos += 1
    return w, h, ch, data[pos:pos + w * h * ch]


def png_bytes(w, h, ch, pixels, scale_to=None):
    """Encode 8-bit grey or RGB pixels as PNG; scale_to shrinks the width
    (nearest neighbour) for thumbnails."""
    if scale_to and w > scale_to:
        f = w / scale_to
        nw, nh = scale_to, max(1, int(h / f))
        rows = []
        for y in range(nh):
            sy = int(y * f) * w * ch
            row = bytearray()
            for x in range(nw):
                sx = sy + int(x * f) * ch
                row += pixels[sx:sx + ch]
            rows.append(bytes(row))
        w, h = nw, nh
    else:
        rows = [pixels[y * w * ch:(y + 1) * w * ch] for y in range(h)]
    raw = b"".join(b"\x00" + r for r in rows)

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xffffffff)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2 if ch == 3 else 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
