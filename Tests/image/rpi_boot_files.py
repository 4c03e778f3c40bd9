#!/usr/bin/env python3
"""The Raspberry Pi image's boot partition, file by file, against what the Pi's firmware reads
(make rpi-image-test; docs/raspberry-pi.md). Reads the image with sfdisk and mtools, no mount.

  rpi_boot_files.py IMAGE            check it; prints "ok:"/"FAIL:" lines and "N passed, N failed"
  rpi_boot_files.py --self-test IMAGE
                                     also break a sparse copy of IMAGE (initrd.img deleted, the
                                     root's PARTUUID in cmdline.txt changed, an overlay named in
                                     config.txt) and expect the check to find each of the three

What the firmware reads (https://www.raspberrypi.com/documentation/computers/config_txt.html):
autoboot.txt on partition 1 names the boot partition ([all] boot_partition=N); on it, config.txt
names the kernel (kernel=), the initramfs (initramfs FILE ...), optionally a device tree
(device_tree=) and overlays (dtoverlay=NAME: overlays/NAME.dtbo); without device_tree= the
firmware loads the board's own DTB (upstream_kernel=1: mainline names); the Pi 4 family's firmware
is start4.elf + fixup4.dat (start_file=/fixup_file= override them). cmdline.txt is one line; its
root=PARTUUID=<disk id>-<NN> must be a partition of this disk's MBR that holds ext4.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The boards the image is for: the DTB the firmware loads for each (mainline names).
BOARD_DTBS = {
    "Raspberry Pi 4 Model B": "bcm2711-rpi-4-b.dtb",
    "Raspberry Pi 400": "bcm2711-rpi-400.dtb",
    "Compute Module 4 (IO board)": "bcm2711-rpi-cm4-io.dtb",
    "Raspberry Pi 5 Model B": "bcm2712-rpi-5-b.dtb",
}
ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1")


class Check:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def __call__(self, ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if ok:
            self.passed += 1
        else:
            self.failed.append(what)
        return ok


def partitions(image):
    table = json.loads(subprocess.run(["sfdisk", "--json", image], check=True, capture_output=True,
                                      text=True).stdout)["partitiontable"]
    if table["label"] != "dos":
        raise SystemExit(f"{image}: a {table['label']} partition table; the Pi image's is MBR (dos)")
    disk_id = table["id"].lower().removeprefix("0x")
    parts = {}
    for p in table["partitions"]:
        number = int(re.search(r"(\d+)$", p["node"]).group(1))
        parts[number] = {"start": p["start"] * 512, "size": p["size"] * 512, "type": p["type"],
                         "partuuid": f"{disk_id}-{number:02x}"}
    return disk_id, parts


def fat(image, part):
    return f"{image}@@{part['start']}"


def read_file(image, part, name):
    r = subprocess.run(["mtype", "-i", fat(image, part), "::/" + name], capture_output=True, env=ENV)
    return r.stdout.decode("utf-8", "replace") if r.returncode == 0 else None


def list_files(image, part):
    """Every file's path on a FAT partition, lower-case (FAT's names are case-insensitive)."""
    r = subprocess.run(["mdir", "-/", "-b", "-i", fat(image, part), "::/"], capture_output=True,
                       text=True, env=ENV)
    if r.returncode != 0:
        return None
    return {line.strip().removeprefix("::/").lower() for line in r.stdout.splitlines() if line.strip()}


def config_lines(text):
    """config.txt's settings as (section, key, value), in order; comments and blanks dropped."""
    section = "all"
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        if "=" in line and not line.startswith("initramfs"):
            key, value = line.split("=", 1)
            yield section, key.strip(), value.strip()
        else:
            key, _, value = line.partition(" ")
            yield section, key.strip(), value.strip()


def check_image(image, check):
    disk_id, parts = partitions(image)
    check(1 in parts and parts[1]["type"] in ("b", "c", "e", "6"), f"partition 1 is FAT (type {parts.get(1, {}).get('type')})")
    autoboot = read_file(image, parts[1], "autoboot.txt") if 1 in parts else None
    if not check(autoboot is not None, "autoboot.txt on partition 1"):
        return
    settings = list(config_lines(autoboot))
    boot = [v for s, k, v in settings if s == "all" and k == "boot_partition"]
    trial = [v for s, k, v in settings if s == "tryboot" and k == "boot_partition"]
    check(("all", "tryboot_a_b", "1") in settings, "autoboot.txt: [all] tryboot_a_b=1")
    if not check(len(boot) == 1 and boot[0].isdigit() and int(boot[0]) in parts,
                 f"autoboot.txt: [all] boot_partition={boot} is a partition of the disk"):
        return
    check(len(trial) == 1 and trial[0].isdigit() and int(trial[0]) in parts and trial[0] != boot[0],
          f"autoboot.txt: [tryboot] boot_partition={trial} is another partition of the disk")
    bootpart = parts[int(boot[0])]
    files = list_files(image, bootpart)
    if not check(files is not None, f"partition {boot[0]} reads as FAT"):
        return
    config = read_file(image, bootpart, "config.txt")
    if not check(config is not None, "config.txt on the boot partition"):
        return
    settings = list(config_lines(config))
    named = {}
    for section, key, value in settings:
        if key == "kernel":
            named.setdefault("kernel", []).append(value)
        elif key == "initramfs":
            named.setdefault("initramfs", []).append(value.split()[0])
        elif key == "device_tree":
            named.setdefault("device_tree", []).append(value)
        elif key == "dtoverlay" and value:
            named.setdefault("overlay", []).append("overlays/" + value.split(",")[0] + ".dtbo")
        elif key in ("start_file", "fixup_file"):
            named.setdefault(key, []).append(value)
    check(("all", "arm_64bit", "1") in settings, "config.txt: arm_64bit=1 (the kernel is arm64)")
    check(len(named.get("kernel", [])) == 1, f"config.txt names one kernel: {named.get('kernel')}")
    check(len(named.get("initramfs", [])) == 1, f"config.txt names one initramfs: {named.get('initramfs')}")
    for kind in ("kernel", "initramfs", "device_tree", "overlay", "start_file", "fixup_file"):
        for name in named.get(kind, []):
            check(name.lower() in files, f"{kind} {name} (named in config.txt) is on the boot partition")
    start = named.get("start_file", ["start4.elf"])[-1]
    fixup = named.get("fixup_file", ["fixup4.dat"])[-1]
    for name in (start, fixup):
        check(name.lower() in files, f"the Pi 4 firmware {name} is on the boot partition")
    if "device_tree" not in named:
        for board, dtb in BOARD_DTBS.items():
            check(dtb in files, f"{dtb} ({board}'s device tree, which the firmware loads) is on the boot partition")
    cmdline = read_file(image, bootpart, "cmdline.txt")
    if not check(cmdline is not None, "cmdline.txt on the boot partition"):
        return
    lines = [l for l in cmdline.splitlines() if l.strip()]
    check(len(lines) == 1, f"cmdline.txt is one line ({len(lines)} lines)")
    root = re.findall(r"(?:^|\s)root=PARTUUID=([0-9a-fA-F]{8}-[0-9a-fA-F]{2})(?=\s|$)", cmdline)
    if not check(len(root) == 1, f"cmdline.txt names the root by PARTUUID: {root}"):
        return
    match = [n for n, p in parts.items() if p["partuuid"] == root[0].lower()]
    if not check(len(match) == 1, f"root=PARTUUID={root[0]} is partition {match} of this disk (disk id {disk_id})"):
        return
    with open(image, "rb") as f:
        f.seek(parts[match[0]]["start"] + 1080)
        magic = f.read(2)
    check(magic == b"\x53\xef", f"partition {match[0]} (the root) holds an ext2/3/4 filesystem")
    check(re.search(r"(?:^|\s)ro(?=\s|$)", cmdline) is not None, "cmdline.txt mounts the root read-only (ro)")
    check("rauc.slot=A" in cmdline.split(), "cmdline.txt says the slot (rauc.slot=A)")


def self_test(image, check):
    """A broken copy must fail in the three ways broken: the check can fail."""
    work = tempfile.mkdtemp(prefix="rpi-boot-files.")
    try:
        copy = os.path.join(work, "broken.img")
        subprocess.run(["cp", "--sparse=always", image, copy], check=True)
        _, parts = partitions(copy)
        bootpart = parts[2]
        subprocess.run(["mdel", "-i", fat(copy, bootpart), "::/initrd.img"], check=True, env=ENV)
        cmdline = read_file(copy, bootpart, "cmdline.txt")
        config = read_file(copy, bootpart, "config.txt") + "dtoverlay=not-there\n"
        cmdline = re.sub(r"root=PARTUUID=(\w{8})-05", r"root=PARTUUID=\1-09", cmdline)
        for name, text in (("cmdline.txt", cmdline), ("config.txt", config)):
            path = os.path.join(work, name)
            with open(path, "w") as f:
                f.write(text)
            subprocess.run(["mcopy", "-o", "-i", fat(copy, bootpart), path, "::/" + name], check=True, env=ENV)
        broken = Check()
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                check_image(copy, broken)
            finally:
                sys.stdout = stdout
        for what in ("initramfs initrd.img", "overlay overlays/not-there.dtbo", "root=PARTUUID="):
            check(any(what in f for f in broken.failed), f"self-test: a copy broken at '{what}' fails the check")
    finally:
        shutil.rmtree(work)


def main(argv):
    args = [a for a in argv if a != "--self-test"]
    if len(args) != 1:
        raise SystemExit("usage: rpi_boot_files.py [--self-test] IMAGE (make image BOARD=rpi makes out/kiosk-carousel-<version>-rpi-arm64.img)")
    image = args[0]
    if not os.path.isfile(image):
        raise SystemExit(f"{image}: no such image (make image BOARD=rpi)")
    check = Check()
    check_image(image, check)
    if "--self-test" in argv:
        self_test(image, check)
    print(f"{check.passed} passed, {len(check.failed)} failed")
    return 1 if check.failed or check.passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
