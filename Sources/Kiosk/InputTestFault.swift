#if canImport(Glibc)
import Glibc
#endif

/// A fault a test switches on through the environment, to prove what the kiosk does while its
/// input devices are slow to open (docs/systemd.md, "A watchdog that watches the screen").
/// **Test only**: nothing in a real installation sets `KIOSK_TEST_FAULT`; another value is
/// ignored here (`DisplayTestFault` reads the display's).
///
/// `KIOSK_TEST_FAULT=hold-input-open:PATH`: `InputFactory.open` waits while the file `PATH`
/// exists, as libinput's start on a cold Raspberry Pi did for 7 s and more (docs/start-up.md,
/// stop 61): the test lets the kiosk run with its devices still opening for as long as it likes.
public struct InputTestFault: Equatable, Sendable {
    /// The opening waits while this file exists.
    public let holdPath: String

    /// Parses `hold-input-open:PATH`; nil for anything else.
    public init?(_ text: String) {
        let prefix = "hold-input-open:"
        guard text.hasPrefix(prefix), text.count > prefix.count else { return nil }
        holdPath = String(text.dropFirst(prefix.count))
    }

    /// The fault named by `KIOSK_TEST_FAULT`, if it is this one.
    public static var current: InputTestFault? {
        guard let value = getenv("KIOSK_TEST_FAULT") else { return nil }
        return InputTestFault(String(cString: value))
    }

    /// Waits while `holdPath` exists (looks every 50 ms).
    public func waitWhileHeld() {
        while access(holdPath, F_OK) == 0 { usleep(50_000) }
    }
}
