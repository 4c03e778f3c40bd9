/// What `DisplayBackend.setScreenPower(_:)` did.
public enum ScreenPowerResult: Equatable, Sendable {
    /// The backend switched the screen itself, by `method`.
    case switched(ScreenPowerMethod)
    /// The screen was not switched: the backend has no power control (headless), the device
    /// lacks it (no DPMS property on the connector), or the call failed. `reason` is one line
    /// for the log. Switching off, the caller shows a black frame instead; switching on, it
    /// simply draws again.
    case unsupported(reason: String)
}

/// How a backend switches the screen off and on.
public enum ScreenPowerMethod: String, Equatable, Sendable {
    /// The DRM connector's `DPMS` property (`drmModeConnectorSetProperty`, Off/On): the panel or
    /// monitor goes into power saving, the CRTC stops scanning out.
    case dpms
    /// The framebuffer's `FBIOBLANK` ioctl (`FB_BLANK_POWERDOWN`/`FB_BLANK_UNBLANK`).
    case fbBlank = "fbblank"
}
