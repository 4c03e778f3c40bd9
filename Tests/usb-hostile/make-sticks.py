#!/usr/bin/env python3
"""Builds hostile USB sticks for `make hostile-sticks` (docs/usb.md, "Hostile sticks").

usage: make-sticks.py OUT [--quick]

Writes, for every case below, the stick's tree OUT/trees/CASE/ (what its file system holds: a
kiosk-carousel/ folder and sometimes files beside it) and one file system image per type it is
built on, OUT/images/CASE.FS.img (FS: fat32, exfat, ext4), then OUT/manifest.json, one entry per
stick: case, fs, image, tree, group (names, links, size, content, damage, removal), what (one
line), expect (`refused`: the import must refuse it with a located reason; `taken`: the content
is harmless and must be taken whole; `any`: either, cleanly; `ignored`: nothing to read) and
host (true: `usb-import --folder` on the host reads its tree too) and vm (true: run-vm.sh plugs
it).

FAT32 images are made and filled with mtools (no mount, no root), ext4 with `mke2fs -d` (device
nodes, FIFOs, sockets, setuid bits and links come from the tree, made here as root); exFAT
images are made empty (mkfs.exfat) and filled by the VM's guest, whose kernel has the exfat
driver (`fill` in the manifest names the tree to copy in). Damaged images are copies of good ones
cut short or overwritten with seeded random bytes.

--quick: fewer sticks (no 100,000 files, fewer damaged images, one file system for the
removals), and `vm` (the VM plugs it) only on the VM_QUICK set below, the removals included.
"""
import json, os, random, shutil, socket, stat, struct, subprocess, sys, zlib

sys.setrecursionlimit(20000)     # os.walk of the 1,000-deep folders

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(os.path.dirname(here))
media = os.path.join(top, 'config', 'media')
fuzz = os.path.join(top, 'Fuzz', 'corpus')



def damage(path, fs, how, seed):
    """Damages the image at `path` in place: `truncated` keeps its first seed*10 %; `corrupt`
    writes 200 runs of 64 seeded random bytes where the metadata and the first files are."""
    data = bytearray(open(path, 'rb').read())
    if how == 'truncated':
        data = data[:len(data) * seed // 10]
    else:
        r = random.Random(seed)
        start = {'fat32': 16 << 10, 'exfat': 1 << 20, 'ext4': 4096}[fs]
        for _ in range(200):
            at = r.randrange(start, min(len(data), 8 << 20))
            data[at:at + 64] = bytes(r.randrange(256) for _ in range(64))
    with open(path, 'wb') as f:
        f.write(data)


def collide(path, name='collide-b.png', into='COLLIDE-A.PNG'):
    """Renames `name`'s long-name entry in a FAT image to `into` (same length, 13 characters: one
    entry) without the driver's checks: two names of one folder then differ only in case."""
    data = bytearray(open(path, 'rb').read())
    at = [1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30]
    found = 0
    for e in range(0, len(data) - 32, 32):
        if data[e + 11] != 0x0F:
            continue
        if ''.join(chr(data[e + o] | data[e + o + 1] << 8) for o in at) == name:
            for o, c in zip(at, into):
                data[e + o], data[e + o + 1] = ord(c) & 0xFF, ord(c) >> 8
            found += 1
    assert found == 1, '%s: %d entries named %s' % (path, found, name)
    with open(path, 'wb') as f:
        f.write(data)


if sys.argv[1] == '--damage':                   # the guest's exFAT images: filled first, then damaged
    damage(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    sys.exit(0)
out = sys.argv[1]
quick = '--quick' in sys.argv
trees, images = os.path.join(out, 'trees'), os.path.join(out, 'images')
for d in (trees, images):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
manifest = []

BASE = '''[carousel]
type = "linear"
item_size = [240, 180]

[[item]]
id = "dawn"
title = "Dawn"
image = "pictures/dawn.jpg"
'''


def tree(case, config=BASE, pictures=True):
    """A stick's tree with a kiosk-carousel/ folder: config.toml and pictures/dawn.jpg."""
    root = os.path.join(trees, case)
    folder = os.path.join(root, 'kiosk-carousel')
    os.makedirs(os.path.join(folder, 'pictures'))
    if pictures:
        shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, 'pictures', 'dawn.jpg'))
    if config is not None:
        write(os.path.join(folder, 'config.toml'), config)
    return root, folder


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data.encode() if isinstance(data, str) else data)


def item(n, key, value, extra=''):
    return '\n[[item]]\nid = "i%d"\ntitle = "item %d"\n%s = %s\n%s' % (n, n, key, json.dumps(value), extra)


def run(*argv, **kw):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


def tree_bytes(root):
    total = 0
    for d, _, files in os.walk(root):
        for f in files:
            st = os.lstat(os.path.join(d, f))
            if stat.S_ISREG(st.st_mode):
                total += st.st_blocks * 512
    return total


def image(case, fs, root, mib=None):
    """OUT/images/CASE.FS.img holding `root`; its manifest entry (without the case's facts)."""
    path = os.path.join(images, '%s.%s.img' % (case, fs))
    mib = mib or max(40, tree_bytes(root) * 2 // (1 << 20) + 16)
    entry = {'image': path, 'fs': fs, 'tree': root}
    if fs == 'fat32':
        run('mkfs.vfat', '-F', '32', '-C', '-n', 'HOSTILE', path, str(mib * 1024))
        names = sorted(os.listdir(root))
        if names:
            run('mcopy', '-s', '-i', path, *[os.path.join(root, n) for n in names], '::/',
                env=dict(os.environ, LC_ALL='C.UTF-8'))
    elif fs == 'exfat':
        with open(path, 'wb') as f:
            f.truncate(mib << 20)
        run('mkfs.exfat', '-L', 'HOSTILE', path)
        entry['fill'] = root          # the guest copies the tree in (the host kernel has no exfat)
    elif fs == 'ext4':
        with open(path, 'wb') as f:
            f.truncate(mib << 20)
        # inline_data: a small file lives in its inode (100,000 of them fit a small image).
        run('mke2fs', '-q', '-t', 'ext4', '-O', 'inline_data', '-N', str(max(4096, count_files(root) + 1024)),
            '-L', 'HOSTILE', '-d', root, path)
    return entry


def nest(folder, depth):
    """folder/d/d/…/d, depth folders (made one at a time: os.makedirs recurses)."""
    p = folder
    for _ in range(depth):
        p = os.path.join(p, 'd')
        os.mkdir(p)
    return p


def count_files(root):
    return sum(len(f) + len(d) for _, d, f in os.walk(root))


def stick(case, group, what, expect, fss=('fat32', 'exfat', 'ext4'), host=True, root=None, mib=None, **facts):
    if os.environ.get('VERBOSE'):
        print('make-sticks: %s %s' % (case, ' '.join(fss)), flush=True)
    for fs in fss:
        e = image(case, fs, root, mib)
        if facts.get('patch') == 'collide':
            collide(e['image'])
        e.update(case=case, group=group, what=what, expect=expect, host=host and fs == fss[-1], **facts)
        manifest.append(e)


# -- a good stick, the control: it must be taken ------------------------------------------------
root, _ = tree('good')
stick('good', 'control', 'a good stick (one picture)', 'taken', root=root)

# -- names --------------------------------------------------------------------------------------
root, folder = tree('dotdot', BASE + item(2, 'image', '../outside.png') + item(3, 'image', 'pictures/../../../../etc/shadow'))
shutil.copy(os.path.join(media, '06-desert-dunes.png'), os.path.join(root, 'outside.png'))
stick('dotdot', 'names', "'..' components: ../outside.png (a file beside the folder) and pictures/../../../../etc/shadow", 'refused', root=root)

root, _ = tree('absolute', BASE + item(2, 'image', '/etc/shadow') + item(3, 'video', '/proc/self/environ')
               + '\n[items]\ndirectory = "/var/lib/kiosk-carousel"\n')
stick('absolute', 'names', 'absolute paths in config values: /etc/shadow, /proc/self/environ, [items] directory = /var/lib/kiosk-carousel', 'refused', root=root)

slashes = ['a\u2215b.jpg', 'c\uff0fd.jpg', '\u2044frac.jpg', 'x..\u2215..\u2215escape.jpg']
root, folder = tree('unicode-slash', BASE + ''.join(item(n + 2, 'image', 'pictures/' + s) for n, s in enumerate(slashes)))
for s in slashes:
    shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, 'pictures', s))
stick('unicode-slash', 'names', '/-like Unicode in names (U+2215, U+FF0F, U+2044, "x..\u2215..\u2215escape.jpg"): plain names, taken as such', 'taken', root=root)
root, folder = tree('hidden-named', BASE + item(2, 'image', 'pictures/..\u2215..\u2215escape.jpg') + item(3, 'image', '.hidden/a.jpg'))
shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, 'pictures', '..\u2215..\u2215escape.jpg'))
os.makedirs(os.path.join(folder, '.hidden'))
shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, '.hidden', 'a.jpg'))
stick('hidden-named', 'names', 'hidden names (not copied) named by the config: "..\u2215..\u2215escape.jpg", .hidden/a.jpg', 'refused', root=root)

controls = ['new\nline.jpg', 'tab\tname.jpg', 'esc\x1b[31mred.jpg', 'bell\x07.jpg', 'cr\rname.jpg']
root, folder = tree('control-chars', BASE + ''.join(item(n + 2, 'image', 'pictures/' + s) for n, s in enumerate(controls)))
for s in controls:
    shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, 'pictures', s))
stick('control-chars', 'names', 'control characters in names (newline, tab, ESC[31m, BEL, CR), named by the config (FAT and exFAT do not allow them)', 'any', fss=('ext4',), root=root)

root, folder = tree('invalid-utf8')
for raw in (b'caf\xe9.jpg', b'\xff\xfe.jpg', b'half\xe2\x88.jpg'):
    shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder.encode(), b'pictures', raw))
os.makedirs(os.path.join(folder.encode(), b'bad\xc0\xaf'))
write(os.path.join(folder, 'bad\udcc0\udcaf', 'inside.jpg'.encode().decode()), b'x')
stick('invalid-utf8', 'names', 'names that are not UTF-8 (Latin-1 e-acute, 0xFF 0xFE, a cut sequence, an overlong "/" as a folder)', 'any', fss=('ext4',), root=root)

long_ascii = 'l' * 251 + '.jpg'
long_utf8 = '\u00e9' * 125 + '.jpg'              # 254 bytes
root, folder = tree('long-names', BASE + item(2, 'image', 'pictures/' + long_ascii) + item(3, 'image', 'pictures/' + long_utf8))
for s in (long_ascii, long_utf8):
    shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, 'pictures', s))
deep = folder
for n in range(15):                               # 15 folders of 250 bytes: a path longer than PATH_MAX
    deep = os.path.join(deep, '%c' % (97 + n) * 250)
os.makedirs(deep)
write(os.path.join(deep, 'x.txt'), 'deep')
stick('long-names', 'names', '255-byte names (ASCII, and 2-byte UTF-8) and a 3,800-byte path of 250-byte folders', 'any', fss=('ext4',), root=root)
root, folder = tree('long-names-fat', BASE + item(2, 'image', 'pictures/' + long_ascii))
shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, 'pictures', long_ascii))
stick('long-names-fat', 'names', '255-byte names on FAT and exFAT', 'taken', fss=('fat32', 'exfat'), root=root)

root, folder = tree('case-collision', BASE + item(2, 'image', 'pictures/collide-a.png') + item(3, 'image', 'pictures/COLLIDE-A.PNG'))
shutil.copy(os.path.join(media, '06-desert-dunes.png'), os.path.join(folder, 'pictures', 'collide-a.png'))
shutil.copy(os.path.join(media, '07-aurora.png'), os.path.join(folder, 'pictures', 'collide-b.png'))
stick('case-collision', 'names', 'two names that differ only in case on FAT (collide-a.png, COLLIDE-A.PNG: a directory entry patched), both named', 'any', fss=('fat32',), root=root, host=False, patch='collide')
root, folder = tree('case-mismatch', BASE + item(2, 'image', 'Pictures/DUNES.PNG'))
shutil.copy(os.path.join(media, '06-desert-dunes.png'), os.path.join(folder, 'pictures', 'dunes.png'))
stick('case-mismatch', 'names', 'the config names Pictures/DUNES.PNG, the stick has pictures/dunes.png (found on FAT, not on the kiosk\'s ext4)', 'refused', fss=('fat32', 'exfat'), root=root, host=False)

# -- links and special files (ext4) ---------------------------------------------------------------
root, folder = tree('symlinks', BASE + item(2, 'image', 'pictures/shadow.jpg') + item(3, 'image', 'data/usb/current/pictures/dawn.jpg')
                    + item(4, 'image', 'proc/environ') + item(5, 'image', 'loop/x.jpg') + item(6, 'image', 'pictures/inside.jpg'))
os.symlink('/etc/shadow', os.path.join(folder, 'pictures', 'shadow.jpg'))
os.symlink('/var/lib/kiosk-carousel', os.path.join(folder, 'data'))
os.symlink('/proc/self', os.path.join(folder, 'proc'))
os.symlink('loop', os.path.join(folder, 'loop'))
os.symlink('dawn.jpg', os.path.join(folder, 'pictures', 'inside.jpg'))
stick('symlinks', 'links', 'symlinks named by the config: to /etc/shadow, to the data partition, to /proc/self, a loop, one to a picture inside the folder', 'refused', fss=('ext4',), root=root)

root, folder = tree('symlinked-folder', BASE.replace('[[item]]', '[items]\ndirectory = "data"\n\n[[item]]', 1))
os.symlink('/var/lib/kiosk-carousel/usb', os.path.join(folder, 'data'))
stick('symlinked-folder', 'links', '[items] directory is a symlink to the data partition', 'refused', fss=('ext4',), root=root)

root, folder = tree('symlinked-config')
os.unlink(os.path.join(folder, 'config.toml'))
os.symlink('/etc/kiosk-carousel/config.toml', os.path.join(folder, 'config.toml'))
stick('symlinked-config', 'links', 'config.toml is a symlink to the kiosk\'s own config', 'refused', fss=('ext4',), root=root)

root, folder = tree('hardlinks', BASE + item(2, 'image', 'pictures/linked.jpg'))
shutil.copy(os.path.join(media, '02-lake-evening.jpg'), os.path.join(root, 'beside.jpg'))
os.link(os.path.join(root, 'beside.jpg'), os.path.join(folder, 'pictures', 'linked.jpg'))
stick('hardlinks', 'links', 'a hardlink inside the folder to a file beside it on the stick (the stick\'s own inode): an ordinary file', 'taken', fss=('ext4',), root=root)

specials = {'zero.jpg': stat.S_IFCHR | 0o666, 'null.jpg': stat.S_IFCHR | 0o666, 'disk.jpg': stat.S_IFBLK | 0o660,
            'fifo.jpg': stat.S_IFIFO | 0o644}
devs = {'zero.jpg': os.makedev(1, 5), 'null.jpg': os.makedev(1, 3), 'disk.jpg': os.makedev(7, 0), 'fifo.jpg': 0}
root, folder = tree('special-files', BASE + ''.join(item(n + 2, 'image', 'pictures/' + s) for n, s in enumerate(sorted(specials)))
                    + item(9, 'image', 'pictures/socket.jpg') + item(10, 'video', 'clips/fifo.mp4'))
for name, mode in specials.items():
    os.mknod(os.path.join(folder, 'pictures', name), mode, devs[name])
os.makedirs(os.path.join(folder, 'clips'))
os.mkfifo(os.path.join(folder, 'clips', 'fifo.mp4'))
s = socket.socket(socket.AF_UNIX)
s.bind(os.path.join(folder, 'pictures', 'socket.jpg'))
s.close()
stick('special-files', 'links', 'device nodes (/dev/zero, /dev/null, loop0), FIFOs and a socket named as pictures and a clip', 'refused', fss=('ext4',), root=root)

root, folder = tree('special-unnamed')
os.mkfifo(os.path.join(folder, 'pictures', 'fifo'))
os.mknod(os.path.join(folder, 'pictures', 'zero'), stat.S_IFCHR | 0o666, os.makedev(1, 5))
os.mkfifo(os.path.join(folder, 'config.toml.fifo'))
stick('special-unnamed', 'links', 'a FIFO and a device node in the folder that nothing names (not copied)', 'taken', fss=('ext4',), root=root)

root, folder = tree('fifo-config', None)
os.mkfifo(os.path.join(folder, 'config.toml'))
stick('fifo-config', 'links', 'config.toml is a FIFO', 'refused', fss=('ext4',), root=root)

root, folder = tree('setuid', BASE + '\n[[item]]\nid = "shell"\ntitle = "shell"\naction = { exec = ["bin/sh"] }\n')
shutil.copy('/bin/dash', os.path.join(folder, 'bin-sh'))
os.makedirs(os.path.join(folder, 'bin'))
shutil.copy('/bin/dash', os.path.join(folder, 'bin', 'sh'))
os.chmod(os.path.join(folder, 'bin', 'sh'), 0o6755)
os.chmod(os.path.join(folder, 'bin-sh'), 0o4755)
stick('setuid', 'links', 'setuid/setgid root shells in the folder, one named by an exec item', 'refused', fss=('ext4',), root=root)
root, folder = tree('setuid-unnamed')
shutil.copy('/bin/dash', os.path.join(folder, 'rootshell'))
os.chmod(os.path.join(folder, 'rootshell'), 0o6755)
stick('setuid-unnamed', 'links', 'a setuid root shell that nothing names: copied as a plain 0644 file', 'taken', fss=('ext4',), root=root, nosetuid=True)

# -- size ---------------------------------------------------------------------------------------
root, folder = tree('sparse-64g')
with open(os.path.join(folder, 'huge.bin'), 'wb') as f:
    f.truncate(64 << 30)
stick('sparse-64g', 'size', 'a sparse 64 GB file', 'refused', fss=('ext4',), root=root, mib=64)

if not quick:
    root, folder = tree('many-files')
    for d in range(100):
        os.makedirs(os.path.join(folder, 'many', '%03d' % d))
        for n in range(1000):
            write(os.path.join(folder, 'many', '%03d' % d, '%04d.txt' % n), 'x')
    stick('many-files', 'size', '100,000 small files', 'refused', fss=('ext4',), root=root, mib=160)

root, folder = tree('deep-1000', BASE + item(2, 'image', 'd/' * 1000 + 'deep.jpg'))
p = nest(folder, 1000)
shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(p, 'deep.jpg'))
stick('deep-1000', 'size', 'folders nested 1,000 deep, the last picture named by the config', 'refused', fss=('ext4',), root=root)
if not quick:
    root, folder = tree('deep-1000-fat', None)
    write(os.path.join(folder, 'config.toml'), BASE)
    p = nest(folder, 1000)
    write(os.path.join(p, 'x.txt'), 'deep')
    stick('deep-1000-fat', 'size', 'folders nested 1,000 deep, not named', 'taken', fss=('fat32',), root=root, host=False)

big = BASE + '# ' + 'x' * 70 + '\n'
big = big * ((50 << 20) // len(big) + 1)
root, _ = tree('config-50mb', big)
stick('config-50mb', 'size', 'a config.toml of 50 MB', 'refused', fss=('fat32', 'ext4'), root=root)
items = BASE + ''.join(item(n, 'image', 'pictures/dawn.jpg') for n in range(2, 20000))
root, _ = tree('config-20000-items', items)
manifest.append({'case': 'config-20000-items', 'group': 'size', 'what': 'a config of 20,000 items (1.3 MB, under the size limit)',
                 'expect': 'any', 'host': True, 'tree': root, 'fs': None, 'image': None})


def png(width, height):
    """A 1-bit grey PNG of width x height, all black: a few hundred kB that decode to width*height pixels."""
    row = b'\0' + b'\0' * ((width + 7) // 8)
    comp = zlib.compressobj(9)
    body = b''.join(comp.compress(row) for _ in range(height)) + comp.flush()

    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 1, 0, 0, 0, 0))
            + chunk(b'IDAT', body) + chunk(b'IEND', b''))


def jpeg_header(width, height):
    """A baseline JPEG's start (SOI, a quantisation table, SOF0 of width x height), then junk."""
    dqt = b'\xff\xdb\x00\x43\x00' + bytes(range(1, 65))
    sof = b'\xff\xc0\x00\x0b\x08' + struct.pack('>HH', height, width) + b'\x01\x01\x11\x00'
    return b'\xff\xd8' + dqt + sof + b'\x00' * 4096


root, folder = tree('huge-picture', BASE + item(2, 'image', 'pictures/huge.png') + item(3, 'image', 'pictures/huge.jpg'))
write(os.path.join(folder, 'pictures', 'huge.png'), png(60000, 60000))
write(os.path.join(folder, 'pictures', 'huge.jpg'), jpeg_header(60000, 60000))
stick('huge-picture', 'size', 'pictures that decode to 60,000 x 60,000 (a 450 kB PNG, a JPEG header)', 'refused', root=root)

# -- content ------------------------------------------------------------------------------------
root, _ = tree('exec', BASE + '\n[[item]]\nid = "x"\ntitle = "x"\naction = { exec = ["/bin/sh", "-c", "id > /tmp/owned"] }\n')
stick('exec', 'content', 'an item that runs a program, without allow_exec', 'refused', root=root)
for table, body in (('display', 'backend = "fbdev"\n'), ('control', 'socket = "/tmp/kiosk.sock"\n'),
                    ('update', 'url = "http://203.0.113.1/"\n'), ('usb', 'content = "/etc"\nallow_exec = true\n'),
                    ('actions', 'env = { LD_PRELOAD = "/tmp/x.so" }\n'), ('input', 'devices = ["/dev/mem"]\n'),
                    ('metrics', 'file = "/etc/passwd"\n'), ('content', 'url = "http://203.0.113.1/c.kcb"\n')):
    if quick and table not in ('display', 'control', 'update', 'usb'):
        continue
    root, _ = tree('table-' + table, '[%s]\n%s\n' % (table, body) + BASE)
    stick('table-' + table, 'content', '[%s] on the stick: the machine\'s own table' % table, 'refused',
          fss=('ext4',) if quick else ('fat32', 'ext4'), root=root)

# Pictures from the fuzz corpora and the project's media, whole, cut in half and with bytes flipped.
root, folder = tree('fuzz-pictures', None)
pics = [os.path.join(fuzz, 'FuzzRasterImage', f) for f in sorted(os.listdir(os.path.join(fuzz, 'FuzzRasterImage')))]
pics += [os.path.join(fuzz, 'FuzzSVG', f) for f in sorted(os.listdir(os.path.join(fuzz, 'FuzzSVG')))]
pics += [os.path.join(media, f) for f in ('03-city-night.jpg', '08-ocean-waves.png', '10-sunset-stripes.webp', 'icon-map.svg')]
rnd = random.Random(32)
config = BASE
n = 2
for p in pics:
    data = open(p, 'rb').read()
    name = os.path.basename(p)
    variants = {'whole-' + name: data, 'half-' + name: data[:len(data) // 2]}
    flipped = bytearray(data)
    for _ in range(max(1, len(data) // 64)):
        flipped[rnd.randrange(len(data))] ^= 0xFF
    variants['flipped-' + name] = bytes(flipped)
    for vname, vdata in variants.items():
        write(os.path.join(folder, 'pictures', vname), vdata)
        config += item(n, 'image', 'pictures/' + vname)
        n += 1
write(os.path.join(folder, 'config.toml'), config)
shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, 'pictures', 'dawn.jpg'))
stick('fuzz-pictures', 'content', 'pictures of the fuzz corpora (raster, SVG) and the media, whole, cut in half, bytes flipped', 'refused', root=root)

# Clips: made by ffmpeg when it is there (make deps installs it), whole and cut short.
if shutil.which('ffmpeg'):
    root, folder = tree('clips', BASE + item(2, 'video', 'clips/whole.mp4') + item(3, 'video', 'clips/cut.mp4')
                        + item(4, 'video', 'clips/noise.mp4') + item(5, 'video', 'clips/picture.mp4'))
    os.makedirs(os.path.join(folder, 'clips'))
    clip = os.path.join(folder, 'clips', 'whole.mp4')
    run('ffmpeg', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '1',
        '-pix_fmt', 'yuv420p', '-c:v', 'mpeg4', '-y', clip)
    data = open(clip, 'rb').read()
    write(os.path.join(folder, 'clips', 'cut.mp4'), data[:len(data) // 3])
    write(os.path.join(folder, 'clips', 'noise.mp4'), bytes(rnd.randrange(256) for _ in range(20000)))
    shutil.copy(os.path.join(media, '01-mountain-dawn.jpg'), os.path.join(folder, 'clips', 'picture.mp4'))
    stick('clips', 'content', 'clips: one whole, one cut to a third, random bytes, a JPEG named .mp4', 'refused',
          fss=('ext4',) if quick else ('fat32', 'ext4'), root=root)

# The fuzz corpus's configs as the stick's config.toml (each one a stick on the host, and a few in the VM).
configs = sorted(os.listdir(os.path.join(fuzz, 'FuzzConfig')))
for n, name in enumerate(configs):
    root, folder = tree('fuzz-config-%d' % n, None)
    shutil.copy(os.path.join(fuzz, 'FuzzConfig', name), os.path.join(folder, 'config.toml'))
    stick('fuzz-config-%d' % n, 'content', 'the fuzz corpus config %s as config.toml' % name, 'any',
          fss=('ext4',) if n < 2 else (), root=root)
    if n >= 2:
        manifest.append({'case': 'fuzz-config-%d' % n, 'group': 'content', 'what': 'the fuzz corpus config %s as config.toml' % name,
                         'expect': 'any', 'host': True, 'tree': root, 'fs': None, 'image': None})

# -- damage -------------------------------------------------------------------------------------
def damaged(source_case, fs, how, seed):
    src = next(e for e in manifest if e['case'] == source_case and e['fs'] == fs)
    case = 'damaged-%s-%s' % (how, seed)
    path = os.path.join(images, '%s.%s.img' % (case, fs))
    shutil.copy(src['image'], path)
    e = dict(src, case=case, image=path, group='damage', host=False, expect='any',
             what='%s (%s)' % ({'truncated': 'image cut to %d0%%' % seed, 'corrupt': '200 runs of 64 random bytes (seed %d)' % seed}[how], fs))
    if fs == 'exfat':
        e['damage'] = [how, seed]       # the guest fills the exFAT image first, then damages it
    else:
        damage(path, fs, how, seed)
    manifest.append(e)


for fs in ('fat32', 'exfat', 'ext4'):
    for seed in ((3,) if quick else (1, 3, 6)):
        damaged('fuzz-pictures', fs, 'truncated', seed)
    for seed in ((1,) if quick else (1, 2, 3)):
        damaged('fuzz-pictures', fs, 'corrupt', seed)

# -- removal: a 16 MiB stick read at 512 kB/s (a busy host polls slowly), pulled at 10 moments -------
root, folder = tree('removal', BASE + ''.join(item(n, 'image', 'pictures/p%d.jpg' % n) for n in range(2, 9)))
for n in range(2, 9):
    shutil.copy(os.path.join(media, '0%d-%s' % (n, {2: 'lake-evening.jpg', 3: 'city-night.jpg', 4: 'forest-mist.jpg',
                                                       5: 'harbour-portrait-exif6.jpg', 6: 'desert-dunes.png',
                                                       7: 'aurora.png', 8: 'ocean-waves.png'}[n])),
                os.path.join(folder, 'pictures', 'p%d.jpg' % n))
os.makedirs(os.path.join(folder, 'film'))
for n in range(8):
    write(os.path.join(folder, 'film', 'part%d.bin' % n), random.Random(n).randbytes(2 << 20))
# A mounted stick (ext4) is checked, then copied from; a FAT stick is read off whole by mtools
# (`reading`, bytes read so far), then its read copy is checked and copied (`staged`).
moments = {'ext4': ['mounting', 'checking'] + ['copying@%dMiB' % m for m in (0, 2, 4, 6, 8, 10, 12, 14)],
           'fat32': ['mounting'] + ['reading@%dMiB' % m for m in (0, 2, 4, 6, 8, 10, 12, 14)] + ['staged']}
for fs in (('ext4',) if quick else ('fat32', 'ext4')):
    e = image('removal', fs, root, 48)
    for m in moments[fs]:
        # `any`: a pull late in the copy may come after the import ended (then `current` must be
        # the stick's whole copy); before that, `failed` and `current` unchanged.
        manifest.append(dict(e, case='removal-' + m, group='removal', what='pulled while %s (%s)' % (m, fs),
                             expect='any', host=False, pull=m, bps=512 << 10))

# --quick: the sticks the VM runs (every group, every file system; the host reads every tree).
VM_QUICK = {('good', 'fat32'), ('dotdot', 'fat32'), ('unicode-slash', 'exfat'), ('control-chars', 'ext4'),
            ('invalid-utf8', 'ext4'), ('case-collision', 'fat32'), ('case-mismatch', 'exfat'), ('symlinks', 'ext4'),
            ('special-files', 'ext4'), ('setuid-unnamed', 'ext4'), ('sparse-64g', 'ext4'), ('deep-1000', 'ext4'),
            ('config-50mb', 'fat32'), ('huge-picture', 'exfat'), ('table-usb', 'ext4'), ('fuzz-pictures', 'fat32'),
            ('damaged-truncated-3', 'fat32'), ('damaged-corrupt-1', 'exfat'), ('damaged-corrupt-1', 'ext4')}
for e in manifest:
    e['vm'] = bool(e['image']) and (not quick or e['group'] == 'removal' or (e['case'], e['fs']) in VM_QUICK)
with open(os.path.join(out, 'manifest.json'), 'w') as f:
    json.dump(manifest, f, indent=1)
print('make-sticks: %d sticks (%d images, %d for the VM, %d trees for the host) in %s'
      % (len(manifest), len(os.listdir(images)), sum(e['vm'] for e in manifest), sum(bool(e['host']) for e in manifest), out))
