"""HdrHistogram V2 compressed (base64) -> {bucket index: count}, from the format's
description: shared by the integration tests that check the result file's per-interval
histograms (sqlite_part.sh, sqlite_merge.sh)."""
import base64, struct, zlib


def counts(b64):
    raw = base64.b64decode(b64, validate=True)
    cookie, n = struct.unpack(">iI", raw[:8])
    assert cookie & ~0xF0 == 0x1C849304, hex(cookie)
    inner = zlib.decompress(raw[8 : 8 + n])
    cookie, plen, off, digits, low, high, ratio = struct.unpack(">iiiiqqd", inner[:40])
    assert (cookie & ~0xF0, off, digits, low, high, ratio) == (0x1C849303, 0, 3, 1, 2**42 - 1, 1.0)
    p, end, idx, out = 40, 40 + plen, 0, {}
    while p < end:
        v = shift = 0
        for i in range(9):
            b = inner[p]
            p += 1
            if i == 8:
                v |= b << 56
                break
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        v = (v >> 1) ^ -(v & 1)
        if v < 0:
            idx -= v
        else:
            if v:
                out[idx] = v
            idx += 1
    return out
