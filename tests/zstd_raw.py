"""Compressed raw files (docs/format.md, "Compressed raw files"), read by the tests independently
of provio's tools: the file is split into zstd frames by their headers (RFC 8878, section 3.1),
and the frames written whole are decompressed with the zstd command.

    frames, cut = zstd_raw.split(data)   # [(offset, frame bytes)], offset of a cut last frame or None
    text, cut = zstd_raw.complete_text(path)

Tests reading raw files themselves find and read plain and compressed ones alike (zstd is the
default, PROVIO_COMPRESS=none writes plain "*.ttl"):

    for path in zstd_raw.raw_files(prov_dir):   # "*.ttl" and "*.ttl.zst", sorted; recursive=True too
        text = zstd_raw.read_text(path)         # str, Turtle
        g = zstd_raw.parse(path)                # rdflib.Graph (or parse(path, g) into g)
"""
import glob
import os
import struct
import subprocess

MAGIC = 0xFD2FB528


def _frame_end(data, pos):
    """End offset of the frame starting at `pos`, or None if the data ends inside it."""
    if pos + 4 > len(data):
        return None
    magic = struct.unpack_from("<I", data, pos)[0]
    if magic & 0xFFFFFFF0 == 0x184D2A50:  # a skippable frame
        if pos + 8 > len(data):
            return None
        end = pos + 8 + struct.unpack_from("<I", data, pos + 4)[0]
        return end if end <= len(data) else None
    if magic != MAGIC:
        raise ValueError("no zstd frame at byte %d" % pos)
    if pos + 5 > len(data):
        return None
    fhd = data[pos + 4]
    single = (fhd >> 5) & 1
    fcs = {0: single, 1: 2, 2: 4, 3: 8}[fhd >> 6]
    header = 1 + (0 if single else 1) + {0: 0, 1: 1, 2: 2, 3: 4}[fhd & 3] + fcs
    p = pos + 4 + header
    while True:
        if p + 3 > len(data):
            return None
        b = data[p] | data[p + 1] << 8 | data[p + 2] << 16
        last, kind, size = b & 1, (b >> 1) & 3, b >> 3
        p += 3 + (1 if kind == 1 else size)
        if p > len(data):
            return None
        if last:
            break
    p += 4 if fhd & 4 else 0
    return p if p <= len(data) else None


def split(data):
    frames, pos = [], 0
    while pos < len(data):
        end = _frame_end(data, pos)
        if end is None:
            return frames, pos
        frames.append((pos, data[pos:end]))
        pos = end
    return frames, None


def complete_text(path):
    """The content of the frames of `path` written whole, and the offset of a cut last frame (None
    if the file ends at a frame's end)."""
    with open(path, "rb") as f:
        data = f.read()
    frames, cut = split(data)
    whole = b"".join(frame for _, frame in frames)
    text = subprocess.run(["zstd", "-dcq"], input=whole, stdout=subprocess.PIPE, check=True).stdout if whole else b""
    return text, cut


RAW_SUFFIXES = (".ttl", ".ttl.zst")


def is_raw(name):
    return name.endswith(RAW_SUFFIXES)


def raw_files(directory, recursive=False):
    """The raw files, plain and compressed, in `directory` (and below it if `recursive`), sorted."""
    pattern = os.path.join(directory, "**", "*") if recursive else os.path.join(directory, "*")
    return sorted(p for p in glob.glob(pattern, recursive=recursive) if is_raw(p) and os.path.isfile(p))


def read_bytes(path):
    """The Turtle bytes of a raw file: a plain file as it is, a compressed one's frames written whole."""
    if not path.endswith(".zst"):
        with open(path, "rb") as f:
            return f.read()
    return complete_text(path)[0]


def read_text(path):
    return read_bytes(path).decode("utf-8")


def parse(path, graph=None):
    """`path` parsed as Turtle into `graph` (a new rdflib.Graph if None), which is returned."""
    import rdflib  # here, not above: the byte readers serve scripts that run without rdflib
    g = rdflib.Graph() if graph is None else graph
    g.parse(data=read_bytes(path), format="turtle", publicID=rdflib.URIRef("file://" + os.path.abspath(path)))
    return g
