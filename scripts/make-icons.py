#!/usr/bin/env python3
"""Draws cctv's app icons (www/icons/icon-192.png, icon-512.png): a television in the accent
colour, with room around it for the round masks launchers cut. Standard library only; run it
again after changing the drawing."""

import struct
import zlib
from pathlib import Path

ACCENT = (0xB4, 0x53, 0x1F)
SCREEN = (0xFF, 0xF4, 0xE8)
LINE = (0x1D, 0x21, 0x27)
BACKGROUND = (0xFF, 0xFF, 0xFF)


def pixel(x: float, y: float) -> tuple:
    """The colour at (x, y), both from 0 to 1."""
    def rounded(x0, y0, x1, y1, r):
        cx = min(max(x, x0 + r), x1 - r)
        cy = min(max(y, y0 + r), y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    # Antennas: two lines from the middle of the set's top, spreading upwards.
    for sx in (0.34, 0.66):
        t = (0.30 - y) / (0.30 - 0.12)
        if 0 <= t <= 1 and abs(x - (0.5 + (sx - 0.5) * t)) < 0.018:
            return LINE
    if rounded(0.16, 0.30, 0.84, 0.80, 0.07):
        if rounded(0.22, 0.36, 0.66, 0.74, 0.04):
            # Three lines of a transcript on the screen.
            for i, width in enumerate((0.30, 0.22, 0.34)):
                top = 0.44 + i * 0.09
                if top <= y <= top + 0.035 and 0.27 <= x <= 0.27 + width:
                    return LINE
            return SCREEN
        # Two knobs beside the screen.
        for ky in (0.45, 0.60):
            if (x - 0.75) ** 2 + (y - ky) ** 2 <= 0.035 ** 2:
                return SCREEN
        return ACCENT
    # Two feet.
    if 0.80 <= y <= 0.87 and (0.26 <= x <= 0.34 or 0.66 <= x <= 0.74):
        return LINE
    return BACKGROUND


def png(size: int) -> bytes:
    rows = b"".join(
        b"\0" + bytes(c for x in range(size) for c in pixel((x + 0.5) / size, (y + 0.5) / size))
        for y in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path(__file__).resolve().parent.parent / "www" / "icons"
    out.mkdir(exist_ok=True)
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png(size))
