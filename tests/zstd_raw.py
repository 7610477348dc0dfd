"""Compressed raw files (docs/format.md, "Compressed raw files"), read by the tests independently
of provio's tools: the file is split into zstd frames by their headers (RFC 8878, section 3.1),
and the frames written whole are decompressed with the zstd command, each frame's signed :start
values made absolute (docs/format.md, "Signed starts").

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
import re
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


def content_size(frame):
    """The content size a frame's header declares (provio's frames all do), or None."""
    if struct.unpack_from("<I", frame)[0] & 0xFFFFFFF0 == 0x184D2A50:  # a skippable frame
        return 0
    fhd = frame[4]
    single = (fhd >> 5) & 1
    size = {0: single, 1: 2, 2: 4, 3: 8}[fhd >> 6]
    if not size:
        return None
    at = 4 + 1 + (0 if single else 1) + {0: 0, 1: 1, 2: 2, 3: 4}[fhd & 3]
    value = int.from_bytes(frame[at:at + size], "little")
    return value + 256 if size == 2 else value


# A :start predicate and its integer object, signed or not, outside strings (the quotes before it
# on its line are checked apart).
START = re.compile(rb"(?<![^ \t;\n]):start[ \t]+([+-]?)(\d+)(?=[ \t\r\n;,\])]|\.(?!\d)|$)")


def resolve_starts(text):
    """One frame's content with its signed :start values made absolute (docs/format.md, "Signed
    starts"): a signed value counts from the :start before it in the same frame. One with none
    before it is an error here (a writer's bug), not a guess."""
    base = None

    def absolute(m):
        nonlocal base
        line = text[text.rfind(b"\n", 0, m.start()) + 1:m.start()]
        if line.count(b'"') % 2:
            return m.group(0)
        sign, n = m.group(1), int(m.group(2))
        if not sign:
            base = n
            return m.group(0)
        if base is None:
            raise ValueError("signed :start with no :start before it in its frame: %r" % line)
        base = base + n if sign == b"+" else base - n
        return m.group(0)[:m.start(1) - m.start()] + str(base).encode()

    return START.sub(absolute, text)


def complete_text(path):
    """The content of the frames of `path` written whole, each with its :start values resolved, and
    the offset of a cut last frame (None if the file ends at a frame's end)."""
    with open(path, "rb") as f:
        data = f.read()
    frames, cut = split(data)
    whole = b"".join(frame for _, frame in frames)
    text = subprocess.run(["zstd", "-dcq"], input=whole, stdout=subprocess.PIPE, check=True).stdout if whole else b""
    resolved, at = [], 0
    for _, frame in frames:
        size = content_size(frame)
        if size is None:
            raise ValueError("%s: a zstd frame without its content size (not provio's)" % path)
        resolved.append(resolve_starts(text[at:at + size]))
        at += size
    return b"".join(resolved), cut


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
