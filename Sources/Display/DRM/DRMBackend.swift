#if canImport(Glibc)
import Glibc
#endif
import CarouselCore
import Logging
import Raster

/// The screen through DRM/KMS: dumb buffers in XRGB8888, one `drmModeSetCrtc`, then page flips
/// with completion events, at most one in flight.
///
/// State (`DRMState.swift`): `ownership` (owned / released / lost with a retry time), `output`
/// (unplugged / configured: mode, buffers, presenter, front buffer), `flip` (idle / pending:
/// buffer, submit time, frame sequence) and `pacing` (flip events / the clock).
///
/// Its slots are the configured output's dumb buffers (2 or 3, `[display] buffers`); the
/// `Output` around it (`DRMDisplay`) keeps their damage, copies frames into them and paces by
/// the clock when `pacing` says so.
///
/// - Presenter: chosen when the output is configured. Page flips unless the driver has refused
///   one (EINVAL/ENOSYS/EOPNOTSUPP): then the output is configured again with a mode set per
///   frame, the refused frame is shown that way, and every later configure (hotplug, a new
///   mode) uses mode sets from the start.
/// - Pacing (`pacing`, which the output follows; the loop only asks `canPresent` and
///   `nextWakeTime`): a frame can be presented when the last flip completed. Drivers whose flips
///   complete long before the next vblank (virtual GPUs: bochs, virtio-gpu) would let the loop
///   run unthrottled, so when a flip completes in less than half a refresh period, and after
///   every mode set, the output's cap on the mode's refresh rate applies (`OutputPacing.clock`).
/// - Damage: the output gives every buffer the union of the damage since *it* was last written
///   (`BufferDamage`); a new mode, new buffers or master taken back make them unknown
///   (`OutputEvents.slotsLost`).
/// - Feedback: the output numbers every frame sent to the screen (`frameSequence`); a page flip's
///   completion is reported with the flip event's kernel vblank timestamp, CRTC and vblank
///   counter (`page_flip_handler2`, `OutputEvents.commitCompleted`), a mode set as shown when the
///   call returned (`CommitOutcome.shown`).
/// - DRM master: losing it (a page flip or mode set fails with EACCES/EPERM) stops drawing
///   without an error; the backend tries to take it back once a second and then asks for a
///   frame (`wantsFrame`). `release()`/`reacquire()` give it away and take it back on request.
/// - Hotplug: a udev `drm` event re-probes the connector; unplugged → `size` becomes zero and
///   nothing is drawn; plugged in again or a new preferred mode → the mode is set again and
///   `handleReadable` returns true so the scene is laid out for the new size.
/// - Screen power (`setScreenPower`): the connector's `DPMS` property. Off: a flip in flight is
///   waited for, then nothing is presented (a flip on an inactive CRTC fails with EINVAL on
///   atomic drivers) while frames are still accepted as damage. On: DPMS On, then a full mode
///   set (the CRTC may have been turned off by a hotplug meanwhile, or the mode changed) and the
///   current frame. Lost or given-away master, hotplug and reacquiring keep the wanted state: the
///   property is put back to it when master comes back. No property or a failing ioctl: the
///   result says unsupported and the caller shows a black frame.
/// - Health (`health`, for the watchdog): a flip whose completion does not come within
///   `flipTimeout` is given up on (drawing goes on) but the display reports `.stalled` from its
///   submission until some flip completes; `KIOSK_TEST_FAULT=wedge-flip` drops completions (tests).
/// - `close()` waits for a pending flip, switches DPMS back on if it was used, restores the
///   CRTC, framebuffer and mode that were there before (the console), frees the buffers and
///   drops master.
public final class DRMBackend: OutputBackend {
    public let options: DisplayOptions
    /// The card in use, e.g. `/dev/dri/card0`.
    public let devicePath: String
    /// The DRM file descriptor.
    public let fd: Int32

    public var screenSize: (width: Int, height: Int) {
        guard let mode = currentMode else { return (0, 0) }
        return options.rotation.logicalSize(physicalWidth: mode.width, physicalHeight: mode.height)
    }
    public var rotation: DisplayRotation { options.rotation }
    public private(set) var refreshRate: Double = 60
    /// `[display] buffers`, 2 or 3.
    public var slotCount: Int { min(3, max(2, options.buffers)) }

    /// The connector driven (its name, e.g. `HDMI-A-1`).
    public var connectorName: String { connector.name }
    /// The mode set (or whose buffers are being made), or nil while no screen is connected.
    public var currentMode: DRMMode? {
        if let making { return making.mode }
        guard case .configured(let out) = output else { return nil }
        return out.mode
    }

    /// What `close()` did to give the screen back (nil before).
    public private(set) var restoreSummary: String?
    /// True while the screen is switched off through DPMS (`setScreenPower(false)`): the state
    /// the kiosk wants, kept across losing master, hotplug and release.
    public private(set) var isScreenOff = false

    let system: DisplaySystem
    private var hotplug: HotplugMonitor?
    private let log = Logger(label: "kiosk.display.drm")
    private var resources: DRMResources
    private(set) var connector: DRMConnector
    private(set) var crtcID: UInt32
    /// What the CRTC showed before we started (restored on close).
    private let saved: DRMCrtcState?
    private weak var events: (any OutputEvents)?

    private(set) var ownership: DRMOwnership = .owned
    private(set) var output: DRMOutput = .unplugged
    /// The first mode's buffers while a thread makes them (`ScanoutBufferMaking`): the output is
    /// configured with them when they are first needed (`finishMaking`).
    private var making: ScanoutBufferMaking?
    private(set) var flip: DRMFlip = .idle
    public private(set) var pacing: OutputPacing = .clock
    /// The presenter the next configure chooses: page flips until the driver refuses one.
    private(set) var presenterForDevice: DRMPresenter = .pageFlip
    private(set) var isClosed = false
    /// Taking the display back changed the size: `handleWake` reports it.
    private var relayoutDue = false
    private var dirtyFBUnsupported = false
    /// DPMS was switched by us at least once: put it back to the wanted state when master comes
    /// back, and On when closing.
    private var usedDPMS = false

    /// When the oldest page flip not confirmed by its completion event was submitted (flips given
    /// up on by the timeout stay unconfirmed); nil after a completion, and after a drain, master
    /// loss or release (no frame is owed then). Feeds `health`.
    private var unconfirmedFlipSince: Double?
    /// `KIOSK_TEST_FAULT=wedge-flip`: flip completion events are read and dropped (tests only).
    private let testFault = DisplayTestFault.current
    /// Seconds after which a flip whose completion never arrived is given up on.
    static let flipTimeout = 1.0
    /// Seconds between attempts to take DRM master back.
    static let masterRetryInterval = 1.0

    // For tests and `debugState`.
    /// The scan-out buffers of the configured output (none while unplugged); waits for buffers
    /// being made.
    var buffers: [DumbBuffer] {
        finishMaking()
        guard case .configured(let out) = output else { return [] }
        return out.buffers
    }
    /// True while a page flip is in flight.
    var flipPending: Bool { flip != .idle }
    /// The presenter of the configured output.
    var presenter: DRMPresenter? {
        finishMaking()
        guard case .configured(let out) = output else { return nil }
        return out.presenter
    }

    /// Opens the display described by `options` through `system`. The first mode's buffers are
    /// made on a thread of their own when `system.makesScanoutBuffersInBackground` (the real
    /// system): then buffers that cannot be made are a logged error and no screen, as after an
    /// unplug, when the first frame is copied out; otherwise they are made here and such an
    /// error is thrown.
    init(options: DisplayOptions, system: DisplaySystem, hotplug: HotplugMonitor?) throws {
        self.options = options
        self.system = system
        let card = try DRMProbe.openCard(options, system: system)
        devicePath = card.path
        fd = card.fd
        resources = card.resources
        connector = card.connector
        let firstMode: DRMMode
        do {
            do { try system.drmSetMaster(card.fd) } catch let e as SystemCallError {
                throw DisplayError(.busy, "\(card.path) is in use: another program is DRM master (a display server "
                    + "such as Xorg, weston or a Wayland compositor, a getty with a graphical login, or another "
                    + "kiosk-carousel): stop it (e.g. systemctl stop display-manager) or run on a free VT",
                                   underlying: e, parenthesized: true)
            }
            firstMode = try DRMProbe.chooseMode(options.mode, connector: card.connector)
            crtcID = try DRMProbe.chooseCrtc(fd: card.fd, connector: card.connector, resources: card.resources, system: system)
        } catch {
            system.close(card.fd)
            throw error
        }
        saved = try? system.drmCrtc(card.fd, id: crtcID)
        if system.makesScanoutBuffersInBackground {
            making = ScanoutBufferMaking(mode: firstMode, count: slotCount, fd: fd, system: system)
            refreshRate = Self.refreshRate(of: firstMode)
        } else {
            do { try configure(mode: firstMode) } catch {
                destroyBuffers()
                system.close(fd)
                isClosed = true
                throw error
            }
        }
        self.hotplug = hotplug
    }

    deinit { close() }

    // MARK: OutputBackend

    public var pollDescriptors: [Int32] {
        isClosed ? [] : [fd] + (hotplug.map { [$0.fd] } ?? [])
    }

    public var isIdle: Bool { flip == .idle }

    public var nextWakeTime: Double? {
        if isClosed { return nil }
        if relayoutDue { return system.monotonicNow() }
        if case .lost(let retryAt) = ownership { return retryAt }
        if case .pending(_, let since, _) = flip { return since + Self.flipTimeout }
        return nil
    }

    public func attach(_ events: any OutputEvents) { self.events = events }

    /// The buffer after the front one; nil when the first mode's buffers, made on their own
    /// thread, could not be made (the output is unplugged then).
    public func acquireSlot() -> (index: Int, buffer: ScanoutBuffer)? {
        finishMaking()
        guard case .configured(let out) = output else { return nil }
        let back = (out.front + 1) % out.buffers.count
        return (back, out.buffers[back].scanout)
    }

    /// A mode set when one is due (the first frame, master taken back, screen on again) or the
    /// driver refuses flips, else a page flip; a refused flip makes the presenter mode sets, for
    /// this frame and every later configure.
    public func commit(slot back: Int, sequence: UInt64, at now: Double) throws -> CommitOutcome {
        finishMaking()
        guard case .configured(var out) = output else { preconditionFailure("commit without a configured output") }
        var outcome = out.needsModeSet || out.presenter == .setCrtcPerFrame
            ? try setCrtc(out, buffer: back) : try pageFlip(out, buffer: back)
        if case .flipsRefused(let e) = outcome {
            // The presenter is chosen again, once: this frame and every later configure use mode sets.
            log.warning("\(devicePath): no page flips (\(e)); using a mode set per frame")
            presenterForDevice = .setCrtcPerFrame
            out.presenter = .setCrtcPerFrame
            out.needsModeSet = true
            output = .configured(out)
            outcome = try setCrtc(out, buffer: back)
        }
        switch outcome {
        case .masterLost(let e):
            loseMaster(e)
            return .dropped
        case .busy:
            // A flip the kernel still has in flight: the buffer is up to date; show it next time.
            return .busy
        case .flipsRefused:
            return .dropped  // not reached: a mode set does not answer so
        case .shown:
            out.needsModeSet = false
            out.front = back
            output = .configured(out)
            markDirty(out.buffers[back].framebuffer)
            pacing = .clock  // no completion event to pace the next frame by
            return .shown(crtcID: crtcID)
        case .flipping:
            flip = .pending(buffer: back, since: now, sequence: sequence)
            unconfirmedFlipSince = unconfirmedFlipSince ?? now
            return .queued
        }
    }

    public func firstFrameShown() {
        log.info("\(devicePath): first frame on screen (\(currentMode.map { "\($0)" } ?? "-"))")
    }

    public var health: DisplayHealth {
        guard isShowing else { return .notShowing }
        if let t = unconfirmedFlipSince, system.monotonicNow() - t >= Self.flipTimeout { return .stalled(since: t) }
        return .showing
    }

    public func handleReadable(_ fd: Int32) -> Bool {
        finishMaking()
        if fd == self.fd && !isClosed {
            readFlipEvents()
            return false
        }
        if let h = hotplug, fd == h.fd, !isClosed {
            return h.receiveChanges() ? reprobe() : false
        }
        return false
    }

    public func handleWake() -> Bool {
        guard !isClosed else { return false }
        let now = system.monotonicNow()
        if case .pending(_, let since, _) = flip, now - since >= Self.flipTimeout {
            log.warning("\(devicePath): page flip completion did not arrive within \(Self.flipTimeout) s; going on")
            completeFlip(nil, at: now)
            events?.frameWanted()  // a new flip shows whether flips complete again (`health` stays stalled until one does)
        }
        var changed = false
        if case .lost(let retryAt) = ownership, now >= retryAt { changed = takeMasterBack() }
        if relayoutDue { relayoutDue = false; changed = true }
        return changed
    }

    public func release() {
        finishMaking()
        guard !isClosed, ownership != .released else { return }
        drainFlip()
        // The next owner gets a screen that is on; `reacquire` switches it off again if still wanted.
        if ownership == .owned && isScreenOff { _ = applyDPMS(.on) }
        if ownership == .owned {
            do { try system.drmDropMaster(fd) } catch { log.warning("\(devicePath): dropping DRM master: \(error)") }
        }
        ownership = .released
        requireModeSet()
        log.info("\(devicePath): display released")
    }

    public func reacquire() {
        finishMaking()
        guard !isClosed, ownership == .released else { return }
        ownership = .lost(retryAt: system.monotonicNow())
        if takeMasterBack() { relayoutDue = true }
        if case .lost = ownership { log.notice("\(devicePath): cannot take the display back yet; retrying every \(Self.masterRetryInterval) s") }
    }

    public func close() {
        finishMaking()
        guard !isClosed else { return }
        drainFlip()
        if case .lost = ownership, (try? system.drmSetMaster(fd)) != nil { ownership = .owned }
        if ownership == .owned {
            if usedDPMS, let problem = applyDPMS(.on) { log.warning("\(devicePath): \(problem)") }
            restoreSummary = restore()
            log.info("\(devicePath): \(restoreSummary ?? "")")
        } else {
            restoreSummary = "not DRM master: the screen stays with its current owner"
        }
        destroyBuffers()
        if ownership == .owned { try? system.drmDropMaster(fd) }
        ownership = .released
        hotplug?.close()
        hotplug = nil
        system.close(fd)
        isClosed = true
    }

    public func setScreenPower(_ on: Bool) -> ScreenPowerResult {
        finishMaking()
        guard !isClosed else { return .unsupported(reason: "\(devicePath) is closed") }
        return on ? screenOn() : screenOff()
    }

    /// The bookkeeping in one line (for debugging output).
    public var debugState: String {
        finishMaking()
        let out: String
        switch output {
        case .unplugged: out = "unplugged"
        case .configured(let o): out = "\(o.mode) buffers=\(o.buffers.count) presenter=\(o.presenter) front=\(o.front) needsModeSet=\(o.needsModeSet)"
        }
        return "ownership=\(ownership) output=\(out) flip=\(flip) pacing=\(pacing) screenOff=\(isScreenOff)"
    }

    // MARK: screen power

    private func screenOff() -> ScreenPowerResult {
        if isScreenOff { return .switched(.dpms) }
        guard ownership == .owned else {
            return .unsupported(reason: "\(devicePath) is not DRM master now; cannot set DPMS")
        }
        drainFlip()
        if let problem = applyDPMS(.off) { return .unsupported(reason: problem) }
        isScreenOff = true
        return .switched(.dpms)
    }

    private func screenOn() -> ScreenPowerResult {
        guard isScreenOff else { return .unsupported(reason: "the screen of \(devicePath) was not switched off") }
        isScreenOff = false
        // Whatever happened while off (a hotplug turning the CRTC off, a new mode), a full mode
        // set with the whole frame brings the picture back; with an unchanged mode the kernel
        // does no real mode set.
        requireModeSet()
        events?.slotsLost()
        guard ownership == .owned else { return .switched(.dpms) }  // put back with master
        if let problem = applyDPMS(.on) {
            return .unsupported(reason: problem + "; the mode set turns the screen on")
        }
        return .switched(.dpms)
    }

    /// Sets the connector's DPMS property. Returns nil, or the problem in one line (no such
    /// property, the ioctl failed). Losing master on the way is handled as in `present`.
    private func applyDPMS(_ level: ConnectorDPMS.Level) -> String? {
        let dpms: ConnectorDPMS
        do {
            guard let found = try ConnectorDPMS.find(fd: fd, connector: connector.id, system: system) else {
                return "connector \(connector.name) has no DPMS property"
            }
            dpms = found
        } catch {
            return "reading the properties of connector \(connector.name) failed: \(error)"
        }
        do { try dpms.set(level, fd: fd, connector: connector.id, system: system) } catch {
            if let e = error as? SystemCallError, Self.meansMasterLost(e) { loseMaster(e) }
            return "setting DPMS \(level) on \(connector.name) failed: \(error)"
        }
        usedDPMS = true
        return nil
    }

    // MARK: internals

    /// Drawing is possible: ours, a screen connected and switched on.
    public var isShowing: Bool {
        guard !isClosed, ownership == .owned, !isScreenOff else { return false }
        if making != nil { return true }
        guard case .configured = output else { return false }
        return true
    }

    /// EACCES/EPERM from a mode set or flip: someone else is master now.
    static func meansMasterLost(_ e: SystemCallError) -> Bool { e.errno == EACCES || e.errno == EPERM }

    /// What showing one buffer came to.
    private enum ShowOutcome {
        /// On screen now (a mode set).
        case shown
        /// A page flip is queued; its event says when it is on screen.
        case flipping
        /// The kernel still has a flip in flight (EBUSY).
        case busy
        /// Another program is master now.
        case masterLost(SystemCallError)
        /// The driver has no page flips (EINVAL, ENOSYS, EOPNOTSUPP).
        case flipsRefused(SystemCallError)
    }

    /// `drmModeSetCrtc` with `buffer`: the first frame of a page-flip output, every frame of a
    /// set-CRTC one.
    private func setCrtc(_ out: DRMConfiguredOutput, buffer: Int) throws -> ShowOutcome {
        do {
            try system.drmSetCrtc(fd, crtc: crtcID, framebuffer: out.buffers[buffer].framebuffer, x: 0, y: 0,
                                  connectors: [connector.id], mode: out.mode)
        } catch let e as SystemCallError {
            if Self.meansMasterLost(e) { return .masterLost(e) }
            throw DisplayError(.failed, "setting mode \(out.mode) on \(connector.name) (\(devicePath)) failed", underlying: e)
        }
        return .shown
    }

    /// `drmModePageFlip` to `buffer`, with a completion event.
    private func pageFlip(_ out: DRMConfiguredOutput, buffer: Int) throws -> ShowOutcome {
        do {
            try system.drmPageFlip(fd, crtc: crtcID, framebuffer: out.buffers[buffer].framebuffer)
        } catch let e as SystemCallError {
            if Self.meansMasterLost(e) { return .masterLost(e) }
            if e.errno == EBUSY { return .busy }
            guard e.errno == EINVAL || e.errno == ENOSYS || e.errno == EOPNOTSUPP else {
                throw DisplayError(.failed, "page flip on \(connector.name) (\(devicePath)) failed", underlying: e)
            }
            return .flipsRefused(e)
        }
        return .flipping
    }

    /// Sets up buffers for `m` (reusing them when the size did not change), chooses the
    /// presenter and resets the derived state; the next frame is a full mode set.
    private func configure(mode m: DRMMode) throws {
        var reused: [DumbBuffer]?
        if case .configured(let old) = output, let first = old.buffers.first, first.width == m.width, first.height == m.height {
            reused = old.buffers
        }
        let buffers: [DumbBuffer]
        if let reused { buffers = reused } else {
            destroyBuffers()
            buffers = try ScanoutBufferMaking.make(count: slotCount, width: m.width, height: m.height, fd: fd, system: system)
        }
        output = .configured(DRMConfiguredOutput(mode: m, buffers: buffers, presenter: presenterForDevice))
        refreshRate = Self.refreshRate(of: m)
        events?.slotsLost()
    }

    /// The rate frames are paced by on mode `m`: its own, or 60 when the mode does not say.
    private static func refreshRate(of m: DRMMode) -> Double { m.refreshRate > 0 ? m.refreshRate : 60 }

    /// Configures the output with the first mode's buffers once their thread has made them
    /// (waiting for it when it is still at work). When they could not be made they are tried
    /// once more here; failing again leaves the output unplugged, with the error in the journal,
    /// until a hotplug event configures it again. Called first by every entry point that uses
    /// the output, not by those the loop asks before drawing (`screenSize`, `isShowing`,
    /// `nextWakeTime`, `handleWake`).
    private func finishMaking() {
        guard let pending = making else { return }
        making = nil
        switch pending.wait() {
        case .success(let made):
            output = .configured(DRMConfiguredOutput(mode: pending.mode, buffers: made, presenter: presenterForDevice))
            events?.slotsLost()
        case .failure(let error):
            // Once more here: a failure of the moment (memory) may have passed.
            log.error("\(devicePath): cannot set up buffers for \(pending.mode): \(error); trying once more")
            do { try configure(mode: pending.mode) } catch {
                log.error("\(devicePath): cannot set up buffers for \(pending.mode): \(error); running without a screen")
            }
        }
    }

    /// Frees the buffers; the output is unplugged until configured again.
    private func destroyBuffers() {
        if case .configured(let out) = output { out.buffers.forEach { $0.destroy(fd: fd, system: system) } }
        output = .unplugged
    }

    /// Nothing of ours is on the CRTC any more (master lost or given away, screen off): the
    /// next frame is a mode set.
    private func requireModeSet() {
        guard case .configured(var out) = output else { return }
        out.needsModeSet = true
        output = .configured(out)
    }

    private func markDirty(_ framebuffer: UInt32) {
        guard !dirtyFBUnsupported else { return }
        do { try system.drmDirtyFramebuffer(fd, id: framebuffer) } catch let e as SystemCallError {
            // Drivers that scan memory out directly (bochs) say ENOSYS: not needed there.
            if e.errno == ENOSYS || e.errno == EOPNOTSUPP || e.errno == EINVAL { dirtyFBUnsupported = true }
            else { log.warning("\(devicePath): drmModeDirtyFB: \(e)") }
        } catch {}
    }

    private func readFlipEvents() {
        let completions: [DRMFlipCompletion]
        do { completions = try system.drmHandleEvents(fd) } catch {
            log.warning("\(devicePath): reading DRM events: \(error)")
            return
        }
        if testFault?.isOn(.wedgeFlip) == true { return }
        if !completions.isEmpty { unconfirmedFlipSince = nil }
        guard flip != .idle, let last = completions.last else { return }
        // Ours is the event of our CRTC (kernels before 4.12 say CRTC 0).
        completeFlip(completions.last { $0.crtcID == crtcID || $0.crtcID == 0 } ?? last, at: system.monotonicNow())
    }

    /// The flip in flight is on screen: by its event, or given up on (`event` nil).
    private func completeFlip(_ event: DRMFlipCompletion?, at now: Double) {
        guard case .pending(let buffer, let since, let sequence) = flip else { return }
        flip = .idle
        if case .configured(var out) = output, buffer < out.buffers.count {
            out.front = buffer
            output = .configured(out)
        }
        // A flip that took less than half a period did not wait for a vblank: cap the rate.
        pacing = (now - since) < 0.5 / max(1, refreshRate) ? .clock : .completionEvents
        if let event {
            events?.commitCompleted(FrameShown(sequence: sequence, time: event.time, timing: .vblank,
                                               crtcID: event.crtcID == 0 ? crtcID : event.crtcID, driverSequence: event.sequence), at: now)
        } else {
            events?.commitCompleted(FrameShown(sequence: sequence, time: now, timing: .timedOut, crtcID: crtcID), at: now)
        }
    }

    /// Waits (up to 0.1 s) for a flip in flight to complete, so buffers can be freed and the
    /// CRTC changed.
    private func drainFlip() {
        unconfirmedFlipSince = nil
        guard flip != .idle else { return }
        if system.waitReadable(fd, timeout: 0.1) { readFlipEvents() }
        if flip != .idle { completeFlip(nil, at: system.monotonicNow()) }
    }

    private func loseMaster(_ e: SystemCallError) {
        ownership = .lost(retryAt: system.monotonicNow() + Self.masterRetryInterval)
        requireModeSet()
        flip = .idle
        unconfirmedFlipSince = nil
        log.notice("\(devicePath): lost DRM master (\(e)); not drawing until the display comes back")
    }

    /// `drmSetMaster`; on success re-probes (the other program may have changed the mode) and
    /// asks for a full frame. Returns true when the size changed.
    private func takeMasterBack() -> Bool {
        do { try system.drmSetMaster(fd) } catch {
            ownership = .lost(retryAt: system.monotonicNow() + Self.masterRetryInterval)
            return false
        }
        ownership = .owned
        requireModeSet()
        events?.slotsLost()
        log.info("\(devicePath): took the display back")
        let changed = reprobe()
        // The other program may have switched the screen on (a mode set does): put DPMS back to
        // what the kiosk wants. If Off fails, drawing resumes and the caller's black frame shows.
        if usedDPMS, ownership == .owned, let problem = applyDPMS(isScreenOff ? .off : .on) {
            log.warning("\(devicePath): \(problem)")
            isScreenOff = false
        }
        return changed
    }

    /// Looks at the connector again after a hotplug event (or taking the display back).
    /// Returns true when `screenSize` changed.
    func reprobe() -> Bool {
        finishMaking()
        guard !isClosed else { return false }
        if ownership == .released { return false }  // reacquire() re-probes
        var target: DRMConnector? = (try? system.drmConnector(fd, id: connector.id)).flatMap { $0.connected && !$0.modes.isEmpty ? $0 : nil }
        if target == nil && options.connector == nil, let res = try? system.drmResources(fd) {
            resources = res
            target = res.connectors.lazy.compactMap { try? self.system.drmConnector(self.fd, id: $0) }
                .first { $0.connected && !$0.modes.isEmpty }
        }
        let old = screenSize
        guard let target else {
            guard case .configured = output else { return false }
            drainFlip()
            if ownership == .owned { try? system.drmSetCrtc(fd, crtc: crtcID, framebuffer: 0, x: 0, y: 0, connectors: [], mode: nil) }
            destroyBuffers()
            log.notice("\(devicePath): \(connector.name) unplugged; running without a screen")
            return old != screenSize
        }
        var newMode: DRMMode
        do { newMode = try DRMProbe.chooseMode(options.mode, connector: target) } catch {
            log.warning("\(error); using the preferred mode of \(target.name)")
            guard let m = try? DRMProbe.chooseMode(nil, connector: target) else { return false }
            newMode = m
        }
        if target.id == connector.id, let current = currentMode, current.sameTiming(as: newMode) {
            connector = target
            return false
        }
        drainFlip()
        if target.id != connector.id,
           let crtc = try? DRMProbe.chooseCrtc(fd: fd, connector: target, resources: resources, system: system) {
            crtcID = crtc
        }
        connector = target
        do { try configure(mode: newMode) } catch {
            log.error("\(devicePath): cannot set up buffers for \(newMode): \(error); running without a screen")
            destroyBuffers()
            return old != screenSize
        }
        log.notice("\(devicePath): \(connector.name) now \(newMode); laying out \(screenSize.width)x\(screenSize.height)")
        return old != screenSize
    }

    /// Puts back what the CRTC showed before we started.
    private func restore() -> String {
        guard let s = saved else {
            return "nothing saved to restore"
        }
        do {
            if s.framebuffer != 0, let m = s.mode {
                try system.drmSetCrtc(fd, crtc: s.id, framebuffer: s.framebuffer, x: s.x, y: s.y,
                                      connectors: [connector.id], mode: m)
                markDirty(s.framebuffer)
                return "restored CRTC \(s.id): framebuffer \(s.framebuffer), mode \(m)"
            }
            try system.drmSetCrtc(fd, crtc: s.id, framebuffer: 0, x: 0, y: 0, connectors: [], mode: nil)
            return "restored CRTC \(s.id): off, as before"
        } catch {
            return "could not restore CRTC \(s.id) (\(error)); the kernel console takes over when the device closes"
        }
    }
}
