#if canImport(Glibc)
import Glibc
#endif
import CarouselCore
import Logging
import Raster

/// The screen through DRM/KMS: dumb buffers in XRGB8888, one `drmModeSetCrtc`, then page flips
/// with completion events, at most one in flight.
///
/// - Pacing: a frame can be presented when the last flip completed. Drivers whose flips complete
///   long before the next vblank (virtual GPUs: bochs, virtio-gpu) would let the loop run
///   unthrottled, so when a flip completes in less than half a refresh period a cap on the
///   mode's refresh rate applies (`nextWakeTime` says when the next frame may go).
/// - Damage: every buffer receives the union of the damage since *it* was last written
///   (`BufferDamage`), copied (and rotated) from the loop's cached frame.
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
public final class DRMDisplay: DisplayBackend {
    public let options: DisplayOptions
    /// The card in use, e.g. `/dev/dri/card0`.
    public let devicePath: String
    /// The DRM file descriptor.
    public let fd: Int32

    public private(set) var size: (width: Int, height: Int) = (0, 0)
    public private(set) var refreshRate: Double = 60
    public private(set) var wantsFrame = true

    /// The connector driven (its name, e.g. `HDMI-A-1`).
    public var connectorName: String { connector.name }
    /// The mode set, or nil while no screen is connected.
    public var currentMode: DRMMode? { mode }

    // Figures (for `display-test`, `state` and tests).
    /// Frames shown (mode sets and page flips).
    public private(set) var framesPresented = 0
    /// Page flip completions received.
    public private(set) var flipsCompleted = 0
    /// Pixels copied into scan-out buffers.
    public private(set) var pixelsCopied = 0
    /// Monotonic time of the first frame on screen.
    public private(set) var firstFrameTime: Double?
    /// What `close()` did to give the screen back (nil before).
    public private(set) var restoreSummary: String?
    /// True while the screen is switched off through DPMS (`setScreenPower(false)`).
    public private(set) var isScreenOff = false

    let system: DisplaySystem
    private var hotplug: HotplugMonitor?
    private let log = Logger(label: "kiosk.display.drm")
    private var resources: DRMResources
    private(set) var connector: DRMConnector
    private(set) var crtcID: UInt32
    private var mode: DRMMode?
    /// What the CRTC showed before we started (restored on close).
    private let saved: DRMCrtcState?
    private(set) var buffers: [DumbBuffer] = []
    private var damage: BufferDamage
    private let copier = ScanoutCopier()

    private(set) var hasMaster = true
    private(set) var isReleased = false
    private(set) var isClosed = false
    /// `drmModeSetCrtc` has put the current buffers on screen.
    private var modeSet = false
    private(set) var flipPending = false
    private var pendingBuffer = 0
    private var flipSubmitTime = 0.0
    private(set) var front = 0
    /// Flips complete early (no vblank pacing): apply the refresh-rate cap.
    private(set) var capActive = false
    private var nextSlot = 0.0
    private var retryMasterAt: Double?
    private var pendingResize = false
    /// The driver has no page flips: every frame is a mode set (+ DirtyFB).
    private var setCrtcPerFrame = false
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

    /// Opens the display described by `options` on this machine.
    public convenience init(options: DisplayOptions) throws {
        try self.init(options: options, system: LinuxDisplaySystem(), hotplug: UdevHotplugMonitor())
    }

    init(options: DisplayOptions, system: DisplaySystem, hotplug: HotplugMonitor?) throws {
        self.options = options
        self.system = system
        let card = try DRMProbe.openCard(options, system: system)
        devicePath = card.path
        fd = card.fd
        resources = card.resources
        connector = card.connector
        damage = BufferDamage(buffers: min(3, max(2, options.buffers)))
        let firstMode: DRMMode
        do {
            do { try system.drmSetMaster(card.fd) } catch let e as SystemCallError {
                throw DisplayError(.busy, "\(card.path) is in use: another program is DRM master (a display server "
                    + "such as Xorg, weston or a Wayland compositor, a getty with a graphical login, or another "
                    + "kiosk-carousel): stop it (e.g. systemctl stop display-manager) or run on a free VT (\(e))")
            }
            firstMode = try DRMProbe.chooseMode(options.mode, connector: card.connector)
            crtcID = try DRMProbe.chooseCrtc(fd: card.fd, connector: card.connector, resources: card.resources, system: system)
        } catch {
            system.close(card.fd)
            throw error
        }
        saved = try? system.drmCrtc(card.fd, id: crtcID)
        do { try configure(mode: firstMode) } catch {
            destroyBuffers()
            system.close(fd)
            isClosed = true
            throw error
        }
        self.hotplug = hotplug
        log.info("DRM \(devicePath) \(connector.name) \(mode.map { "\($0)" } ?? "-") on CRTC \(crtcID), \(buffers.count) buffers, rotation \(options.rotation.rawValue)")
    }

    deinit { close() }

    // MARK: DisplayBackend

    public var pollDescriptors: [Int32] {
        isClosed ? [] : [fd] + (hotplug.map { [$0.fd] } ?? [])
    }

    public var canPresent: Bool {
        guard isShowing, !flipPending else { return false }
        return !capActive || system.monotonicNow() >= nextSlot
    }

    public var nextWakeTime: Double? {
        if isClosed { return nil }
        if pendingResize { return system.monotonicNow() }
        if !hasMaster && !isReleased { return retryMasterAt }
        if flipPending { return flipSubmitTime + Self.flipTimeout }
        if isShowing && capActive && nextSlot > system.monotonicNow() { return nextSlot }
        return nil
    }

    public func present(_ frame: Canvas, damage rects: [PixelRect]) throws {
        damage.record(rects)
        guard isShowing, let mode else { return }
        guard frame.width == size.width, frame.height == size.height else {
            // Drawn for another size (a hotplug happened since): wait for the relaid-out frame.
            damage.invalidateAll(fullLogicalRect)
            wantsFrame = true
            return
        }
        let now = system.monotonicNow()
        guard !flipPending, !capActive || now >= nextSlot else {
            // Too early (the loop should check canPresent); the damage is kept for the next one.
            wantsFrame = true
            return
        }
        let back = (front + 1) % buffers.count
        let target = buffers[back].scanout
        for r in damage.take(back) { pixelsCopied += copier.copy(r, from: frame, to: target, rotation: options.rotation) }

        if !modeSet || setCrtcPerFrame {
            do {
                try system.drmSetCrtc(fd, crtc: crtcID, framebuffer: buffers[back].framebuffer, x: 0, y: 0,
                                      connectors: [connector.id], mode: mode)
            } catch let e as SystemCallError {
                if Self.meansMasterLost(e) { loseMaster(e); return }
                throw DisplayError(.failed, "setting mode \(mode) on \(connector.name) (\(devicePath)) failed: \(e)")
            }
            modeSet = true
            front = back
            markDirty(buffers[back].framebuffer)
            if firstFrameTime == nil {
                firstFrameTime = now
                log.info("\(devicePath): first frame on screen (\(mode))")
            }
            capActive = true  // no completion event to pace the next frame by
        } else {
            do {
                try system.drmPageFlip(fd, crtc: crtcID, framebuffer: buffers[back].framebuffer)
                flipPending = true
                pendingBuffer = back
                flipSubmitTime = now
                unconfirmedFlipSince = unconfirmedFlipSince ?? now
            } catch let e as SystemCallError {
                if Self.meansMasterLost(e) { loseMaster(e); return }
                if e.errno == EBUSY {
                    // A flip the kernel still has in flight: the buffer is up to date; show it next time.
                    wantsFrame = true
                    return
                }
                guard e.errno == EINVAL || e.errno == ENOSYS || e.errno == EOPNOTSUPP else {
                    throw DisplayError(.failed, "page flip on \(connector.name) (\(devicePath)) failed: \(e)")
                }
                log.warning("\(devicePath): no page flips (\(e)); using a mode set per frame")
                setCrtcPerFrame = true
                modeSet = false
                damage.record([fullLogicalRect])
                return try present(frame, damage: [])
            }
        }
        framesPresented += 1
        wantsFrame = false
        let period = 1 / max(1, refreshRate)
        nextSlot = (now - nextSlot) < period ? nextSlot + period : now + period
    }

    public var health: DisplayHealth {
        guard isShowing else { return .notShowing }
        if let t = unconfirmedFlipSince, system.monotonicNow() - t >= Self.flipTimeout { return .stalled(since: t) }
        return .showing
    }

    public func handleReadable(_ fd: Int32) -> Bool {
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
        if flipPending && now - flipSubmitTime >= Self.flipTimeout {
            log.warning("\(devicePath): page flip completion did not arrive within \(Self.flipTimeout) s; going on")
            completeFlip(at: now)
            wantsFrame = true  // a new flip shows whether flips complete again (`health` stays stalled until one does)
        }
        var changed = false
        if !hasMaster && !isReleased, let t = retryMasterAt, now >= t { changed = takeMasterBack() }
        if pendingResize { pendingResize = false; changed = true }
        return changed
    }

    public func release() {
        guard !isClosed, !isReleased else { return }
        drainFlip()
        // The next owner gets a screen that is on; `reacquire` switches it off again if still wanted.
        if hasMaster && isScreenOff { _ = applyDPMS(.on) }
        if hasMaster {
            do { try system.drmDropMaster(fd) } catch { log.warning("\(devicePath): dropping DRM master: \(error)") }
        }
        hasMaster = false
        isReleased = true
        modeSet = false
        log.info("\(devicePath): display released")
    }

    public func reacquire() {
        guard !isClosed, isReleased else { return }
        isReleased = false
        if takeMasterBack() { pendingResize = true }
        if !hasMaster { log.notice("\(devicePath): cannot take the display back yet; retrying every \(Self.masterRetryInterval) s") }
    }

    public func close() {
        guard !isClosed else { return }
        drainFlip()
        if !hasMaster && !isReleased { hasMaster = (try? system.drmSetMaster(fd)) != nil }
        if hasMaster {
            if usedDPMS, let problem = applyDPMS(.on) { log.warning("\(devicePath): \(problem)") }
            restoreSummary = restore()
            log.info("\(devicePath): \(restoreSummary ?? "")")
        } else {
            restoreSummary = "not DRM master: the screen stays with its current owner"
        }
        destroyBuffers()
        if hasMaster { try? system.drmDropMaster(fd) }
        hasMaster = false
        hotplug?.close()
        hotplug = nil
        system.close(fd)
        isClosed = true
    }

    public func setScreenPower(_ on: Bool) -> ScreenPowerResult {
        guard !isClosed else { return .unsupported(reason: "\(devicePath) is closed") }
        return on ? screenOn() : screenOff()
    }

    /// The bookkeeping in one line (for debugging output).
    public var debugState: String {
        "master=\(hasMaster) released=\(isReleased) mode=\(mode.map { "\($0)" } ?? "-") buffers=\(buffers.count) "
            + "flipPending=\(flipPending) capActive=\(capActive) nextSlot=\(nextSlot) modeSet=\(modeSet) front=\(front) "
            + "screenOff=\(isScreenOff)"
    }

    // MARK: screen power

    private func screenOff() -> ScreenPowerResult {
        if isScreenOff { return .switched(.dpms) }
        guard hasMaster && !isReleased else {
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
        modeSet = false
        damage.invalidateAll(fullLogicalRect)
        wantsFrame = true
        guard hasMaster && !isReleased else { return .switched(.dpms) }  // put back with master
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

    /// Drawing is possible: ours, not released, a screen connected and switched on.
    private var isShowing: Bool { !isClosed && !isReleased && hasMaster && !isScreenOff && mode != nil && !buffers.isEmpty }

    private var fullLogicalRect: PixelRect { PixelRect(x: 0, y: 0, width: size.width, height: size.height) }

    /// EACCES/EPERM from a mode set or flip: someone else is master now.
    static func meansMasterLost(_ e: SystemCallError) -> Bool { e.errno == EACCES || e.errno == EPERM }

    /// Sets up buffers for `m` (reusing them when the size did not change) and the derived state.
    private func configure(mode m: DRMMode) throws {
        if buffers.first.map({ $0.width != m.width || $0.height != m.height }) ?? true {
            destroyBuffers()
            for _ in 0..<damage.pending.count {
                buffers.append(try DumbBuffer.create(fd: fd, width: m.width, height: m.height, system: system))
            }
        }
        mode = m
        refreshRate = m.refreshRate > 0 ? m.refreshRate : 60
        size = options.rotation.logicalSize(physicalWidth: m.width, physicalHeight: m.height)
        modeSet = false
        front = 0
        damage.invalidateAll(fullLogicalRect)
        wantsFrame = true
    }

    private func destroyBuffers() {
        buffers.forEach { $0.destroy(fd: fd, system: system) }
        buffers = []
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
        if !completions.isEmpty && flipPending { completeFlip(at: system.monotonicNow()) }
    }

    private func completeFlip(at now: Double) {
        flipPending = false
        front = pendingBuffer
        flipsCompleted += 1
        firstFrameTime = firstFrameTime ?? now
        // A flip that took less than half a period did not wait for a vblank: cap the rate.
        capActive = (now - flipSubmitTime) < 0.5 / max(1, refreshRate)
    }

    /// Waits (up to 0.1 s) for a flip in flight to complete, so buffers can be freed and the
    /// CRTC changed.
    private func drainFlip() {
        unconfirmedFlipSince = nil
        guard flipPending else { return }
        if system.waitReadable(fd, timeout: 0.1) { readFlipEvents() }
        if flipPending { completeFlip(at: system.monotonicNow()) }
    }

    private func loseMaster(_ e: SystemCallError) {
        hasMaster = false
        modeSet = false
        flipPending = false
        unconfirmedFlipSince = nil
        retryMasterAt = system.monotonicNow() + Self.masterRetryInterval
        log.notice("\(devicePath): lost DRM master (\(e)); not drawing until the display comes back")
    }

    /// `drmSetMaster`; on success re-probes (the other program may have changed the mode) and
    /// asks for a full frame. Returns true when the size changed.
    private func takeMasterBack() -> Bool {
        do { try system.drmSetMaster(fd) } catch {
            retryMasterAt = system.monotonicNow() + Self.masterRetryInterval
            return false
        }
        hasMaster = true
        retryMasterAt = nil
        modeSet = false
        damage.invalidateAll(fullLogicalRect)
        wantsFrame = true
        log.info("\(devicePath): took the display back")
        let changed = reprobe()
        // The other program may have switched the screen on (a mode set does): put DPMS back to
        // what the kiosk wants. If Off fails, drawing resumes and the caller's black frame shows.
        if usedDPMS, hasMaster, let problem = applyDPMS(isScreenOff ? .off : .on) {
            log.warning("\(devicePath): \(problem)")
            isScreenOff = false
        }
        return changed
    }

    /// Looks at the connector again after a hotplug event (or taking the display back).
    /// Returns true when `size` changed.
    func reprobe() -> Bool {
        guard !isClosed else { return false }
        if isReleased { return false }  // reacquire() re-probes
        var target: DRMConnector? = (try? system.drmConnector(fd, id: connector.id)).flatMap { $0.connected && !$0.modes.isEmpty ? $0 : nil }
        if target == nil && options.connector == nil, let res = try? system.drmResources(fd) {
            resources = res
            target = res.connectors.lazy.compactMap { try? self.system.drmConnector(self.fd, id: $0) }
                .first { $0.connected && !$0.modes.isEmpty }
        }
        let old = size
        guard let target else {
            guard mode != nil else { return false }
            drainFlip()
            if hasMaster { try? system.drmSetCrtc(fd, crtc: crtcID, framebuffer: 0, x: 0, y: 0, connectors: [], mode: nil) }
            destroyBuffers()
            mode = nil
            modeSet = false
            size = (0, 0)
            log.notice("\(devicePath): \(connector.name) unplugged; running without a screen")
            return old != size
        }
        var newMode: DRMMode
        do { newMode = try DRMProbe.chooseMode(options.mode, connector: target) } catch {
            log.warning("\(error); using the preferred mode of \(target.name)")
            guard let m = try? DRMProbe.chooseMode(nil, connector: target) else { return false }
            newMode = m
        }
        if target.id == connector.id, let current = mode, current.sameTiming(as: newMode), !buffers.isEmpty {
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
            mode = nil
            size = (0, 0)
            return old != size
        }
        log.notice("\(devicePath): \(connector.name) now \(newMode); laying out \(size.width)x\(size.height)")
        return old != size
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
