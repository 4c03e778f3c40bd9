import ArgumentParser
import Cards
import CarouselCore
import Display
import Foundation
import Input
import Kiosk
import KioskConfig
import LinuxSystem
import Logging
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// `display-test`: drives a real display backend with the carousel frames `simulate` draws, on the
/// same virtual clock, and prints what it measured. Used by `Tests/vm/display-*.sh` to prove the
/// backends on a real kernel until `run` drives them.
struct DisplayTestCommand: ParsableCommand {
    /// What `display-test` shows.
    enum DisplayTestScene: String, CaseIterable, ExpressibleByArgument {
        /// The frames `simulate` draws.
        case carousel
        /// A 64-pixel bar sweeping across: small damage every frame.
        case bars
        /// The whole frame changes every frame.
        case full
    }

    static let configuration = CommandConfiguration(commandName: "display-test",
        abstract: "Show the carousel through a real display backend for a few seconds and print figures.",
        // ArgumentParser writes `<options>` past twelve options; this is the README's line
        // (CommandSynopsis; CommandListTests checks they agree).
        usage: "kiosk-carousel display-test [options]",
        discussion: """
        Frames are those `simulate` draws for the same config, script and virtual time; `--shot T=NAME` \
        holds the clock at T, shows that frame and asks kiosk-vm for a screenshot (`kiosk-vm-shot NAME`). \
        SIGTERM/SIGINT close the display (restoring the console) and print the figures.
        """)
    @OptionGroup var config: ConfigOption
    @Option(help: "The display backend (auto: DRM, else fbdev).") var backend: DisplayBackendKind = .drm
    @Option(help: "Device (/dev/dri/cardN or /dev/fbN); default: from the config, else the first usable.") var device: String?
    @Option(help: "Connector name such as HDMI-A-1.") var connector: String?
    @Option(help: "Mode WIDTHxHEIGHT[@HZ].") var mode: String?
    @Option(help: "Scan-out buffers (2 or 3).") var buffers: Int?
    @Option(help: "Rotation in degrees clockwise: 0, 90, 180, 270.") var rotation: Int?
    @Option(help: "Seconds to run (real time, not counting held shots).") var seconds: Double = 5
    @Option(help: "Input script (JSON lines, as simulate).") var input: String?
    @Option(name: .customLong("shot"), help: "SECONDS=NAME: hold the clock at that virtual time and take a kiosk-vm screenshot (repeatable).")
    var shots: [String] = []
    @Option(help: "SECONDS=COMMAND: at that virtual time release the display, run COMMAND with /bin/sh (a full-screen program), then take the display back.")
    var handover: String?
    @Option(help: "carousel (the frames simulate draws), bars (a 64-pixel bar sweeping across: small damage every frame) or full (the whole frame changes every frame).")
    var scene: DisplayTestScene = .carousel
    @Flag(help: "Read the CRTCs before start and after close through a second open file and fail unless they match.")
    var verifyRestore = false

    func validate() throws {
        if let r = rotation, DisplayRotation(degrees: r) == nil { throw ValidationError("--rotation must be 0, 90, 180 or 270, not \(r)") }
        if let b = buffers, !(2...3).contains(b) { throw ValidationError("--buffers must be 2 or 3, not \(b)") }
        guard seconds > 0, seconds < 3600 else { throw ValidationError("--seconds must be between 0 and 3600") }
        _ = try parsedShots()
        _ = try parsedHandover()
    }

    /// `--shot SECONDS=NAME`, in time order; each before the end of the run.
    private func parsedShots() throws -> [(time: Double, path: String)] {
        let shots = try shots.map { try TimedPath.parse($0, option: "--shot", example: "1.5=name") }.sorted { $0.time < $1.time }
        if let late = shots.first(where: { $0.time >= seconds }) {
            throw ValidationError("--shot \(TimedPath.format(late.time))=\(late.path) is not before the end (--seconds \(TimedPath.format(seconds)))")
        }
        return shots
    }

    /// `--handover SECONDS=COMMAND`, its time before the end of the run.
    private func parsedHandover() throws -> (time: Double, command: String)? {
        guard let handover else { return nil }
        let example = "2.5=COMMAND with a time before --seconds"
        guard let h = try? TimedPath.parse(handover, option: "--handover", example: example), h.time < seconds else {
            throw ValidationError("--handover must look like \(example), not '\(handover)'")
        }
        return (h.time, h.path)
    }

    func run() throws {
        let cfg = try config.load()
        var options = DisplayFactory.displayOptions(cfg.display)
        if let device { options.device = device }
        if let connector { options.connector = connector }
        if let mode { options.mode = mode }
        if let buffers { options.buffers = buffers }
        if let rotation, let r = DisplayRotation(degrees: rotation) { options.rotation = r }
        let shotPlan = try parsedShots()
        let script = try input.map { try InputScript.load(path: $0) } ?? []
        let handoverPlan = try parsedHandover()

        // Signals first (blocked on this thread before any other exists), read in the loop.
        let signals = try SignalFD(signals: [SIGTERM, SIGINT])
        let steps = StepAnnouncer()
        steps.begin("open the display")
        let kind = backend
        var probe: DRMStateProbe?
        var before: [String] = []
        if verifyRestore && kind != .fbdev {
            let card = options.device ?? "/dev/dri/card0"
            probe = try DRMStateProbe(path: card)
            before = probe!.crtcStates()
            print("before: \(before.joined(separator: "; "))")
        }
        let display: DisplayBackend
        do { display = try openDisplay(kind, options: options) } catch let e as DisplayError {
            FileHandle.standardError.write(Data("kiosk-carousel: \(e.description)\n".utf8))
            throw ExitCode(2)
        }
        if scene != .carousel {
            steps.begin("show the \(scene.rawValue) scene")
            let stats = try DisplayTestSynthetic.run(display: display, signals: signals, fullFrames: scene == .full, seconds: seconds)
            steps.begin("close and restore")
            display.close()
            print(stats)
            print("restore: \(restoreSummary(display))")
            return
        }
        // The frames `simulate` draws: the same driver on the same virtual clock.
        // Laid out at the screen's size; drawn at `render_scale` times it, as the display expects.
        var plan = SimulationPlan(config: cfg, width: max(1, display.fullSize.width), height: max(1, display.fullSize.height))
        plan.script = script
        let driver = try Simulator(plan: plan, log: try EventLog(path: nil))
        // The virtual clock is the reactor's: monotonic time less what shots, the handover and
        // the first frame held.
        let clock = HeldClock()
        let reactor = try Reactor(clock: clock.now)
        let carousel = DisplayTestCarousel(driver: driver, display: display, reactor: reactor, clock: clock, steps: steps,
                                           seconds: seconds, shots: shotPlan, handover: handoverPlan)
        let frames = FramePumpHost(behavior: driver.behavior, display: display, reactor: reactor,
                                   logger: Logger(label: "kiosk.display-test"), client: carousel,
                                   afterFrame: DisplayTestAfterFrame(carousel))
        try frames.attach()
        try reactor.watch(signals.fd) {
            if let signal = signals.drain().first { carousel.signalled(signal) }
        }
        steps.begin("first frame")
        reactor.run()
        if let failure = carousel.failure { throw failure }
        carousel.finish()
        var stats = carousel.stats
        steps.begin("close and restore")
        display.close()
        stats.restore = restoreSummary(display)
        print(stats.report(signal: carousel.stopSignal))
        if let probe {
            let after = probe.crtcStates()
            print("after: \(after.joined(separator: "; "))")
            if after != before {
                FileHandle.standardError.write(Data("kiosk-carousel: the CRTCs after close differ from before start\n".utf8))
                throw ExitCode(3)
            }
            print("restore verified: CRTCs match the state before start")
            if let hold = ProcessInfo.processInfo.environment["KIOSK_DISPLAY_TEST_SHOT_AFTER_CLOSE"] {
                takeShot(name: hold, virtualTime: -1)
            }
        }
    }
}
