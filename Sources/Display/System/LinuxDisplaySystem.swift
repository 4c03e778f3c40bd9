#if canImport(Glibc)
import Glibc
#endif
import CDRM
import CKioskSys

/// The real `DisplaySystem`: libdrm, the fbdev ioctls (through CKioskSys) and POSIX calls.
final class LinuxDisplaySystem: DisplaySystem {
    init() {}

    /// Throws the current errno for `call` when `result` is negative (`drmSetMaster` style: -1
    /// and errno).
    private func check(_ result: Int32, _ call: String) throws {
        if result < 0 { throw SystemCallError(call: call, errno: errno) }
    }

    /// For calls that return -errno themselves (libdrm's `drmMode*` calls go through its
    /// `DRM_IOCTL` helper, which does; so do the CKioskSys wrappers).
    private func checkNegative(_ result: Int32, _ call: String) throws {
        if result < 0 { throw SystemCallError(call: call, errno: -result) }
    }

    // MARK: files and memory

    func open(_ path: String, flags: Int32) throws -> Int32 {
        try SystemCall.check("open \(path)") { Glibc.open(path, flags) }
    }

    func close(_ fd: Int32) { _ = Glibc.close(fd) }

    func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    func mmap(length: Int, fd: Int32, offset: Int64) throws -> UnsafeMutableRawPointer {
        let p = Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let p, p != MAP_FAILED else { throw SystemCallError(call: "mmap", errno: errno) }
        return p
    }

    func munmap(_ address: UnsafeMutableRawPointer, length: Int) { _ = Glibc.munmap(address, length) }

    func monotonicNow() -> Double { MonotonicClock.now() }

    func waitReadable(_ fd: Int32, timeout: Double) -> Bool { LinuxSystem.waitReadable(fd, timeout: timeout) }

    func setConsoleGraphicsMode(_ graphics: Bool) -> Bool {
        let fd = Glibc.open("/dev/tty0", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return false }
        defer { _ = Glibc.close(fd) }
        return kiosk_kd_set_mode(fd, graphics ? 1 : 0) == 0
    }

    // MARK: DRM

    func drmSetMaster(_ fd: Int32) throws { try check(CDRM.drmSetMaster(fd), "drmSetMaster") }
    func drmDropMaster(_ fd: Int32) throws { try check(CDRM.drmDropMaster(fd), "drmDropMaster") }

    func drmSupportsDumbBuffers(_ fd: Int32) -> Bool {
        var value: UInt64 = 0
        return drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &value) == 0 && value != 0
    }

    func drmResources(_ fd: Int32) throws -> DRMResources {
        guard let r = drmModeGetResources(fd) else { throw SystemCallError(call: "drmModeGetResources", errno: errno) }
        defer { drmModeFreeResources(r) }
        let res = r.pointee
        return DRMResources(crtcs: Self.array(res.crtcs, res.count_crtcs),
                            encoders: Self.array(res.encoders, res.count_encoders),
                            connectors: Self.array(res.connectors, res.count_connectors))
    }

    func drmConnector(_ fd: Int32, id: UInt32) throws -> DRMConnector {
        guard let c = drmModeGetConnector(fd, id) else { throw SystemCallError(call: "drmModeGetConnector", errno: errno) }
        defer { drmModeFreeConnector(c) }
        let con = c.pointee
        let typeName = drmModeGetConnectorTypeName(con.connector_type).map { String(cString: $0) } ?? "Unknown\(con.connector_type)"
        let modes = (0..<Int(max(0, con.count_modes))).map { DRMMode(info: con.modes[$0]) }
        return DRMConnector(id: con.connector_id, name: "\(typeName)-\(con.connector_type_id)",
                            connected: con.connection == DRM_MODE_CONNECTED, modes: modes,
                            encoderID: con.encoder_id, encoders: Self.array(con.encoders, con.count_encoders))
    }

    func drmEncoder(_ fd: Int32, id: UInt32) throws -> DRMEncoder {
        guard let e = drmModeGetEncoder(fd, id) else { throw SystemCallError(call: "drmModeGetEncoder", errno: errno) }
        defer { drmModeFreeEncoder(e) }
        return DRMEncoder(id: e.pointee.encoder_id, crtcID: e.pointee.crtc_id, possibleCrtcs: e.pointee.possible_crtcs)
    }

    func drmCrtc(_ fd: Int32, id: UInt32) throws -> DRMCrtcState {
        guard let c = drmModeGetCrtc(fd, id) else { throw SystemCallError(call: "drmModeGetCrtc", errno: errno) }
        defer { drmModeFreeCrtc(c) }
        let crtc = c.pointee
        return DRMCrtcState(id: crtc.crtc_id, framebuffer: crtc.buffer_id, x: crtc.x, y: crtc.y,
                            mode: crtc.mode_valid != 0 ? DRMMode(info: crtc.mode) : nil)
    }

    func drmSetCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: UInt32, y: UInt32,
                    connectors: [UInt32], mode: DRMMode?) throws {
        var ids = connectors
        var info = mode?.info ?? drmModeModeInfo()
        let r = ids.withUnsafeMutableBufferPointer { idp in
            withUnsafeMutablePointer(to: &info) { mp in
                drmModeSetCrtc(fd, crtc, framebuffer, x, y, idp.count > 0 ? idp.baseAddress : nil,
                               Int32(idp.count), mode == nil ? nil : mp)
            }
        }
        try checkNegative(r, "drmModeSetCrtc")
    }

    /// Yes: libdrm's calls and `mmap` keep no state here, and the kernel serializes calls on one
    /// descriptor itself.
    var makesScanoutBuffersInBackground: Bool { true }

    func drmCreateDumbBuffer(_ fd: Int32, width: Int, height: Int) throws -> DRMDumbBuffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        try checkNegative(drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size),
                          "drmModeCreateDumbBuffer")
        return DRMDumbBuffer(handle: handle, pitch: pitch, size: size)
    }

    func drmMapDumbBuffer(_ fd: Int32, handle: UInt32) throws -> Int64 {
        var offset: UInt64 = 0
        try checkNegative(drmModeMapDumbBuffer(fd, handle, &offset), "drmModeMapDumbBuffer")
        return Int64(bitPattern: offset)
    }

    func drmDestroyDumbBuffer(_ fd: Int32, handle: UInt32) { _ = drmModeDestroyDumbBuffer(fd, handle) }

    func drmAddFramebuffer(_ fd: Int32, width: Int, height: Int, pitch: UInt32, handle: UInt32) throws -> UInt32 {
        var id: UInt32 = 0
        try checkNegative(drmModeAddFB(fd, UInt32(width), UInt32(height), 24, 32, pitch, handle, &id), "drmModeAddFB")
        return id
    }

    func drmRemoveFramebuffer(_ fd: Int32, id: UInt32) { _ = drmModeRmFB(fd, id) }

    func drmPageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws {
        try checkNegative(drmModePageFlip(fd, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), nil), "drmModePageFlip")
    }

    func drmDirtyFramebuffer(_ fd: Int32, id: UInt32) throws {
        try checkNegative(drmModeDirtyFB(fd, id, nil, 0), "drmModeDirtyFB")
    }

    func drmHandleEvents(_ fd: Int32) throws -> [DRMFlipCompletion] {
        var events = [kiosk_flip_event](repeating: kiosk_flip_event(), count: 16)
        let n = events.withUnsafeMutableBufferPointer { kiosk_drm_handle_events(fd, $0.baseAddress, Int32($0.count)) }
        try checkNegative(n, "drmHandleEvent")
        return events.prefix(Int(n)).map {
            DRMFlipCompletion(crtcID: $0.crtc_id, time: Double($0.tv_sec) + Double($0.tv_usec) / 1e6, sequence: $0.sequence)
        }
    }

    func drmConnectorProperties(_ fd: Int32, connector: UInt32) throws -> [DRMProperty] {
        guard let props = drmModeObjectGetProperties(fd, connector, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else {
            throw SystemCallError(call: "drmModeObjectGetProperties", errno: errno)
        }
        defer { drmModeFreeObjectProperties(props) }
        let p = props.pointee
        let ids = Self.array(p.props, Int32(clamping: p.count_props))
        var result: [DRMProperty] = []
        for (i, id) in ids.enumerated() {
            // A property that vanished between the two calls is skipped, not an error.
            guard let prop = drmModeGetProperty(fd, id) else { continue }
            defer { drmModeFreeProperty(prop) }
            let name = withUnsafeBytes(of: prop.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            result.append(DRMProperty(id: id, name: name, value: p.prop_values[i]))
        }
        return result
    }

    func drmConnectorSetProperty(_ fd: Int32, connector: UInt32, property: UInt32, value: UInt64) throws {
        try checkNegative(drmModeConnectorSetProperty(fd, connector, property, value), "drmModeConnectorSetProperty")
    }

    // MARK: fbdev

    func fbVariableInfo(_ fd: Int32) throws -> fb_var_screeninfo {
        var info = fb_var_screeninfo()
        try checkNegative(kiosk_fb_get_vscreeninfo(fd, &info), "ioctl FBIOGET_VSCREENINFO")
        return info
    }

    func fbFixedInfo(_ fd: Int32) throws -> fb_fix_screeninfo {
        var info = fb_fix_screeninfo()
        try checkNegative(kiosk_fb_get_fscreeninfo(fd, &info), "ioctl FBIOGET_FSCREENINFO")
        return info
    }

    func fbPutVariableInfo(_ fd: Int32, _ info: inout fb_var_screeninfo) throws {
        try checkNegative(kiosk_fb_put_vscreeninfo(fd, &info), "ioctl FBIOPUT_VSCREENINFO")
    }

    func fbPan(_ fd: Int32, _ info: fb_var_screeninfo) throws {
        var copy = info
        try checkNegative(kiosk_fb_pan_display(fd, &copy), "ioctl FBIOPAN_DISPLAY")
    }

    func fbWaitForVSync(_ fd: Int32) throws {
        try checkNegative(kiosk_fb_wait_for_vsync(fd, 0), "ioctl FBIO_WAITFORVSYNC")
    }

    func fbBlank(_ fd: Int32, _ blank: Bool) throws {
        let level = blank ? Int32(FB_BLANK_POWERDOWN) : Int32(FB_BLANK_UNBLANK)
        try checkNegative(kiosk_fb_blank(fd, level), "ioctl FBIOBLANK")
    }

    private static func array(_ p: UnsafeMutablePointer<UInt32>?, _ count: Int32) -> [UInt32] {
        guard let p, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: p, count: Int(count)))
    }
}
