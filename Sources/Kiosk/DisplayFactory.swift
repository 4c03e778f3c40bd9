import Display
import KioskConfig
import Logging

/// Opens the display backend the settings ask for; `auto` tries DRM, then fbdev, then headless.
public enum DisplayFactory {
    public static func open(_ settings: DisplaySettings, backend: DisplaySettings.Backend, logger: Logger) throws -> DisplayBackend {
        switch backend {
        case .headless, .auto:
            return HeadlessDisplay(width: settings.headlessSize.width, height: settings.headlessSize.height)
        case .drm, .fbdev:
            throw DisplayError("the \(backend.rawValue) backend is not built yet")
        }
    }
}
