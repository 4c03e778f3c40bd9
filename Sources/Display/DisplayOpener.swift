/// Which backend drives the screen.
public enum DisplayBackendKind: String, CaseIterable, Sendable {
    /// DRM/KMS, else the framebuffer when the machine has no DRM device.
    case auto
    case drm
    case fbdev
}

/// Opens the backend for a `[display]` configuration.
public enum DisplayOpener {
    /// Opens `kind` with `options`. `auto` tries DRM first and falls back to fbdev only when there
    /// is no DRM device (or it cannot do KMS); a permission problem, a busy device or a missing
    /// screen is reported as it is, since the framebuffer would not fix it.
    public static func open(_ kind: DisplayBackendKind, options: DisplayOptions) throws -> DisplayBackend {
        switch kind {
        case .drm: return try DRMDisplay(options: options)
        case .fbdev: return try FBDevDisplay(options: options)
        case .auto:
            var drmOptions = options
            if options.device?.hasPrefix("/dev/fb") == true { return try FBDevDisplay(options: options) }
            do { return try DRMDisplay(options: drmOptions) } catch let e as DisplayError where e.kind == .noDevice || e.kind == .unsupported {
                drmOptions.device = nil
                do { return try FBDevDisplay(options: drmOptions) } catch let f as DisplayError where f.kind == .noDevice {
                    throw DisplayError(.noDevice, "no framebuffer either", underlying: f, after: e)
                }
            }
        }
    }
}
