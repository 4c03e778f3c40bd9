#if canImport(Glibc)
import Glibc
#endif

/// Faults a test switches on through the environment, to prove what the kiosk does when the
/// hardware misbehaves (docs/systemd.md, "A watchdog that watches the screen"). **Test only**:
/// nothing in a real installation sets `KIOSK_TEST_FAULT`; an unknown value is ignored.
public enum DisplayTestFault: String, Sendable {
    /// `KIOSK_TEST_FAULT=wedge-flip`: the DRM backend submits its page flips to the kernel as
    /// usual but drops their completion events (reads them off the descriptor and ignores them),
    /// as a driver that loses flip completions would: every flip runs into the flip timeout.
    case wedgeFlip = "wedge-flip"

    /// The fault named by `KIOSK_TEST_FAULT`, if any.
    public static var current: DisplayTestFault? {
        guard let value = getenv("KIOSK_TEST_FAULT") else { return nil }
        return DisplayTestFault(rawValue: String(cString: value))
    }
}
