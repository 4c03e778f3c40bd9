#!/usr/bin/env python3
"""The parts of an ELF program its start reads, as dd block ranges: the image's read-ahead list.

    preload-ranges.py ROOT PATH...    one line per range: PATH SKIP COUNT (blocks of BLOCK bytes)
    preload-ranges.py --self-test

image/customize.sh writes the kiosk binary's list into the image (/usr/lib/kiosk-image/preload.list);
the initramfs hook kiosk-preload copies it into the initramfs, whose init-bottom script reads those
blocks of the real root's file in the background while systemd starts, so the kiosk's first start
finds them in the page cache (docs/start-up.md, stop 67).

The ranges are the file's loadable segments that are not writable (the ELF and dynamic-linking
headers, the Swift metadata, the unwind tables, the code) and its RELRO segment (the data the
loader relocates): what the loader and the first code touch, read whole. The writable data segment
is left to demand paging: in the kiosk binary it is mostly ICU's data (34 MB of 63 MB), of which a
start reads a few pages. Ranges at most one block apart are merged. Standard library
only; ELF64 and ELF32, either byte order (the amd64 and arm64 images).
"""
import os
import struct
import sys
import tempfile

BLOCK = 65536
PT_LOAD, PT_GNU_RELRO, PF_W = 1, 0x6474E552, 2


def segments(path):
    """(p_type, p_flags, p_offset, p_filesz) of each program header of the ELF file `path`; a
    ValueError naming the file when it is not ELF."""
    with open(path, 'rb') as f:
        ident = f.read(16)
        if len(ident) < 16 or ident[:4] != b'\x7fELF' or ident[4] not in (1, 2) or ident[5] not in (1, 2):
            raise ValueError(f'{path}: not an ELF file')
        wide, order = ident[4] == 2, '<' if ident[5] == 1 else '>'
        header = f.read(48 if wide else 36)
        if wide:
            phoff, = struct.unpack_from(order + 'Q', header, 16)
            phentsize, phnum = struct.unpack_from(order + 'HH', header, 38)
            layout = order + 'IIQQQQQQ'
        else:
            phoff, = struct.unpack_from(order + 'I', header, 12)
            phentsize, phnum = struct.unpack_from(order + 'HH', header, 26)
            layout = order + 'IIIIIIII'
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    if len(table) < phentsize * phnum or phentsize < struct.calcsize(layout):
        raise ValueError(f'{path}: its program headers are cut short')
    out = []
    for i in range(phnum):
        v = struct.unpack_from(layout, table, i * phentsize)
        if wide:
            p_type, p_flags, p_offset, p_filesz = v[0], v[1], v[2], v[5]
        else:
            p_type, p_offset, p_filesz, p_flags = v[0], v[1], v[4], v[6]
        out.append((p_type, p_flags, p_offset, p_filesz))
    return out


def block_ranges(path):
    """[(skip, count)] in BLOCK-byte blocks: the read-only loadable segments and the RELRO one."""
    spans = sorted((off, off + size) for kind, flags, off, size in segments(path)
                   if size and ((kind == PT_LOAD and not flags & PF_W) or kind == PT_GNU_RELRO))
    merged = []
    for start, end in spans:
        start, end = start // BLOCK, -(-end // BLOCK)
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e - s) for s, e in merged]


def elf64(phdrs):
    """A little-endian ELF64 header with the program headers `phdrs` ((type, flags, offset, size))."""
    head = b'\x7fELF' + bytes([2, 1, 1]) + bytes(9)
    head += struct.pack('<HHIQQQIHHHHHH', 3, 62, 1, 0, 64, 0, 0, 64, 56, len(phdrs), 64, 0, 0)
    return head + b''.join(struct.pack('<IIQQQQQQ', t, fl, off, off, off, size, size, 4096) for t, fl, off, size in phdrs)


def self_test():
    """block_ranges on made-up files: the kiosk binary's layout (read-only, code and RELRO merged,
    the large writable segment left out), a big-endian ELF32, and files that are not ELF."""
    failures = []
    MB = 1 << 20
    cases = {
        'the kiosk binary': (elf64([(6, 4, 64, 0x2d8), (PT_LOAD, 4, 0, 0x5129b8), (PT_LOAD, 5, 0x5129c0, 0x12876a0),
                                    (PT_LOAD, 6, 0x179a060, 0xafce0), (PT_LOAD, 6, 0x1849d40, 0x24430c8),
                                    (PT_GNU_RELRO, 4, 0x179a060, 0xafce0)]),
                             [(0, -(-0x1849d40 // BLOCK))]),
        'a gap of blocks between two read-only segments': (elf64([(PT_LOAD, 4, 0, MB), (PT_LOAD, 5, 4 * MB, MB)]),
                                                            [(0, 16), (64, 16)]),
        'only writable segments': (elf64([(PT_LOAD, 6, 0, MB)]), []),
    }
    big32 = b'\x7fELF' + bytes([1, 2, 1]) + bytes(9) + struct.pack('>HHIIIIIHHHHHH', 2, 20, 1, 0, 52, 0, 0, 52, 32, 1, 40, 0, 0)
    big32 += struct.pack('>IIIIIIII', PT_LOAD, 0, 0, 0, 3 * BLOCK + 1, 3 * BLOCK + 1, 5, 4096)
    cases['a big-endian ELF32'] = (big32, [(0, 4)])
    with tempfile.TemporaryDirectory() as d:
        for name, (data, want) in cases.items():
            path = os.path.join(d, 'f')
            open(path, 'wb').write(data)
            got = block_ranges(path)
            if got != want:
                failures.append(f'{name}: {got} instead of {want}')
        for name, data in [('a shell script', b'#!/bin/sh\necho hi\n'), ('an empty file', b''),
                           ('program headers cut short', elf64([(PT_LOAD, 4, 0, MB)])[:100])]:
            path = os.path.join(d, 'f')
            open(path, 'wb').write(data)
            try:
                failures.append(f'{name}: {block_ranges(path)} instead of an error')
            except ValueError as e:
                if path not in str(e):
                    failures.append(f'{name}: the error does not name the file ({e})')
    for f in failures:
        print(f'preload-ranges.py --self-test: {f}', file=sys.stderr)
    print(f'preload-ranges.py --self-test: {"FAILED" if failures else "ok"}')
    return 1 if failures else 0


def main(argv):
    if argv == ['--self-test']:
        return self_test()
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root, paths = argv[0], argv[1:]
    for path in paths:
        try:
            ranges = block_ranges(os.path.join(root, path.lstrip('/')))
        except (OSError, ValueError) as e:
            print(f'preload-ranges.py: {e}', file=sys.stderr)
            return 1
        for skip, count in ranges:
            print(f'{path} {skip} {count}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
