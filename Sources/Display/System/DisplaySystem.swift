#if canImport(Glibc)
import Glibc
#endif
import CDRM
import CKioskSys
// `SystemCallError` and the clock, for every file of the module (DRM/, FBDev/) and its users.
@_exported import LinuxSystem

/// A display mode of a connector (a copy of the kernel's `drm_mode_modeinfo`).
public struct DRMMode: CustomStringConvertible {
    /// The kernel's record, passed back unchanged to `drmModeSetCrtc`.
    public var info: drmModeModeInfo
    public var width: Int { Int(info.hdisplay) }
    public var height: Int { Int(info.vdisplay) }
    /// Refresh rate in Hz from the pixel clock and totals (more precise than `vrefresh`).
    public var refreshRate: Double {
        let total = Double(info.htotal) * Double(info.vtotal)
        guard total > 0, info.clock > 0 else { return Double(info.vrefresh) }
        var hz = Double(info.clock) * 1000 / total
        if info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { hz *= 2 }
        if info.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { hz /= 2 }
        return hz
    }
    public var isPreferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
    /// `1920x1080@60` (refresh rounded to whole Hz).
    public var description: String { "\(width)x\(height)@\(Int(refreshRate.rounded()))" }

    public init(info: drmModeModeInfo) { self.info = info }

    /// A mode for tests and for parsing: only the fields the backend reads.
    public init(width: Int, height: Int, refresh: Int, preferred: Bool = false) {
        var i = drmModeModeInfo()
        i.hdisplay = UInt16(width); i.vdisplay = UInt16(height); i.vrefresh = UInt32(refresh)
        i.type = preferred ? UInt32(DRM_MODE_TYPE_PREFERRED) : 0
        info = i
    }

    /// Same timing (the fields a mode set depends on).
    func sameTiming(as o: DRMMode) -> Bool {
        info.hdisplay == o.info.hdisplay && info.vdisplay == o.info.vdisplay && info.clock == o.info.clock
            && info.htotal == o.info.htotal && info.vtotal == o.info.vtotal && info.vrefresh == o.info.vrefresh
            && info.flags == o.info.flags
    }
}

/// `drmModeGetResources`: the ids of a card's CRTCs, encoders and connectors.
struct DRMResources: Equatable {
    var crtcs: [UInt32]
    var encoders: [UInt32]
    var connectors: [UInt32]
}

/// `drmModeGetConnector`.
struct DRMConnector {
    var id: UInt32
    /// `HDMI-A-1`, `Virtual-1`: type name and type index, as the kernel and `modetest` name it.
    var name: String
    var connected: Bool
    var modes: [DRMMode]
    /// The encoder currently driving it (0: none).
    var encoderID: UInt32
    var encoders: [UInt32]
}

/// `drmModeGetEncoder`.
struct DRMEncoder: Equatable {
    var id: UInt32
    var crtcID: UInt32
    /// Bit i: the CRTC at index i of `DRMResources.crtcs` can drive this encoder.
    var possibleCrtcs: UInt32
}

/// `drmModeGetCrtc`: what a CRTC shows now (saved at start, restored on close).
struct DRMCrtcState {
    var id: UInt32
    var framebuffer: UInt32
    var x: UInt32
    var y: UInt32
    var mode: DRMMode?
}

/// A dumb buffer from `drmModeCreateDumbBuffer`.
struct DRMDumbBuffer: Equatable {
    var handle: UInt32
    var pitch: UInt32
    var size: UInt64
}

/// One property of a DRM object and its current value (`drmModeObjectGetProperties` with
/// `drmModeGetProperty` for the name).
struct DRMProperty: Equatable {
    var id: UInt32
    /// `DPMS`, `EDID`, `CRTC_ID`…
    var name: String
    var value: UInt64
}

/// One page flip completion read by `drmHandleEvent` (`page_flip_handler2` of a version 3
/// `drmEventContext`).
struct DRMFlipCompletion: Equatable {
    /// The CRTC that flipped (0 from kernels without `DRM_CAP_CRTC_IN_VBLANK_EVENT`).
    var crtcID: UInt32
    /// Kernel timestamp of the vblank the flip happened at (CLOCK_MONOTONIC seconds).
    var time: Double
    /// The CRTC's vblank counter at the flip.
    var sequence: UInt32
}

/// Every system call the display backends make, behind one seam (as swift-system's
/// `Syscalls.swift`): the real implementation is `LinuxDisplaySystem`; tests replace it with a
/// fake that models a card and records the call sequence. Each method names the C call it makes;
/// failures throw `SystemCallError` with the errno. EINTR is retried inside.
protocol DisplaySystem: AnyObject {
    // MARK: files and memory
    /// `open(2)`.
    func open(_ path: String, flags: Int32) throws -> Int32
    /// `close(2)`.
    func close(_ fd: Int32)
    /// `readdir(3)` names in a folder (empty when it cannot be read).
    func directoryEntries(_ path: String) -> [String]
    /// `access(2)` with F_OK.
    func exists(_ path: String) -> Bool
    /// `mmap(2)` shared read-write.
    func mmap(length: Int, fd: Int32, offset: Int64) throws -> UnsafeMutableRawPointer
    /// `munmap(2)`.
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// `clock_gettime(CLOCK_MONOTONIC)` in seconds.
    func monotonicNow() -> Double
    /// `poll(2)` for POLLIN: true when `fd` became readable within `timeout` seconds.
    func waitReadable(_ fd: Int32, timeout: Double) -> Bool
    /// `ioctl(KDSETMODE)` on the active virtual terminal (`/dev/tty0`): graphics mode stops the
    /// console from drawing over an fbdev picture; text mode gives it back. False when there is
    /// no usable VT.
    @discardableResult
    func setConsoleGraphicsMode(_ graphics: Bool) -> Bool

    // MARK: DRM (libdrm)
    /// `drmSetMaster`.
    func drmSetMaster(_ fd: Int32) throws
    /// `drmDropMaster`.
    func drmDropMaster(_ fd: Int32) throws
    /// `drmGetCap(DRM_CAP_DUMB_BUFFER)`.
    func drmSupportsDumbBuffers(_ fd: Int32) -> Bool
    /// `drmModeGetResources`.
    func drmResources(_ fd: Int32) throws -> DRMResources
    /// `drmModeGetConnector`.
    func drmConnector(_ fd: Int32, id: UInt32) throws -> DRMConnector
    /// `drmModeGetEncoder`.
    func drmEncoder(_ fd: Int32, id: UInt32) throws -> DRMEncoder
    /// `drmModeGetCrtc`.
    func drmCrtc(_ fd: Int32, id: UInt32) throws -> DRMCrtcState
    /// `drmModeSetCrtc`; `framebuffer` 0 with no connectors turns the CRTC off.
    func drmSetCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: UInt32, y: UInt32,
                    connectors: [UInt32], mode: DRMMode?) throws
    /// Whether a DRM output makes its first buffers on a thread of its own
    /// (`ScanoutBufferMaking`), which then calls `drmCreateDumbBuffer`, `drmMapDumbBuffer`,
    /// `mmap`, `drmAddFramebuffer` and, after a failure, the calls that free them, while the
    /// opening thread goes on without calling into the system for that descriptor.
    var makesScanoutBuffersInBackground: Bool { get }
    /// `drmModeCreateDumbBuffer` (32 bpp).
    func drmCreateDumbBuffer(_ fd: Int32, width: Int, height: Int) throws -> DRMDumbBuffer
    /// `drmModeMapDumbBuffer`: the offset to pass to `mmap`.
    func drmMapDumbBuffer(_ fd: Int32, handle: UInt32) throws -> Int64
    /// `drmModeDestroyDumbBuffer`.
    func drmDestroyDumbBuffer(_ fd: Int32, handle: UInt32)
    /// `drmModeAddFB` (depth 24, 32 bpp: XRGB8888).
    func drmAddFramebuffer(_ fd: Int32, width: Int, height: Int, pitch: UInt32, handle: UInt32) throws -> UInt32
    /// `drmModeRmFB`.
    func drmRemoveFramebuffer(_ fd: Int32, id: UInt32)
    /// `drmModePageFlip` with `DRM_MODE_PAGE_FLIP_EVENT`.
    func drmPageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws
    /// `drmModeDirtyFB` for the whole framebuffer.
    func drmDirtyFramebuffer(_ fd: Int32, id: UInt32) throws
    /// `drmHandleEvent`: the page flips completed since the last call.
    func drmHandleEvents(_ fd: Int32) throws -> [DRMFlipCompletion]
    /// `drmModeObjectGetProperties(DRM_MODE_OBJECT_CONNECTOR)`, then `drmModeGetProperty` for
    /// each name: the connector's properties with their current values. Needs no DRM master.
    func drmConnectorProperties(_ fd: Int32, connector: UInt32) throws -> [DRMProperty]
    /// `drmModeConnectorSetProperty` (DRM master only).
    func drmConnectorSetProperty(_ fd: Int32, connector: UInt32, property: UInt32, value: UInt64) throws

    // MARK: fbdev (ioctl through CKioskSys)
    /// `ioctl(FBIOGET_VSCREENINFO)`.
    func fbVariableInfo(_ fd: Int32) throws -> fb_var_screeninfo
    /// `ioctl(FBIOGET_FSCREENINFO)`.
    func fbFixedInfo(_ fd: Int32) throws -> fb_fix_screeninfo
    /// `ioctl(FBIOPUT_VSCREENINFO)`; the kernel may adjust `info`.
    func fbPutVariableInfo(_ fd: Int32, _ info: inout fb_var_screeninfo) throws
    /// `ioctl(FBIOPAN_DISPLAY)`.
    func fbPan(_ fd: Int32, _ info: fb_var_screeninfo) throws
    /// `ioctl(FBIO_WAITFORVSYNC)`.
    func fbWaitForVSync(_ fd: Int32) throws
    /// `ioctl(FBIOBLANK)` with `FB_BLANK_POWERDOWN` (`blank`) or `FB_BLANK_UNBLANK`.
    func fbBlank(_ fd: Int32, _ blank: Bool) throws
}
