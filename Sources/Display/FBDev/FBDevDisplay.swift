/// The screen through the Linux framebuffer: an `Output` around an `FBDevBackend`.
public typealias FBDevDisplay = Output<FBDevBackend>

extension Output where Backend == FBDevBackend {
    /// Opens `options.device` or `/dev/fb0`.
    public convenience init(options: DisplayOptions) throws {
        try self.init(options: options, system: LinuxDisplaySystem())
    }

    /// Opens `options.device` or `/dev/fb0` through `system` (a fake one in tests), its clock the
    /// system's.
    convenience init(options: DisplayOptions, system: DisplaySystem) throws {
        self.init(backend: try FBDevBackend(options: options, system: system), renderScale: options.renderScale,
                  clock: { [system] in system.monotonicNow() })
    }

    /// The pixel layout written.
    public var format: ScanoutFormat { backend.format }
    /// True when frames are double-buffered by panning.
    public var pans: Bool { backend.pans }
    /// What `close()` did to give the screen back (nil before).
    public var restoreSummary: String? { backend.restoreSummary }
    /// True while the screen is blanked with `FBIOBLANK`.
    public var isScreenOff: Bool { backend.isScreenOff }
}
