import Audio
import Speech
import CarouselCore
import Display
import Foundation
import KioskConfig
import Logging
import LinuxSystem
import Raster

/// What `simulate` is asked to do.
public struct SimulationPlan {
    public var config: KioskConfiguration
    public var width: Int
    public var height: Int
    public var script: [TimedInputEvent] = []
    /// Virtual seconds to run.
    public var until: Double = 5
    /// Screenshots: virtual time → PNG path.
    public var shots: [(time: Double, path: String)] = []
    /// Config reloads: virtual time → the file to load then (as SIGHUP would; a bad file is
    /// reported and the running configuration kept).
    public var reloads: [(time: Double, path: String)] = []
    /// Turn the carousel on its own (one item every `demoInterval` seconds), as `make run` does.
    public var demoInterval: Double?
    /// The local wall clock at virtual time 0 (Unix seconds) and its zone, for `[[schedule]]`
    /// (`--wall-clock`, `--time-zone`); it advances with the virtual clock and counts as
    /// synchronised. nil: the system's time at start, in the system's zone.
    public var wallClockStart: Double?
    public var timeZone: TimeZone?
    /// Speech's synthesis and output (`simulate --audio-out`); the default synthesizes nothing
    /// (the `spoken` events are still written when speech is on).
    public var speech = SpeechSetup()
    /// `--audio-out`: the WAV file of what the kiosk would play (48 kHz stereo, 16-bit), from
    /// virtual 0 to `until`; nil: no sound is mixed.
    public var audioOut: String?
    public init(config: KioskConfiguration, width: Int, height: Int) {
        self.config = config; self.width = width; self.height = height
    }

    /// The first shot the run would end before (it would never be written), or nil.
    public var shotAfterEnd: (time: Double, path: String)? {
        shots.filter { $0.time > until + 1e-9 }.min { $0.time < $1.time }
    }
}

/// A plan `Simulator.run()` refuses before running: a shot after its end.
public struct SimulationPlanError: Error, CustomStringConvertible {
    public var description: String
}

/// Runs the whole program (idle stages, actions, gestures, engine, cards, compositor, headless
/// display) on a virtual clock stepping at the engine's tick rate. Deterministic: the same plan
/// always writes the same bytes. Programs of `exec` actions are reported (`action_skipped`),
/// not started.
///
/// The same `Reactor` and components as the kiosk (`ScheduleTimer`, `IdleTimer`), plus the
/// plan's (`ScriptedReloads`, `ScriptedInput`, `DemoTurns`, `StepTick`), on a clock that jumps
/// from step to step: at each, every component whose deadline came runs, in the order they
/// were registered. `simulate` calls `run()`; `display-test` calls `advance(to:)` to show the
/// same frames through a real backend.
public final class Simulator {
    public let plan: SimulationPlan
    public let session: CarouselSession
    public let behavior: KioskBehavior
    private let display: HeadlessDisplay
    private let context: KioskContext
    private let clock = VirtualClock()
    private let input: ScriptedInput
    private let tick: StepTick
    /// Speech on the virtual clock (`plan.speech`: nothing synthesized unless it has an engine and an output).
    let speech: SpeechComponent
    private let dt: Double
    private var step = 0
    /// The wall clock `[[schedule]]` reads: `plan.wallClockStart` plus the virtual time.
    public let wallClock: ManualWallClock
    /// The wall time at virtual 0.
    private let wallClockOrigin: Double
    /// What the kiosk would play (`plan.audioOut`): clips' sound and speech (its `SpeechOutput`).
    public let audio: AudioMixer?
    private let recorder: WAVRecorder?

    /// Deadlines up to this much after a step are taken at it (rounding only).
    static let tolerance = 1e-9

    /// Throws when the reactor's descriptors cannot be made (the process is out of them), or
    /// `plan.audioOut` cannot be created (`FileWriteError`).
    public init(plan: SimulationPlan, log: EventLog, logger: Logger = Logger(label: "kiosk.simulate")) throws {
        self.plan = plan
        // `render_scale` as the kiosk starts with it ("auto": 1; the virtual clock says nothing
        // about real frame times).
        let scale = plan.config.display.renderScale.initial
        session = CarouselSession(config: plan.config, width: plan.width, height: plan.height, renderScale: scale)
        wallClockOrigin = plan.wallClockStart ?? Date().timeIntervalSince1970.rounded(.down)
        wallClock = ManualWallClock(unixTime: wallClockOrigin, timeZone: plan.timeZone ?? .current)
        behavior = KioskBehavior(session: session, log: log, now: 0, wallClock: wallClock, logger: logger,
                                 performAction: KioskBehavior.simulatedAction)
        display = HeadlessDisplay(width: plan.width, height: plan.height, renderScale: scale)
        dt = 1 / max(1, plan.config.carousel.tickHz)
        let clock = clock, wallClock = wallClock
        // A reactor that is never run: its clock is the virtual one, and `advance` runs its due
        // components at each step.
        let reactor = try Reactor(clock: { clock.now })
        context = KioskContext(behavior: behavior, display: display, reactor: reactor,
                               logger: logger, wallClock: { wallClock.unixTime })
        input = ScriptedInput(plan.script, context: context)
        tick = StepTick(behavior: behavior)
        // The order of a step: reloads, input, the schedule, idle stages, the demo, the engine tick.
        context.register(ScriptedReloads(plan.reloads, behavior: behavior, logger: logger))
        context.register(input)
        context.register(ScheduleTimer(context: context))
        context.register(IdleTimer(behavior: behavior))
        if let interval = plan.demoInterval { context.register(DemoTurns(every: interval, behavior: behavior)) }
        context.register(tick)
        if let path = plan.audioOut {
            let mixer = AudioMixer(volume: plan.config.audio.volume)
            recorder = try WAVRecorder(path: path, mixer: mixer)
            audio = mixer
            behavior.video.sound = mixer
        } else {
            recorder = nil
            audio = nil
        }
        // After the tick: it looks at the step's scene (`observe` in `runStep`) and says its
        // follow-ups at their deadlines. With `--audio-out` and no engine of the plan's own, speech
        // is synthesized on the virtual clock (`ImmediateSpeech`) into the same mix.
        var speechSetup = plan.speech
        if let mixer = audio, speechSetup.engine == nil {
            speechSetup = SpeechSetup(engine: ImmediateSpeech(synthesizer: try ESpeakSynthesizer(), logger: logger),
                                      output: mixer, volume: mixer)
        }
        speech = SpeechComponent(settings: plan.config.speech, setup: speechSetup, context: context)
        context.register(speech)
    }

    /// Virtual time of the next step.
    public var nextStepTime: Double { Double(step) * dt }

    /// Scripted input is still to come.
    public var hasPendingInput: Bool { input.hasPending }

    /// Runs every step up to virtual time `t`: at each, reloads, then input (each event at its
    /// own time, as the live loop delivers the kernel's, not rounded to the tick: the engine
    /// steps up to it, then takes it), then the schedule, idle stages, the demo and the engine tick.
    public func advance(to t: Double) {
        while nextStepTime <= t + Self.tolerance {
            runStep()
        }
    }

    /// Runs to `plan.until`, writing shots and events. Returns the PNG paths written. A shot
    /// after `plan.until` is refused before anything runs (`SimulationPlanError`); a shot that
    /// cannot be written stops the run with a `FileWriteError` naming its path.
    @discardableResult
    public func run() throws -> [String] {
        if let late = plan.shotAfterEnd {
            throw SimulationPlanError(description: "the shot at \(late.time) s (\(late.path)) is after the end of the run (\(plan.until) s)")
        }
        var shots = plan.shots.sorted { $0.time < $1.time }[...]
        var written: [String] = []
        while nextStepTime <= plan.until + Self.tolerance {
            let now = nextStepTime
            runStep()
            // The sound from this step to the next, as this step left the scene.
            try recorder?.advance(to: min(nextStepTime, plan.until))
            while let s = shots.first, s.time <= now + Self.tolerance {
                shots = shots.dropFirst()
                try shoot(to: s.path, now: now)
                written.append(s.path)
            }
        }
        try recorder?.finish()
        return written
    }

    private func runStep() {
        let now = nextStepTime
        clock.now = now
        wallClock.unixTime = wallClockOrigin + now
        tick.stepTime = now
        context.reactor.runDue(tolerance: Self.tolerance)
        speech.observe(now: now)
        step += 1
    }

    private func shoot(to path: String, now: Double) throws {
        if behavior.blanked {
            let black = Canvas(width: display.size.width, height: display.size.height)
            black.fill(0xFF00_0000)
            try display.present(black, damage: [black.bounds])
        } else {
            let frame = session.frame
            try display.present(frame, damage: session.renderFrame(full: true, now: now))
        }
        try display.writePNG(to: path)
    }
}

/// The virtual clock of `Simulator`: set at each step.
final class VirtualClock: @unchecked Sendable {
    var now = 0.0
}
