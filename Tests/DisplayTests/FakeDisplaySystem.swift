#if canImport(Glibc)
import Glibc
#endif
import CDRM
import Dispatch
import CKioskSys
@testable import Display

/// A `DisplaySystem` that models one DRM card (and optionally a framebuffer) in memory and
/// records every call, so tests can assert the exact sequence without hardware.
final class FakeDisplaySystem: DisplaySystem {
    // MARK: model
    var cards = ["card0"]
    /// open() errno per path (e.g. EACCES).
    var openErrors: [String: Int32] = [:]
    var connectors: [UInt32: DRMConnector] = [:]
    var connectorOrder: [UInt32] = []
    var crtcs: [UInt32: DRMCrtcState] = [41: DRMCrtcState(id: 41, framebuffer: 7, x: 0, y: 0, mode: DRMMode(width: 1024, height: 768, refresh: 60))]
    var encoders: [UInt32: DRMEncoder] = [31: DRMEncoder(id: 31, crtcID: 41, possibleCrtcs: 1)]
    var dumbSupported = true
    /// As the real system when true: the DRM output makes its first buffers on a thread of its
    /// own. Off by default: this fake is not safe to call from two threads at once, so a test
    /// that sets it calls nothing else until the buffers are taken.
    var makesScanoutBuffersInBackground = false
    /// What the next `drmCreateDumbBuffer` calls do, in turn: nil makes a buffer, an errno fails;
    /// once they are used up every call makes one.
    var createDumbResults: [Int32?] = []
    /// When set, `drmCreateDumbBuffer` waits for it (at most 10 s) before it makes a buffer.
    var dumbCreationGate: DispatchSemaphore?
    /// The thread of each `drmCreateDumbBuffer` call.
    private(set) var dumbCreationThreads: [pthread_t] = []
    /// True while our fd is DRM master.
    var isMaster = false
    /// Another program holds master: setMaster fails with EBUSY, flips with EACCES.
    var otherMaster = false
    /// Page flips fail with this errno (once each) when set.
    var pageFlipErrno: Int32?
    var dirtyErrno: Int32? = ENOSYS
    var now = 100.0
    /// Seconds a flip takes to complete (events become readable after it).
    var flipDuration = 0.0
    var pendingFlips: [(crtc: UInt32, fb: UInt32, at: Double)] = []
    var scannedOut: UInt32 = 7
    /// The CRTC's vblank counter as the flip events report it.
    var vblankCount: UInt32 = 1000
    /// The id of the connectors' `DPMS` property (nil: the driver has none). Other properties
    /// come before it, so a lookup must go by name.
    var dpmsPropertyID: UInt32? = 7
    /// The DPMS level per connector (0 On … 3 Off; absent: On).
    var dpms: [UInt32: UInt64] = [:]
    /// Reading connector properties / setting one fails with this errno when set.
    var propertiesErrno: Int32?
    var setPropertyErrno: Int32?
    /// The connectors each CRTC drives (from mode sets): a flip on a CRTC whose connector is
    /// DPMS Off fails with EINVAL, as on atomic drivers (the CRTC is inactive).
    var crtcConnectors: [UInt32: [UInt32]] = [:]
    private(set) var calls: [String] = []
    private var nextHandle: UInt32 = 1
    private var nextFB: UInt32 = 100
    var framebuffers: [UInt32: (handle: UInt32, width: Int, height: Int)] = [:]
    var dumbs: [UInt32: (pitch: UInt32, size: UInt64)] = [:]
    var mappings: [UnsafeMutableRawPointer: Int] = [:]
    let drmFD: Int32 = 10
    var openFDs: Set<Int32> = []

    // fbdev model
    var fbVar = fb_var_screeninfo()
    var fbFix = fb_fix_screeninfo()
    var fbMemory: UnsafeMutableRawPointer?
    var fbCanGrowVirtual = false
    var fbVSync = true
    var consoleGraphics = false
    /// FBIOBLANK fails with this errno when set; `fbBlanked` is the driver's state.
    var fbBlankErrno: Int32?
    var fbBlanked = false

    init(connectors list: [DRMConnector] = [FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", modes: [
        DRMMode(width: 1024, height: 768, refresh: 60, preferred: true), DRMMode(width: 800, height: 600, refresh: 60)])]) {
        for c in list { connectors[c.id] = c; connectorOrder.append(c.id) }
    }

    static func connector(id: UInt32, name: String, connected: Bool = true, modes: [DRMMode], encoder: UInt32 = 31) -> DRMConnector {
        DRMConnector(id: id, name: name, connected: connected, modes: connected ? modes : [], encoderID: connected ? encoder : 0, encoders: [encoder])
    }

    func callCount(_ prefix: String) -> Int { calls.filter { $0.hasPrefix(prefix) }.count }
    func clearCalls() { calls = [] }
    /// The pixels of framebuffer `fb` (XRGB8888, pitch = width * 4 here).
    func pixels(ofFramebuffer fb: UInt32) -> UnsafeMutablePointer<UInt32>? {
        guard let f = framebuffers[fb] else { return nil }
        return mappingsByHandle[f.handle]?.assumingMemoryBound(to: UInt32.self)
    }
    private var mappingsByHandle: [UInt32: UnsafeMutableRawPointer] = [:]
    private var offsets: [Int64: UInt32] = [:]

    // MARK: files and memory
    func open(_ path: String, flags: Int32) throws -> Int32 {
        calls.append("open \(path)")
        if let e = openErrors[path] { throw SystemCallError(call: "open \(path)", errno: e) }
        if path.hasPrefix("/dev/fb") {
            guard fbMemory != nil else { throw SystemCallError(call: "open", errno: ENOENT) }
            openFDs.insert(20); return 20
        }
        guard cards.contains(where: { "/dev/dri/\($0)" == path }) else { throw SystemCallError(call: "open \(path)", errno: ENOENT) }
        if !otherMaster && !isMaster { isMaster = true }  // the first opener becomes master
        openFDs.insert(drmFD)
        return drmFD
    }
    func close(_ fd: Int32) { calls.append("close \(fd)"); openFDs.remove(fd); if fd == drmFD { isMaster = false } }
    func directoryEntries(_ path: String) -> [String] { path == "/dev/dri" ? cards + ["renderD128", "by-path"] : [] }
    func exists(_ path: String) -> Bool { true }
    func mmap(length: Int, fd: Int32, offset: Int64) throws -> UnsafeMutableRawPointer {
        calls.append("mmap \(length)")
        if fd == 20, let m = fbMemory { return m + Int(offset) }
        let p = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 64)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        mappings[p] = length
        if let h = offsets[offset] { mappingsByHandle[h] = p }
        return p
    }
    func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        calls.append("munmap \(length)")
        if mappings.removeValue(forKey: address) != nil {
            mappingsByHandle = mappingsByHandle.filter { $0.value != address }
            address.deallocate()
        }
    }
    func monotonicNow() -> Double { now }
    func waitReadable(_ fd: Int32, timeout: Double) -> Bool {
        calls.append("poll \(fd)")
        if fd == drmFD, let f = pendingFlips.first { now = max(now, f.at); return true }
        return false
    }
    func setConsoleGraphicsMode(_ graphics: Bool) -> Bool { calls.append("kdsetmode \(graphics)"); consoleGraphics = graphics; return true }

    // MARK: DRM
    func drmSetMaster(_ fd: Int32) throws {
        calls.append("setMaster")
        if otherMaster { throw SystemCallError(call: "drmSetMaster", errno: EBUSY) }
        isMaster = true
    }
    func drmDropMaster(_ fd: Int32) throws { calls.append("dropMaster"); isMaster = false }
    func drmSupportsDumbBuffers(_ fd: Int32) -> Bool { dumbSupported }
    func drmResources(_ fd: Int32) throws -> DRMResources {
        DRMResources(crtcs: crtcs.keys.sorted(), encoders: encoders.keys.sorted(), connectors: connectorOrder)
    }
    func drmConnector(_ fd: Int32, id: UInt32) throws -> DRMConnector {
        guard let c = connectors[id] else { throw SystemCallError(call: "drmModeGetConnector", errno: ENOENT) }
        return c
    }
    func drmEncoder(_ fd: Int32, id: UInt32) throws -> DRMEncoder {
        guard let e = encoders[id] else { throw SystemCallError(call: "drmModeGetEncoder", errno: ENOENT) }
        return e
    }
    func drmCrtc(_ fd: Int32, id: UInt32) throws -> DRMCrtcState {
        guard let c = crtcs[id] else { throw SystemCallError(call: "drmModeGetCrtc", errno: ENOENT) }
        return c
    }
    func drmSetCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: UInt32, y: UInt32, connectors: [UInt32], mode: DRMMode?) throws {
        calls.append("setCrtc \(crtc) fb=\(framebuffer) conn=\(connectors) mode=\(mode.map { "\($0)" } ?? "-")")
        guard isMaster, !otherMaster else { throw SystemCallError(call: "drmModeSetCrtc", errno: EACCES) }
        crtcs[crtc] = DRMCrtcState(id: crtc, framebuffer: framebuffer, x: x, y: y, mode: mode)
        scannedOut = framebuffer
        crtcConnectors[crtc] = connectors
        // A mode set activates the CRTC: the kernel's atomic helper turns its connectors' DPMS On.
        if framebuffer != 0 { for c in connectors { dpms[c] = 0 } }
    }
    func drmCreateDumbBuffer(_ fd: Int32, width: Int, height: Int) throws -> DRMDumbBuffer {
        _ = dumbCreationGate?.wait(timeout: .now() + 10)
        dumbCreationThreads.append(pthread_self())
        if !createDumbResults.isEmpty, let e = createDumbResults.removeFirst() {
            calls.append("createDumb failed")
            throw SystemCallError(call: "drmModeCreateDumbBuffer", errno: e)
        }
        let h = nextHandle; nextHandle += 1
        let pitch = UInt32(width * 4)
        dumbs[h] = (pitch, UInt64(pitch) * UInt64(height))
        calls.append("createDumb \(width)x\(height)")
        return DRMDumbBuffer(handle: h, pitch: pitch, size: UInt64(pitch) * UInt64(height))
    }
    func drmMapDumbBuffer(_ fd: Int32, handle: UInt32) throws -> Int64 {
        let off = Int64(handle) << 20
        offsets[off] = handle
        return off
    }
    func drmDestroyDumbBuffer(_ fd: Int32, handle: UInt32) { calls.append("destroyDumb \(handle)"); dumbs[handle] = nil }
    func drmAddFramebuffer(_ fd: Int32, width: Int, height: Int, pitch: UInt32, handle: UInt32) throws -> UInt32 {
        let id = nextFB; nextFB += 1
        framebuffers[id] = (handle, width, height)
        calls.append("addFB \(id)")
        return id
    }
    func drmRemoveFramebuffer(_ fd: Int32, id: UInt32) { calls.append("rmFB \(id)"); framebuffers[id] = nil }
    func drmPageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws {
        calls.append("pageFlip fb=\(framebuffer)")
        if otherMaster || !isMaster { throw SystemCallError(call: "drmModePageFlip", errno: EACCES) }
        if let e = pageFlipErrno { throw SystemCallError(call: "drmModePageFlip", errno: e) }
        if !pendingFlips.isEmpty { throw SystemCallError(call: "drmModePageFlip", errno: EBUSY) }
        if (crtcConnectors[crtc] ?? []).contains(where: { (dpms[$0] ?? 0) != 0 }) {
            throw SystemCallError(call: "drmModePageFlip", errno: EINVAL)
        }
        pendingFlips.append((crtc, framebuffer, now + flipDuration))
    }
    func drmDirtyFramebuffer(_ fd: Int32, id: UInt32) throws {
        calls.append("dirtyFB \(id)")
        if let e = dirtyErrno { throw SystemCallError(call: "drmModeDirtyFB", errno: e) }
    }
    func drmHandleEvents(_ fd: Int32) throws -> [DRMFlipCompletion] {
        calls.append("handleEvents")
        let done = pendingFlips.filter { $0.at <= now }
        pendingFlips.removeAll { $0.at <= now }
        for f in done { scannedOut = f.fb; crtcs[f.crtc]?.framebuffer = f.fb }
        return done.map { f in
            vblankCount += 1
            return DRMFlipCompletion(crtcID: f.crtc, time: f.at, sequence: vblankCount)
        }
    }

    func drmConnectorProperties(_ fd: Int32, connector: UInt32) throws -> [DRMProperty] {
        calls.append("getProperties \(connector)")
        if let e = propertiesErrno { throw SystemCallError(call: "drmModeObjectGetProperties", errno: e) }
        guard connectors[connector] != nil else { throw SystemCallError(call: "drmModeObjectGetProperties", errno: ENOENT) }
        var list = [DRMProperty(id: 1, name: "EDID", value: 0), DRMProperty(id: 2, name: "link-status", value: 0)]
        if let id = dpmsPropertyID { list.append(DRMProperty(id: id, name: "DPMS", value: dpms[connector] ?? 0)) }
        return list
    }
    func drmConnectorSetProperty(_ fd: Int32, connector: UInt32, property: UInt32, value: UInt64) throws {
        calls.append("setProperty \(connector) \(property)=\(value)")
        guard isMaster, !otherMaster else { throw SystemCallError(call: "drmModeConnectorSetProperty", errno: EACCES) }
        if let e = setPropertyErrno { throw SystemCallError(call: "drmModeConnectorSetProperty", errno: e) }
        guard property == dpmsPropertyID, connectors[connector] != nil else {
            throw SystemCallError(call: "drmModeConnectorSetProperty", errno: EINVAL)
        }
        dpms[connector] = value
    }

    // MARK: fbdev
    func fbVariableInfo(_ fd: Int32) throws -> fb_var_screeninfo { fbVar }
    func fbFixedInfo(_ fd: Int32) throws -> fb_fix_screeninfo { fbFix }
    func fbPutVariableInfo(_ fd: Int32, _ info: inout fb_var_screeninfo) throws {
        calls.append("fbput yres_virtual=\(info.yres_virtual) yoffset=\(info.yoffset)")
        guard fbCanGrowVirtual || info.yres_virtual == fbVar.yres_virtual else { throw SystemCallError(call: "FBIOPUT_VSCREENINFO", errno: EINVAL) }
        fbVar = info
    }
    func fbPan(_ fd: Int32, _ info: fb_var_screeninfo) throws { calls.append("fbpan \(info.yoffset)"); fbVar.yoffset = info.yoffset }
    func fbBlank(_ fd: Int32, _ blank: Bool) throws {
        calls.append("fbblank \(blank)")
        if let e = fbBlankErrno { throw SystemCallError(call: "ioctl FBIOBLANK", errno: e) }
        fbBlanked = blank
    }
    func fbWaitForVSync(_ fd: Int32) throws {
        calls.append("vsync")
        if !fbVSync { throw SystemCallError(call: "FBIO_WAITFORVSYNC", errno: ENOTTY) }
    }

    /// A framebuffer device of `width × height` at `bpp` (32: XRGB, 16: RGB565), `pages` pages of
    /// virtual height, panning possible when `panStep` is not 0.
    func installFramebuffer(width: Int, height: Int, bpp: Int, pages: Int, panStep: UInt16 = 1, growable: Bool = false) {
        var v = fb_var_screeninfo()
        v.xres = UInt32(width); v.yres = UInt32(height); v.xres_virtual = UInt32(width); v.yres_virtual = UInt32(height * pages)
        v.bits_per_pixel = UInt32(bpp)
        if bpp == 32 { v.red.offset = 16; v.green.offset = 8; v.blue.offset = 0; v.red.length = 8; v.green.length = 8; v.blue.length = 8 }
        else { v.red.offset = 11; v.green.offset = 5; v.blue.offset = 0; v.red.length = 5; v.green.length = 6; v.blue.length = 5 }
        var f = fb_fix_screeninfo()
        f.line_length = UInt32(width * bpp / 8)
        let maxPages = growable ? 2 : pages
        f.smem_len = UInt32(Int(f.line_length) * height * maxPages)
        f.ypanstep = panStep
        fbVar = v; fbFix = f
        fbCanGrowVirtual = growable
        fbMemory = .allocate(byteCount: Int(f.smem_len), alignment: 64)
        fbMemory!.initializeMemory(as: UInt8.self, repeating: 0xAB, count: Int(f.smem_len))
    }

    deinit {
        for (p, _) in mappings { p.deallocate() }
        fbMemory?.deallocate()
    }
}

/// A hotplug monitor the test triggers by hand.
final class FakeHotplug: HotplugMonitor {
    let fd: Int32 = 30
    var pending = false
    private(set) var closed = false
    func receiveChanges() -> Bool { defer { pending = false }; return pending }
    func close() { closed = true }
}
