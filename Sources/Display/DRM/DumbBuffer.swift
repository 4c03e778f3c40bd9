/// One scan-out buffer: a dumb buffer, mapped, added as an XRGB8888 framebuffer.
struct DumbBuffer {
    var dumb: DRMDumbBuffer
    var framebuffer: UInt32
    var memory: UnsafeMutableRawPointer
    var width: Int
    var height: Int

    var scanout: ScanoutBuffer {
        ScanoutBuffer(base: memory, pitch: Int(dumb.pitch), width: width, height: height, format: .xrgb8888)
    }

    /// `drmModeCreateDumbBuffer` → `drmModeMapDumbBuffer` → `mmap` → `drmModeAddFB`; undoes the
    /// steps done when a later one fails.
    static func create(fd: Int32, width: Int, height: Int, system: DisplaySystem) throws -> DumbBuffer {
        let dumb = try system.drmCreateDumbBuffer(fd, width: width, height: height)
        var memory: UnsafeMutableRawPointer?
        do {
            let offset = try system.drmMapDumbBuffer(fd, handle: dumb.handle)
            memory = try system.mmap(length: Int(dumb.size), fd: fd, offset: offset)
            let fb = try system.drmAddFramebuffer(fd, width: width, height: height, pitch: dumb.pitch, handle: dumb.handle)
            return DumbBuffer(dumb: dumb, framebuffer: fb, memory: memory!, width: width, height: height)
        } catch {
            if let memory { system.munmap(memory, length: Int(dumb.size)) }
            system.drmDestroyDumbBuffer(fd, handle: dumb.handle)
            throw error
        }
    }

    /// `drmModeRmFB` → `munmap` → `drmModeDestroyDumbBuffer`.
    func destroy(fd: Int32, system: DisplaySystem) {
        system.drmRemoveFramebuffer(fd, id: framebuffer)
        system.munmap(memory, length: Int(dumb.size))
        system.drmDestroyDumbBuffer(fd, handle: dumb.handle)
    }
}
