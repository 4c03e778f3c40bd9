import CarouselCore
import Input
import KioskConfig
import LinuxSystem
import Logging

/// The way out of a foreground program by key (EN 301 549 5.1.6.2: no focus trapped, also
/// while a program has the screen): while one runs, the keys bound to the kiosk's `home` are
/// read beside it (`KeyWatchSource`: not grabbed, the program gets them too), and holding one
/// for `[actions] leave_hold` seconds says the program is to end (`deadline`, then
/// `ActionRunner.endForeground`). A release before that cancels. Holding, not pressing: a
/// program may use Home itself.
final class ForegroundLeaveKey {
    /// Opens the watch on the keys given (a test gives its own devices).
    typealias Opener = ([UInt16: KeyName]) throws -> InputSource

    private var hold: Double
    private var keys: [UInt16: KeyName]
    private let open: Opener
    private let logger: Logger
    private var source: InputSource?
    private var watch: InputDescriptorWatch?
    /// When the home key went down (nil: not held).
    private var heldSince: Double?

    init(settings: ActionSettings, keymap: [String: KeyName], logger: Logger,
         open: @escaping Opener = { try KeyWatchSource(keys: $0) }) {
        hold = settings.leaveHold
        keys = Self.homeKeys(keymap)
        self.open = open
        self.logger = logger
    }

    /// The codes bound to `home`: the standard map's with the config's additions (a bad map
    /// was reported by the input devices already: then the standard one).
    static func homeKeys(_ keymap: [String: KeyName]) -> [UInt16: KeyName] {
        let map = (try? KeyMap.standard(adding: keymap)) ?? .standard
        return map.bindings.filter { $0.value == .home }
    }

    /// A configuration adopted: its hold time and home keys count from the next program.
    func update(settings: ActionSettings, keymap: [String: KeyName]) {
        hold = settings.leaveHold
        keys = Self.homeKeys(keymap)
    }

    /// When the key has been held long enough (nil: not held, or leaving is off).
    var deadline: Double? { heldSince.map { $0 + hold } }

    /// Watching during a program's run (for `report`).
    var isWatching: Bool { source != nil }

    /// A foreground program took the screen: the home keys are watched from now.
    func start(reactor: Reactor) {
        guard hold > 0, !keys.isEmpty, source == nil else { return }
        do {
            let s = try open(keys)
            let w = InputDescriptorWatch(watcher: reactor) { [unowned self, unowned reactor] fd in self.read(fd, now: reactor.now) }
            try w.sync([s])
            source = s; watch = w
            let names = keys.keys.sorted().map(KeyCodeNames.name(of:)).joined(separator: ", ")
            logger.info("actions: hold \(names) for \(hold) s to end the program (\(s.deviceCount) device(s) watched)")
        } catch {
            logger.warning("actions: the leave key cannot be watched (\(error)); the program ends by itself or its timeout")
        }
    }

    /// The program ended: the keys are let go.
    func stop() {
        watch?.stop()
        source?.close()
        watch = nil; source = nil; heldSince = nil
    }

    /// The deadline was reached: it is spent (the caller ends the program).
    func fired() { heldSince = nil }

    func read(_ fd: Int32, now: Double) {
        guard let source else { return }
        for e in source.readTimed(fd: fd) {
            switch e.event {
            case .keyDown(.home): heldSince = heldSince ?? now
            case .keyUp(.home): heldSince = nil
            default: break
            }
        }
        try? watch?.sync([source])
    }
}
