/// `[usb]`: content from a USB stick (docs/usb.md).
enum USBSchema {
    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "usb", doc: """
            Content from a USB stick. When a USB drive with a `kiosk-carousel/` folder is plugged in \
            (udev starts `kiosk-carousel-usb@.service`, which runs `kiosk-carousel usb-import`), the \
            folder's `config.toml` and every picture and clip it names are checked first, then the \
            folder is copied into `content` and made current with one rename: a stick pulled half-way \
            changes nothing. The screen says what happened (a confirmation card, or a card naming the \
            file and line that is wrong). The stick's `config.toml` may hold the content tables \
            (`[carousel]`, with its touch gesture keys such as `pan_slop`, `[idle]`, `[theme]`, \
            `[cards]`, `[video]`, `[items]`, `[[item]]`, `[[schedule]]`, `[schedule_defaults]`, `[languages]`); each \
            one it has replaces the same table of this file. Off unless `import = true`.
            """, prototype: KioskConfiguration(), keys: [
                .bool("import", \.usb.importEnabled, "Look at USB sticks (without it, nothing of this runs).", example: "true"),
                KeySpec(name: "content", type: .path,
                        doc: "Where the stick's folder is copied (made when missing); `current` in it links the copy in use.",
                        defaultOf: { ValueFormat.quoted($0.usb.content) },
                        example: ValueFormat.quoted("/var/lib/kiosk-carousel/usb"),
                        apply: { $0.usb.content = $1.string }),
                .int("max_mb", \.usb.maxMB, .closed(1, 1_048_576), "A stick's folder larger than this many MiB is refused.", example: "4096"),
                .bool("allow_exec", \.usb.allowExec,
                      "Items on a stick may run programs (`action = { exec = … }`). Off: such an item refuses the stick (anyone with a stick could otherwise run a program).",
                      example: "false"),
                KeySpec(name: "file_systems", type: .strings, doc: """
                    The file systems a stick may have, as blkid names them (`vfat`, `exfat`, `ext4`, `ntfs`, …); a stick \
                    with another one (or one blkid does not recognise) is not read, and the journal says why. With \
                    `fat_without_mount`, `["vfat"]` keeps every stick's bytes away from the kernel's file system \
                    drivers. Empty: any file system the kernel reads.
                    """, defaultOf: { ValueFormat.strings($0.usb.fileSystems) }, example: "[\"vfat\"]",
                    apply: { $0.usb.fileSystems = $1.strings.map { $0.lowercased() } }),
                .bool("fat_without_mount", \.usb.fatWithoutMount, """
                    Read a FAT (`vfat`) stick without mounting it: mtools lists and copies its folder as an \
                    unprivileged dynamic user in a sandbox of its own (no capabilities, no network, the one device), \
                    so a crafted file system reaches that process, not the kernel (docs/usb.md, "Reading FAT without \
                    a kernel mount"). Other file systems are mounted by the kernel (read-only) either way. `false`: FAT \
                    sticks are mounted by the kernel (read-only) too, as before this key existed.
                    """, example: "false"),
                .number("notice_seconds", \.usb.noticeSeconds, .closed(1, 3600),
                        "Seconds the confirmation card stays on the screen (a problem card: twice as long); a touch or key ends it.",
                        example: "8"),
            ])
    }
}
