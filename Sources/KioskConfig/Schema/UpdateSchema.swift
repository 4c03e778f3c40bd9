/// `[update]` and `[content]`: system updates and content fetched from a server
/// (docs/updates.md). The machine's own: a USB stick's content file cannot have them.
enum UpdateSchema {
    static var update: TableSpec<KioskConfiguration> {
        TableSpec(name: "update", doc: """
            System updates fetched from a server. `kiosk-carousel update check` (run as root by \
            `kiosk-carousel-update.timer` every few minutes) downloads the RAUC bundle at `url` with \
            `curl` (resuming a partial download, TLS checked against the system's certificates or only `ca`) when a \
            check is due and the time is inside `window`, and installs it into the other root slot; \
            the kiosk restarts into it when nobody is using it. A bundle already installed or refused \
            is not fetched again until the server's copy changes. Off unless `url` is set.
            """, prototype: KioskConfiguration(), keys: [
                KeySpec(name: "url", type: .url, doc: "The update bundle (`.raucb`) to fetch.",
                        defaultOf: { $0.update.url.map(ValueFormat.quoted) ?? "none (no updates from a server)" },
                        example: ValueFormat.quoted("https://updates.example.com/kiosk-carousel-amd64.raucb"),
                        apply: { $0.update.url = $1.string }),
                KeySpec(name: "check_every", type: .duration(minimum: 60),
                        doc: "Least time between two checks of `url` and `[content] url` (`\"30m\"`, `\"6h\"`, `\"1d\"`).",
                        defaultOf: { $0.update.checkEvery.map { ValueFormat.quoted(DurationText.describe(seconds: $0)) } ?? "every run of the timer (a few minutes)" },
                        example: ValueFormat.quoted("6h"), apply: { $0.update.checkEvery = $1.number }),
                KeySpec(name: "window", type: .timeRange,
                        doc: "Checks and installs happen only at these times of day (local time), e.g. outside opening hours.",
                        defaultOf: { $0.update.window.map { ValueFormat.quoted($0.description) } ?? "any time" },
                        example: ValueFormat.quoted("22:00-06:00"),
                        apply: { c, v in let n = v.numbers; if n.count == 2 { c.update.window = TimeWindow(from: Int(n[0]), to: Int(n[1])) } }),
                KeySpec(name: "ca", type: .path,
                        doc: """
                            Pins the servers of `url` and `[content] url`: a PEM file of the only certificates their TLS \
                            certificates may chain to (your own CA, or the server's own self-signed certificate) instead \
                            of the system's (`ca-certificates`). With it, `http://` URLs and redirects are refused.
                            """,
                        defaultOf: { $0.update.ca.map(ValueFormat.quoted) ?? "none (the system's certificates)" },
                        example: ValueFormat.quoted("/etc/kiosk-carousel/update-ca.pem"),
                        apply: { $0.update.ca = $1.string }),
            ])
    }

    static var content: TableSpec<KioskConfiguration> {
        TableSpec(name: "content", doc: """
            Content fetched from a server: a content bundle is a USB stick's `kiosk-carousel/` folder \
            packed as a tar archive inside a CMS signature (`openssl cms -sign -nodetach`, signed by a \
            key the kiosk's update keyring `/etc/rauc/keyring.pem` trusts). `kiosk-carousel update check` \
            fetches it with `[update]`'s `check_every` and `window`, checks its signature before \
            unpacking it, then checks and makes it current exactly as a stick's folder (`[usb]`'s \
            `content`, `max_mb`, `allow_exec`). Off unless `url` is set.
            """, prototype: KioskConfiguration(), keys: [
                KeySpec(name: "url", type: .url, doc: "The content bundle to fetch.",
                        defaultOf: { $0.contentSource.url.map(ValueFormat.quoted) ?? "none (no content from a server)" },
                        example: ValueFormat.quoted("https://content.example.com/lobby.kcb"),
                        apply: { $0.contentSource.url = $1.string }),
            ])
    }
}
