/// The updater's folder (docs/updates.md), `/var/lib/kiosk-carousel/update` on the image (the
/// data partition): its status, the boot report, downloads and what a stick brought.
public struct UpdatePaths: Sendable {
    public static let defaultFolder = "/var/lib/kiosk-carousel/update"
    public var folder: String
    public init(folder: String = UpdatePaths.defaultFolder) { self.folder = folder }

    /// `status.json`: the updater's progress and last result.
    public var status: String { folder + "/status.json" }
    /// `boot.json`: written by the image after each boot.
    public var boot: String { folder + "/boot.json" }
    /// `download/`: bundles being fetched (`NAME.part`) and fetched.
    public var downloads: String { folder + "/download" }
    /// `incoming/`: bundles copied from a USB stick.
    public var incoming: String { folder + "/incoming" }
    /// `check.json`: when the server was last asked.
    public var checks: String { folder + "/check.json" }
    /// `pending.json`: the version installed into the other slot, until the kiosk runs it
    /// (what `update reboot-when-quiet` reboots for, whatever later checks write to the status).
    public var pending: String { folder + "/pending.json" }
    /// `seen.json`: what each URL gave last time (its ETag, Last-Modified and size) and how that ended.
    public var seen: String { folder + "/seen.json" }
}
