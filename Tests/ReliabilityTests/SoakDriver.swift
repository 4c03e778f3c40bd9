import CarouselCore
import Foundation
import Glibc
import Input
@testable import Kiosk
import JSON
import TestSupport
import KioskConfig

/// Resident set size of this process in bytes, from `/proc/self/statm` (second field, pages).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// What a soak run saw; every violation is one line naming the step and the state.
struct SoakReport {
    var events = 0
    var ticks = 0
    var frames = 0
    var reloads = 0
    var rejectedReloads = 0
    var commands = 0
    var controlLines = 0
    var refusedLines = 0
    var commandErrors = 0
    var screenshots = 0
    var virtualSeconds = 0.0
    var carouselEvents: [String: Int] = [:]
    var rssAfterWarmup = 0
    var rssPeak = 0
    var rssEnd = 0
    var violations: [String] = []
    var summary: String {
        let mb = { (b: Int) in String(format: "%.1f MB", Double(b) / 1_048_576) }
        let names = carouselEvents.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(events) input events, \(commands) idle intents, \(controlLines) control lines (\(refusedLines) refused, "
            + "\(commandErrors) commands answered with an error, \(screenshots) screenshots), "
            + "\(reloads) reloads (\(rejectedReloads) rejected), "
            + "\(ticks) ticks, \(frames) frames over \(String(format: "%.0f", virtualSeconds)) virtual s; "
            + "RSS after warm-up \(mb(rssAfterWarmup)), peak \(mb(rssPeak)), end \(mb(rssEnd)); \(names)"
    }
}

/// Drives the real `CarouselSession` (gestures → engine → layout → compositor) with random input
/// for a long stretch of virtual time, the way `KioskApp` does with a real clock: input handled
/// as it arrives, the fixed-rate tick only while something moves, a frame drawn when the state
/// changed (at most once per refresh). After every step it checks the invariants a kiosk relies
/// on. Control-socket lines (`ControlLineGenerator`) go through the kiosk's own
/// `ControlLineReader` and `ControlCommandHandler`, with this driver as the `ControlEffects`.
final class SoakDriver {
    /// The configurations reloads switch between; garbage text is reloaded too and must be
    /// rejected while the running configuration stays.
    let configs: [KioskConfiguration]
    let width: Int, height: Int
    private var rng: SplitMix64
    private let session: CarouselSession
    /// Control commands go through the kiosk's behaviour (commands are activity for idle); the
    /// soak's configurations have no idle stages, so it only passes them on.
    private let behavior: KioskBehavior
    private let log: EventLog
    private var now = 0.0
    private var report = SoakReport()
    private var open: [String: Bool] = ["drag": false, "deceleration": false, "scroll_animation": false]
    private var fingersDown: Set<Int> = []
    private var pointerDown = false
    private var lastFrame = -1.0
    private var lastLayout = -1.0
    /// Virtual seconds between frames the compositor really draws.
    var drawInterval = 0.5
    private var configIndex = 0
    /// Where `screenshot` commands really write (removed at the end of the run).
    let screenshotFolder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-soak-\(getpid())")

    init(seed: UInt64, configs: [KioskConfiguration], width: Int = 320, height: Int = 240) throws {
        precondition(!configs.isEmpty)
        self.configs = configs
        self.width = width
        self.height = height
        rng = SplitMix64(seed: seed)
        session = CarouselSession(config: configs[0], width: width, height: height)
        log = try EventLog(path: nil)
        behavior = KioskBehavior(session: session, log: try EventLog(path: nil), now: 0,
                                 performAction: KioskBehavior.simulatedAction)
    }

    private func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    private func coordinate(_ limit: Int) -> Double {
        // Mostly on screen; sometimes far off it (a calibration gone wrong, a ghost touch).
        chance(0.02) ? Double.random(in: -5000...5000, using: &rng) : Double.random(in: 0...Double(limit), using: &rng)
    }

    /// Kinds of violation seen so far: each kind is reported once (its first occurrence), so
    /// one bug repeated at every tick does not hide another.
    private var seenViolations: Set<String> = []

    private func violation(_ what: String, detail: String = "") {
        guard seenViolations.insert(what).inserted else { return }
        let e = session.engine
        report.violations.append(String(format: "t=%.3f: ", now) + what + detail
            + " (offset \(e.scrollOffset), index \(e.currentIndex), items \(e.itemCount), \(e.options.type.rawValue), wraps \(e.wraps))")
    }

    /// Runs `events` random input events (plus commands and reloads among them) and returns
    /// what happened. RSS is sampled after `warmupFraction` of the run and at the end.
    func run(events: Int, warmupFraction: Double = 0.1) -> SoakReport {
        let warmupAt = Int(Double(events) * warmupFraction)
        while report.events < events {
            if report.events == warmupAt { report.rssAfterWarmup = residentBytes() }
            // Pauses between bursts: from a few ms (storms) to minutes (an idle kiosk).
            let pause = chance(0.001) ? Double.random(in: 30...600, using: &rng)
                : chance(0.05) ? Double.random(in: 0.2...3, using: &rng) : Double.random(in: 0.001...0.03, using: &rng)
            advance(to: now + pause)
            step()
            if report.events % 4096 == 0 { report.rssPeak = max(report.rssPeak, residentBytes()) }
        }
        // Lift everything, let it come to rest: every begun motion must have ended.
        for slot in fingersDown.sorted() { feed(.touchUp(slot: slot)) }
        if pointerDown { feed(.pointerButton(pressed: false)) }
        advance(to: now + 10)
        for (name, isOpen) in open where isOpen { violation("\(name)_began without \(name)_ended at the end") }
        if session.isMoving && session.config.carousel.autoscroll == 0 { violation("still moving 10 s after the last input") }
        report.virtualSeconds = now
        report.rssEnd = residentBytes()
        report.rssPeak = max(report.rssPeak, report.rssEnd)
        try? FileManager.default.removeItem(at: screenshotFolder)
        return report
    }

    private func step() {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<45: touchStorm()
        case 45..<60: feed(.rotary(delta: chance(0.8) ? (chance(0.5) ? 1 : -1) : Int.random(in: -40...40, using: &rng)))
        case 60..<75:
            let key = KeyName.allCases.randomElement(using: &rng)!
            feed(chance(0.5) ? .keyDown(key) : .keyUp(key))
        case 75..<90: pointer()
        case 90..<93: command()
        case 93..<99: controlLine()
        default: reload()
        }
    }

    private func touchStorm() {
        // Up to ten fingers; the first one drives, the rest must be ignored without harm.
        let slot = chance(0.7) ? 0 : Int.random(in: 1..<10, using: &rng)
        if !fingersDown.contains(slot) {
            fingersDown.insert(slot)
            feed(.touchDown(slot: slot, x: coordinate(width), y: coordinate(height)))
        } else if chance(0.85) {
            feed(.touchMotion(slot: slot, x: coordinate(width), y: coordinate(height)))
        } else {
            fingersDown.remove(slot)
            feed(chance(0.8) ? .touchUp(slot: slot) : .touchCancel(slot: slot))
        }
    }

    private func pointer() {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: pointerDown.toggle(); feed(.pointerButton(pressed: pointerDown))
        case 1: feed(.pointerAxis(delta: Double.random(in: -5...5, using: &rng)))
        default: feed(.pointerMotion(x: coordinate(width), y: coordinate(height)))
        }
    }

    /// What the idle timers and the demo send: intents, some with absurd arguments (the
    /// engine must clamp a `scrollTo` past the ends itself; the control socket never sends one).
    private func command() {
        let count = max(1, session.engine.itemCount)
        let intent: Intent
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: intent = .scrollTo(index: Int.random(in: -3...(count + 3), using: &rng),
                                   duration: chance(0.2) ? nil : Double.random(in: 0...2, using: &rng))
        case 1: intent = .home
        case 2: intent = .select
        default: intent = .cancel
        }
        report.commands += 1
        session.apply(intent, now: now)
        collect(session.takeEvents())
        check()
    }

    /// What a refused line must leave alone.
    private struct Snapshot: Equatable {
        var offset: Double, index: Int, moving: Bool, count: Int, ids: [String]
    }

    private func snapshot() -> Snapshot {
        let e = session.engine
        return Snapshot(offset: e.scrollOffset, index: e.currentIndex, moving: e.isMoving, count: e.itemCount,
                        ids: session.config.items.map(\.id))
    }

    /// One made-up control-socket line through the kiosk's reader and command handler: the
    /// verdict must be the one the generator expects, a refused line (or a refused command)
    /// must change nothing and get an error reply, an accepted one a well-formed `ok` reply.
    private func controlLine() {
        let line = ControlLineGenerator.make(count: session.engine.itemCount, using: &rng)
        let shown = " — line " + String(line.text.prefix(160)).debugDescription
        report.controlLines += 1
        let before = snapshot()
        switch ControlLineReader.read(line.bytes) {
        case .blank:
            if line.expectation != .blank { violation("a control line was ignored as blank", detail: shown) }
        case .refused(let refusal):
            report.refusedLines += 1
            if line.expectation != .refused { violation("a well-formed control line was refused (\(refusal.message))", detail: shown) }
            checkReply(ControlLineReader.replyLine(for: refusal), ok: false, shown)
            if !session.takeEvents().isEmpty || snapshot() != before { violation("a refused control line changed the carousel", detail: shown) }
        case .command(let parsed):
            if line.expectation != .command(parsed.command) {
                violation("a control line was read as \(parsed.command) instead of \(line.expectation)", detail: shown)
            }
            let reply = ControlCommandHandler.handle(parsed.command, behavior: behavior, now: now, effects: self)
            let replyLine = reply.line(command: parsed.command.name, requestID: parsed.requestID)
            switch reply {
            case .error:
                report.commandErrors += 1
                checkReply(replyLine, ok: false, shown)
                if !session.takeEvents().isEmpty || snapshot() != before {
                    violation("a control command answered with an error changed the carousel", detail: shown)
                }
            case .state(let s):
                checkReply(replyLine, ok: true, shown)
                if s.index != session.engine.currentIndex || s.itemCount != session.engine.itemCount || s.width != width {
                    violation("state reply differs from the carousel", detail: shown)
                }
            case .ok, .screenshot:
                checkReply(replyLine, ok: true, shown)
            case .reload(let adopted, _):
                checkReply(replyLine, ok: adopted, shown)
            }
            collect(session.takeEvents())
            check()
        }
    }

    /// A reply line must be one JSON object with `reply`, `ok` as expected, and `error` when not ok.
    private func checkReply(_ text: String, ok: Bool, _ shown: String) {
        guard !text.contains("\n"), let object = JSONValue.parse(text)?.objectValue,
              object["reply"]?.stringValue != nil, let isOK = object["ok"]?.boolValue else {
            violation("a control reply is not one JSON object with reply and ok", detail: shown + " — reply " + text.prefix(160).debugDescription)
            return
        }
        if isOK != ok { violation("a control reply says ok=\(isOK), expected \(ok)", detail: shown) }
        if !ok && (object["error"]?.stringValue ?? "").isEmpty { violation("an error reply without a message", detail: shown) }
    }

    @discardableResult
    private func reload() -> Bool {
        if chance(0.3) {
            // A broken file: must be rejected, the running configuration kept.
            let garbage = ["[carousel\ntype = ", "[!x]", "item_size = [1,", "\u{0}\u{1}\u{2}", "[[item]]\nid = 3\n[carousel]\ntype = \"nope\""]
            let text = garbage.randomElement(using: &rng)!
            if (try? ConfigLoader.parse(text, file: "/soak/broken.toml")) == nil { report.rejectedReloads += 1 }
            report.reloads += 1
            return false
        }
        configIndex = Int.random(in: 0..<configs.count, using: &rng)
        session.reload(configs[configIndex], now: now)
        report.reloads += 1
        collect(session.takeEvents())
        check()
        return true
    }

    private func feed(_ event: InputEvent) {
        report.events += 1
        session.handle(event, now: now)
        collect(session.takeEvents())
        check()
    }

    /// Ticks at the engine's rate while it moves, then jumps (the real loop disarms its timer).
    private func advance(to target: Double) {
        let dt = 1 / max(1, session.config.carousel.tickHz)
        while now < target {
            if session.isMoving {
                now = min(target, now + dt)
                report.ticks += 1
                collect(session.tick(now: now))
                check()
                drawIfDue()
            } else {
                now = target
            }
        }
        drawIfDue()
    }

    private func drawIfDue() {
        // The scene is laid out as often as a 60 Hz display would take a frame; the compositor
        // draws one for real at most every `drawInterval` of virtual time, which keeps hours of
        // virtual time affordable in a debug build while every code path still runs.
        guard session.needsFrame, now - lastLayout >= 1.0 / 60 else { return }
        lastLayout = now
        for q in session.quads() where !q.corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) || !(0...1).contains(q.alpha) {
            violation("quad with non-finite corners or alpha out of range")
        }
        guard now - lastFrame >= drawInterval else { return }
        lastFrame = now
        report.frames += 1
        _ = session.renderFrame()
    }

    private func collect(_ events: [TimedCarouselEvent]) {
        for e in events {
            log.write(e, items: session.config.items)
            report.carouselEvents[e.event.name, default: 0] += 1
            switch e.event {
            case .dragBegan: begin("drag")
            case .dragEnded: end("drag")
            case .decelerationBegan: begin("deceleration")
            case .decelerationEnded: end("deceleration")
            case .scrollAnimationBegan: begin("scroll_animation")
            case .scrollAnimationEnded: end("scroll_animation")
            case .currentIndexChanged(let i), .selected(let i):
                if i < 0 || i >= max(1, session.engine.itemCount) { violation("\(e.event.name) index \(i) out of range") }
            }
        }
    }

    private func begin(_ name: String) {
        if open[name] == true { violation("\(name)_began twice without \(name)_ended") }
        open[name] = true
    }

    private func end(_ name: String) {
        if open[name] != true { violation("\(name)_ended without \(name)_began") }
        open[name] = false
    }

    /// State stays finite and in range.
    private func check() {
        let e = session.engine
        if !e.scrollOffset.isFinite { violation("scroll offset is not finite") }
        if e.itemCount > 0 {
            if e.currentIndex < 0 || e.currentIndex >= e.itemCount { violation("current index out of range") }
            if !e.wraps {
                let slack = e.options.bounceDistance + 1e-9
                if e.scrollOffset < -slack || e.scrollOffset > Double(e.itemCount - 1) + slack {
                    violation("offset outside [−bounce, count−1+bounce] without wrapping")
                }
            }
        }
        let w = session.size.width, h = session.size.height
        if w != width || h != height { violation("view size changed to \(w)x\(h)") }
    }
}


/// The kiosk's side of the control commands in the soak: `reload` reloads among the soak's
/// configurations (or a broken one), `screenshot` writes the real frame into a temporary folder
/// (a path under a missing folder or too long fails, as on a kiosk), `state` reports the view.
extension SoakDriver: ControlEffects {
    func reload(reason: String) -> Bool { reload() }

    func writeScreenshot(to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: folder), (path as NSString).lastPathComponent.utf8.count <= 255 else {
            throw CocoaError(.fileNoSuchFile)
        }
        report.screenshots += 1
        // Every 16th for real (PNG encoding is the slow part of a debug build).
        guard report.screenshots % 16 == 1 else { return }
        try FileManager.default.createDirectory(at: screenshotFolder, withIntermediateDirectories: true)
        try ScreenshotWriter.write(session.frame, to: screenshotFolder.appendingPathComponent("shot.png").path)
    }

    var screenSize: (width: Int, height: Int) { (width, height) }
    var fps: Double { 0 }
    var foregroundActive: Bool { false }
    var blanked: Bool { false }
}
