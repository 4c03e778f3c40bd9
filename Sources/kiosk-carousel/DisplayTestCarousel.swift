import Display
import Foundation
import Kiosk
import LinuxSystem
import Logging

/// `display-test`'s carousel on the kiosk's reactor: each pass, before the frame pump draws, it
/// steps `Simulator` to the reactor's time (a `HeldClock`: monotonic time less the time held
/// while a shot or a handover runs, and while the first frame draws), takes the shots and the
/// handover that are due, and counts what the pump presented (`DisplayTestStats`). Its deadline
/// is the next engine step while something moves, the next shot, the run's end or the
/// display's own timer.
final class DisplayTestCarousel: FramePumpClient {
    /// A `--shot` being shown: the clock is held from its start until the screenshot is taken.
    private struct Shot {
        enum Phase {
            /// Waiting (up to `until`, monotonic) until the display can take the frame.
            case toPresent(until: Double)
            /// The frame was presented; waiting (up to `until`) until it is on screen.
            case toShow(until: Double)
        }
        var time: Double
        var name: String
        /// The reactor's time of the pass that found it due (the clock resumes at `time`).
        var passTime: Double
        var heldSince: Double
        var heldCPU: Double
        var phase: Phase
    }

    private let driver: Simulator
    private let display: DisplayBackend
    private unowned let reactor: Reactor
    private let clock: HeldClock
    private let steps: StepAnnouncer
    private let seconds: Double
    private var pendingShots: ArraySlice<(time: Double, path: String)>
    private var handover: (time: Double, command: String)?
    private var shot: Shot?
    /// A shot or a handover ended in this pass: it is the pass's only work (the pump draws
    /// nothing, motion is not looked at), and the next pass starts at once.
    private var passEnded = false
    /// The reactor's time when this pass began: the first frame holds the clock from it.
    private var passStart = 0.0
    /// The next frame presented says so (the display changed, or came back from a handover).
    private var announceFrame = false
    private(set) var stats: DisplayTestStats
    /// SIGTERM or SIGINT ended the run.
    private(set) var stopSignal: Int32?
    /// What ended the run with an error (a frame refused, the handover's program not started).
    private(set) var failure: Error?

    init(driver: Simulator, display: DisplayBackend, reactor: Reactor, clock: HeldClock, steps: StepAnnouncer,
         seconds: Double, shots: [(time: Double, path: String)], handover: (time: Double, command: String)?) {
        self.driver = driver; self.display = display
        self.reactor = reactor; self.clock = clock
        self.steps = steps; self.seconds = seconds
        pendingShots = shots[...]
        self.handover = handover
        stats = DisplayTestStats(startMonotonic: reactor.start)
    }

    /// Something moves or scripted input is still to come: the engine steps at its tick rate.
    private var isActive: Bool { driver.session.isMoving || driver.hasPendingInput }
    private var hasScreen: Bool { display.size.width > 0 && display.size.height > 0 }

    /// SIGTERM or SIGINT: a shot being shown is taken at once, then the run ends.
    func signalled(_ signal: Int32) {
        stopSignal = signal
        if shot != nil { continueShot() }
        reactor.stop()
    }

    // MARK: before the frame pump

    func prepare(now: Double) {
        passStart = now
        passEnded = false
        if shot != nil {
            continueShot()
            return
        }
        // A slow frame may jump past the end: shots still due are taken first.
        if now >= seconds && pendingShots.isEmpty {
            reactor.stop()
            return
        }
        let due = pendingShots.first.flatMap { $0.time <= now ? $0 : nil }
        driver.advance(to: due?.time ?? now)
        if driver.session.isMoving { stats.motion(true, at: MonotonicClock.now(), flips: flipCount(display)) }
        if let due {
            pendingShots = pendingShots.dropFirst()
            steps.begin("shot \(due.path)")
            shot = Shot(time: due.time, name: due.path, passTime: now, heldSince: MonotonicClock.now(),
                        heldCPU: DisplayTestStats.cpuSeconds(), phase: .toPresent(until: MonotonicClock.now() + 2))
            continueShot()
            return
        }
        if let h = handover, h.time <= now {
            handover = nil
            runHandover(h.command)
        }
    }

    var holdsFrames: Bool { shot != nil || passEnded }

    var nextDeadline: Double? {
        if failure != nil { return nil }
        if passEnded { return reactor.now }
        // The display is asked again every 20 ms while a shot waits for it.
        if shot != nil { return reactor.now + 0.02 }
        var due = seconds
        if isActive { due = min(due, driver.nextStepTime) }
        if let s = pendingShots.first { due = min(due, s.time) }
        // The display's timer is on the monotonic clock: so far ahead of now in the reactor's time.
        if let w = display.nextWakeTime { due = min(due, reactor.now + (w - MonotonicClock.now())) }
        if (driver.session.needsFrame || display.wantsFrame) && display.canPresent { due = reactor.now }
        return due
    }

    // MARK: what the frame pump says

    func framePresented(_ frame: PresentedFrame) {
        stats.framePresented(idle: !frame.sceneChanged && !isActive)
        if stats.framesPresented == 1 {
            // The first frame draws every visible card: hold the clock while it does, so the
            // script starts with the carousel on screen.
            clock.hold(max(0, reactor.now - passStart))
        }
        if stats.framesPresented == 1 || announceFrame {
            // Tests wait for these lines before taking screenshots or sending signals.
            let f = driver.session.frame
            print(stats.framesPresented == 1 ? "first frame presented" : "frame presented after the display changed (\(f.width)x\(f.height))")
            fflush(stdout)
            steps.begin("carousel")
            announceFrame = false
        }
    }

    func frameFailed(_ error: Error) { fail(error) }

    func displayChanged(width: Int, height: Int) {
        stats.resizes += 1
        announceFrame = true
    }

    /// After the frame pump: motion ends once its last frame is out (idle time starts after it).
    func afterFrame() {
        guard shot == nil, !passEnded, failure == nil else { return }
        if !driver.session.isMoving && !driver.session.needsFrame {
            stats.motion(false, at: MonotonicClock.now(), flips: flipCount(display))
        }
    }

    /// The run ended: motion and idle time are closed and the display's figures read.
    func finish() {
        stats.motion(false, at: MonotonicClock.now(), flips: flipCount(display))
        stats.finish(display: display)
    }

    // MARK: shots and the handover

    /// Shows the shot's frame in full once the display can take it, waits until it is on screen
    /// (each wait at most 2 s, cut short by a signal), then takes the screenshot and lets the
    /// clock resume at the shot's time.
    private func continueShot() {
        guard var s = shot else { return }
        let waiting = { (until: Double) in
            !self.display.canPresent && MonotonicClock.now() < until && self.stopSignal == nil
        }
        if case .toPresent(let until) = s.phase {
            if waiting(until) { return }
            if hasScreen {
                // At the shot's virtual time, as the pump draws and `simulate --shot` does.
                _ = driver.session.renderFrame(full: true, now: s.time)
                let frame = driver.session.frame
                do { try display.present(frame, damage: [frame.bounds]) } catch {
                    shot = nil
                    fail(error)
                    return
                }
                stats.framePresented(idle: false)
                s.phase = .toShow(until: MonotonicClock.now() + 2)
                shot = s
            }
        }
        if case .toShow(let until) = s.phase, waiting(until) { return }
        shot = nil
        takeShot(name: s.name, virtualTime: s.time)
        let heldFor = MonotonicClock.now() - s.heldSince
        stats.exclude(seconds: heldFor, cpu: DisplayTestStats.cpuSeconds() - s.heldCPU)
        // The clock resumes at the shot's time: the time spent holding does not count.
        clock.hold(max(0, heldFor + (s.passTime - s.time)))
        passEnded = true
    }

    /// Releases the display, runs `command` with /bin/sh (a full-screen program) and takes the
    /// display back; the clock is held meanwhile.
    private func runHandover(_ command: String) {
        steps.begin("handover")
        let held = MonotonicClock.now(), heldCPU = DisplayTestStats.cpuSeconds()
        display.release()
        print("display released; running: \(command)")
        fflush(stdout)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        do { try p.run() } catch {
            fail(error)
            return
        }
        p.waitUntilExit()
        display.reacquire()
        print("display taken back (the program exited with \(p.terminationStatus)); wants a frame: \(display.wantsFrame)")
        fflush(stdout)
        let heldFor = MonotonicClock.now() - held
        stats.exclude(seconds: heldFor, cpu: DisplayTestStats.cpuSeconds() - heldCPU)
        clock.hold(max(0, heldFor))
        announceFrame = true
        passEnded = true
    }

    private func fail(_ error: Error) {
        if failure == nil { failure = error }
        reactor.stop()
    }
}

/// `DisplayTestCarousel.afterFrame` as a reactor source registered after the frame pump.
final class DisplayTestAfterFrame: ReactorSource {
    private unowned let carousel: DisplayTestCarousel
    init(_ carousel: DisplayTestCarousel) { self.carousel = carousel }
    func prepare(now: Double) { carousel.afterFrame() }
}
