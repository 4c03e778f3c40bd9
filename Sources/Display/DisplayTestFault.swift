#if canImport(Glibc)
import Glibc
#endif

/// A fault a test switches on through the environment, to prove what the kiosk does when the
/// hardware misbehaves (docs/systemd.md, "A watchdog that watches the screen"). **Test only**:
/// nothing in a real installation sets `KIOSK_TEST_FAULT`; an unknown value is ignored.
///
/// `KIOSK_TEST_FAULT=KIND` switches the fault on for good; `KIOSK_TEST_FAULT=KIND:PATH` only
/// while the file `PATH` exists (so a test can let the kiosk start and settle first).
public struct DisplayTestFault: Equatable, Sendable {
    /// What goes wrong.
    public enum Kind: String, Sendable {
        /// `wedge-flip`: the DRM backend submits its page flips to the kernel as usual but drops
        /// their completion events (reads them off the descriptor and ignores them), as a driver
        /// that loses flip completions would: every flip runs into the flip timeout and is never
        /// confirmed on screen.
        case wedgeFlip = "wedge-flip"
    }

    public let kind: Kind
    /// The fault is on while this file exists; nil: always.
    public let whilePath: String?

    /// Parses `KIND` or `KIND:PATH`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let first = parts.first, let kind = Kind(rawValue: first) else { return nil }
        self.kind = kind
        whilePath = parts.count > 1 ? parts[1] : nil
    }

    /// The fault named by `KIOSK_TEST_FAULT`, if any.
    public static var current: DisplayTestFault? {
        guard let value = getenv("KIOSK_TEST_FAULT") else { return nil }
        return DisplayTestFault(String(cString: value))
    }

    /// True when `kind` is the fault and it is on now.
    public func isOn(_ kind: Kind) -> Bool {
        kind == self.kind && (whilePath.map { access($0, F_OK) == 0 } ?? true)
    }
}
