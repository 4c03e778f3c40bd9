import Logging

/// The screen through DRM/KMS: an `Output` around a `DRMBackend`.
public typealias DRMDisplay = Output<DRMBackend>

extension Output where Backend == DRMBackend {
    /// Opens the display described by `options` on this machine.
    public convenience init(options: DisplayOptions) throws {
        try self.init(options: options, system: LinuxDisplaySystem(), hotplug: UdevHotplugMonitor())
    }

    /// Opens the display described by `options` through `system` (a fake one in tests), its
    /// clock the system's.
    convenience init(options: DisplayOptions, system: DisplaySystem, hotplug: HotplugMonitor?) throws {
        let drm = try DRMBackend(options: options, system: system, hotplug: hotplug)
        self.init(backend: drm, renderScale: options.renderScale, clock: { [system] in system.monotonicNow() })
        Logger(label: "kiosk.display.drm").info("DRM \(drm.devicePath) \(drm.connectorName) \(drm.currentMode.map { "\($0)" } ?? "-") on CRTC \(drm.crtcID), \(drm.slotCount) buffers, rotation \(options.rotation.rawValue)\(renderScale < 1 ? ", drawn at \(size.width)x\(size.height) (render_scale \(renderScale), \(scaleFilter.rawValue))" : "")")
    }

    /// The card in use, e.g. `/dev/dri/card0`.
    public var devicePath: String { backend.devicePath }
    /// The connector driven (its name, e.g. `HDMI-A-1`).
    public var connectorName: String { backend.connectorName }
    /// The mode set, or nil while no screen is connected.
    public var currentMode: DRMMode? { backend.currentMode }
    /// Page flip completions received (and flips given up on).
    public var flipsCompleted: Int { stats.completions }
    /// What `close()` did to give the screen back (nil before).
    public var restoreSummary: String? { backend.restoreSummary }
    /// True while the screen is switched off through DPMS.
    public var isScreenOff: Bool { backend.isScreenOff }
}
