import Display
import KioskConfig
import Logging

/// Opens the display backend the settings ask for; `auto` tries DRM, then fbdev, then headless.
public enum DisplayFactory {
    public static func open(_ settings: DisplaySettings, backend: DisplaySettings.Backend, logger: Logger) throws -> DisplayBackend {
        let options = displayOptions(settings)
        switch backend {
        case .headless:
            return HeadlessDisplay(width: settings.headlessSize.width, height: settings.headlessSize.height, paced: true,
                                   renderScale: settings.renderScale.initial)
        case .drm:
            return try DisplayOpener.open(.drm, options: options)
        case .fbdev:
            return try DisplayOpener.open(.fbdev, options: options)
        case .auto:
            do { return try DisplayOpener.open(.auto, options: options) } catch let e as DisplayError where e.kind == .noDevice {
                logger.warning("no display device (\(e)); running headless")
                return HeadlessDisplay(width: settings.headlessSize.width, height: settings.headlessSize.height, paced: true,
                                       renderScale: settings.renderScale.initial)
            }
        }
    }

    /// The `[display]` settings as the display backends take them.
    public static func displayOptions(_ settings: DisplaySettings) -> DisplayOptions {
        DisplayOptions(device: settings.device, connector: settings.connector, mode: settings.mode,
                       buffers: settings.buffers, rotation: DisplayRotation(degrees: settings.rotation) ?? .none,
                       renderScale: settings.renderScale.initial)
    }
}
