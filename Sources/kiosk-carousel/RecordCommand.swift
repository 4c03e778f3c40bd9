import ArgumentParser
import CLinux
import CarouselCore
import Foundation
import Glibc
import Input
import Kiosk
import KioskConfig
import LinuxSystem

/// `record`: writes real device input as a `simulate` script (docs/input-script.md), one
/// flushed line per event, so what happened on a kiosk can be replayed exactly.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record",
        abstract: "Write real device input (touch, pointer, keys, rotary knob) as a simulate script.",
        usage: "kiosk-carousel record --out FILE [options]",
        discussion: """
        Reads the devices the kiosk would read ([input] and [input.rotary] of the config, or the \
        options below, which take precedence) until --seconds pass or SIGINT/SIGTERM, and writes \
        each event as one JSON line, flushed at once. Times are seconds since the start.

        Replay with: kiosk-carousel simulate --input FILE.jsonl
        """)

    @Option(help: ArgumentHelp("The script to write (- for standard output).", valueName: "file")) var out: String
    /// The config file: [input], [input.rotary], [display] mode and rotation (none: the defaults).
    @OptionGroup var config: ConfigOption
    @Option(help: "Stop after this many seconds (default: until SIGINT or SIGTERM).") var seconds: Double?
    @Option(help: "Panel size WIDTHxHEIGHT before rotation (default: [display] mode, else the connected screen's preferred mode).",
            transform: PixelSize.init(parsing:))
    var size: PixelSize?
    @Option(help: "Display rotation 0, 90, 180 or 270 (default: [display] rotation).") var rotation: Int?
    @Option(name: .customLong("device"), help: "A device for libinput's path backend instead of udev (repeatable).")
    var devices: [String] = []
    @Option(help: "Calibration matrix a,b,c,d,e,f (libinput's, in the touchscreen's normalized coordinates).")
    var calibration: String?
    @Option(help: "Rotary encoder device path (replaces [input.rotary]).") var rotaryDevice: String?
    @Option(help: "Rotary encoder device name (replaces [input.rotary]).") var rotaryName: String?
    @Option(help: "Rotary encoder axis.") var rotaryAxis: RotarySettings.Axis?
    @Flag(help: "Reverse the rotary encoder's direction.") var rotaryInvert = false
    @Option(help: "The rotary encoder's push button: a key code name (KEY_ENTER) or number.") var rotarySelectKey: String?

    func validate() throws {
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be a positive number") }
        if let rotation, InputRotation(rawValue: rotation) == nil {
            throw ValidationError("--rotation must be 0, 90, 180 or 270, not \(rotation)")
        }
        _ = try parsedCalibration()
    }

    private func parsedCalibration() throws -> [Double]? {
        guard let calibration else { return nil }
        let numbers = calibration.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 6, numbers.allSatisfy({ $0?.isFinite == true }) else {
            throw ValidationError("--calibration must be six numbers a,b,c,d,e,f, e.g. 1,0,0,0,1,0")
        }
        return numbers.map { $0! }
    }

    func run() throws {
        let cfg = try config.loadOrDefaults()
        var options = try inputOptions(cfg)
        // A recording carries the jack too (`headphones` lines), whatever the config's speech mode.
        options.headphoneJack = true
        let screen = options.screenSize
        let output = try RecordOutput(path: out)
        try output.write("# kiosk-carousel record: screen \(screen.width)x\(screen.height), rotation \(options.rotation.rawValue)")
        let input: InputDevices
        do { input = try InputDevices(options: options) } catch {
            throw CommandFailure("record: cannot read input devices: \(error)")
        }
        defer { input.close() }
        FileHandle.standardError.write(Data("record: writing \(out) (screen \(screen.width)x\(screen.height)); stop with Ctrl-C\n".utf8))
        var loop = RecordLoop(input: input, seconds: seconds)
        loop.afterFirstRead = {
            // With --device each missing path is named as it is looked for; on a seat only the
            // devices found are, so finding none is said here.
            guard options.devices.isEmpty, input.libinput.deviceCount == 0 else { return }
            FileHandle.standardError.write(Data(("record: no input device on seat \(options.seat) (is udevd running? "
                + "are you root or in the \"input\" group?); waiting for one to be plugged in\n").utf8))
        }
        var fingers = FingersDown()
        let count = try loop.run { event in
            fingers.note(event.event)
            try output.write(InputScript.line(for: event))
        } finish: { end in
            // A finger still down at the end is cancelled, so the script is one simulate accepts.
            for cancel in fingers.cancellations(at: end) { try output.write(InputScript.line(for: cancel)) }
        }
        FileHandle.standardError.write(Data("record: \(count) events\n".utf8))
    }

    private func inputOptions(_ cfg: KioskConfiguration) throws -> InputOptions {
        var settings = cfg.input
        if !devices.isEmpty { settings.devices = devices }
        if let c = try parsedCalibration() { settings.calibration = c }
        if rotaryDevice != nil || rotaryName != nil || rotaryAxis != nil || rotaryInvert || rotarySelectKey != nil {
            var r = settings.rotary ?? RotarySettings()
            if rotaryDevice != nil || rotaryName != nil { r.device = rotaryDevice; r.name = rotaryName }
            if let rotaryAxis { r.axis = rotaryAxis }
            if rotaryInvert { r.invert = true }
            if let k = rotarySelectKey { r.selectKey = k }
            settings.rotary = r
        }
        let panel = try panelSize(cfg)
        do {
            return try InputOptions(settings: settings, rotation: rotation ?? cfg.display.rotation, panelWidth: panel.width, panelHeight: panel.height)
        } catch let e as InputConfigError {
            throw CommandFailure("\(cfg.file.isEmpty ? "input" : cfg.file): \(e.description)")
        }
    }

    /// `--size`, else `[display] mode`, else the first connected screen's preferred mode.
    private func panelSize(_ cfg: KioskConfiguration) throws -> PixelSize {
        if let size { return size }
        if let mode = cfg.display.mode, let s = PixelSize(modeName: mode) { return s }
        if let s = ConnectedScreen.preferredSize() { return s }
        FileHandle.standardError.write(Data("record: no connected screen found; assuming 1280x720 (use --size)\n".utf8))
        return PixelSize(1280, 720)
    }
}

/// The first connected DRM connector's preferred mode, read from sysfs (no DRM master needed).
enum ConnectedScreen {
    static func preferredSize(sysfs: String = "/sys/class/drm") -> PixelSize? {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? []).sorted()
        for e in entries where e.hasPrefix("card") && e.contains("-") {
            let dir = sysfs + "/" + e
            guard let status = try? String(contentsOfFile: dir + "/status", encoding: .utf8),
                  status.trimmingCharacters(in: .whitespacesAndNewlines) == "connected",
                  let modes = try? String(contentsOfFile: dir + "/modes", encoding: .utf8),
                  let first = modes.split(separator: "\n").first,
                  let s = PixelSize(modeName: String(first)) else { continue }
            return s
        }
        return nil
    }
}

/// Where recorded lines go: a file (created or truncated) or standard output (`OutputFile`);
/// every line is written with one `write(2)`, so nothing is lost when the recorder is killed.
final class RecordOutput {
    private let file: OutputFile

    init(path: String) throws { file = try OutputFile(path: path) }

    /// Writes one line; throws when the file cannot take it (disk full, closed pipe), which ends
    /// the recording with a message (`PATH: cannot write the file (reason)`) instead of losing
    /// lines silently.
    func write(_ line: String) throws { try file.write(line + "\n") }
}

/// Reads the input sources on a `Reactor`: their descriptors and a `SignalFD` (SIGINT, SIGTERM)
/// watched, the end (`seconds`) its only deadline: no polling.
struct RecordLoop {
    var input: InputSource
    var seconds: Double?
    /// Called once, after the first events were read (libinput has then added the devices that
    /// were there at start).
    var afterFirstRead: () -> Void = {}

    init(input: InputSource, seconds: Double?) { self.input = input; self.seconds = seconds }

    /// Calls `emit` with each event (time relative to the start), then `finish` with the time
    /// the recording ended; returns how many events there were.
    func run(_ emit: @escaping (TimedInputEvent) throws -> Void, finish: (Double) throws -> Void = { _ in }) throws -> Int {
        let reactor: Reactor, signals: SignalFD
        let recording = Recording(end: seconds, afterFirstRead: afterFirstRead)
        do {
            signals = try SignalFD(signals: [SIGINT, SIGTERM])
            reactor = try Reactor()
            try reactor.watch(signals.fd) { [unowned reactor] in
                _ = signals.drain()
                reactor.stop()
            }
            let start = reactor.start
            // The devices' descriptors change as they come and go: watched anew after each read.
            let watch = InputDescriptorWatch(watcher: reactor) { [input, unowned reactor] fd in
                do {
                    for e in input.readTimed(fd: fd) {
                        try emit(TimedInputEvent(time: max(0, e.time - start), event: e.event))
                        recording.count += 1
                    }
                    try recording.watch?.sync([input])
                } catch {
                    recording.failure = error
                    reactor.stop()
                }
            }
            recording.watch = watch
            try watch.sync([input])
        } catch {
            throw CommandFailure("record: cannot wait for input: \(error)")
        }
        recording.reactor = reactor
        reactor.add(recording)
        reactor.run()
        if let failure = recording.failure { throw failure }
        try finish(reactor.now)
        return recording.count
    }
}

/// What `RecordLoop` keeps while it runs: the events counted, the end as the reactor's
/// deadline, and `afterFirstRead` after the first wake-up (events read or the end reached).
private final class Recording: ReactorSource {
    let end: Double?
    let afterFirstRead: () -> Void
    weak var reactor: Reactor?
    /// The input devices' descriptors in the reactor.
    var watch: InputDescriptorWatch?
    var count = 0
    var failure: Error?
    private var firstRead = true

    init(end: Double?, afterFirstRead: @escaping () -> Void) {
        self.end = end
        self.afterFirstRead = afterFirstRead
    }

    var nextDeadline: Double? { end }

    func prepare(now: Double) {
        if (reactor?.wakeups ?? 0) > 0 { readOnce() }
    }

    func deadlineReached(now: Double) {
        readOnce()
        reactor?.stop()
    }

    private func readOnce() {
        guard firstRead else { return }
        firstRead = false
        afterFirstRead()
    }
}
