import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// What one open file has been asked for: bytes read and where it was asked to seek. The tests
/// use it to show that a poster or the first seconds of a long clip read only its beginning.
struct ReadStatistics: Equatable, Sendable {
    /// The file's size in bytes.
    var fileSize: Int64 = 0
    /// Bytes handed to libavformat.
    var bytesRead: Int64 = 0
    /// The furthest byte read (exclusive): everything read lies in `0..<furthestByte`.
    var furthestByte: Int64 = 0
    /// The absolute offsets libavformat seeked to, in order (size queries not counted).
    var seekTargets: [Int64] = []
}

/// The file under libavformat: opened by us (checked to be a regular, non-empty file) and read
/// through a custom `AVIOContext` whose callbacks count bytes and seeks, and which stop reading
/// when `isCancelled` says so (a player being stopped while a slow disk answers).
final class FileSource {
    let fd: Int32
    var statistics = ReadStatistics()
    var position: Int64 = 0
    var isCancelled: () -> Bool = { false }

    init(fd: Int32, size: Int64) {
        self.fd = fd
        statistics.fileSize = size
    }

    deinit { Glibc.close(fd) }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int32) -> Int32 {
        if isCancelled() { return kc_averror_exit() }
        var n: Int
        repeat { n = Glibc.read(fd, buffer, Int(size)) } while n < 0 && errno == EINTR
        if n < 0 { return kc_averror(errno) }
        if n == 0 { return kc_averror_eof() }
        position += Int64(n)
        statistics.bytesRead += Int64(n)
        statistics.furthestByte = max(statistics.furthestByte, position)
        return Int32(n)
    }

    func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & kc_avseek_size() != 0 { return statistics.fileSize }
        let origin = whence & ~kc_avseek_force()
        let target: Int64
        switch origin {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = statistics.fileSize + offset
        default: return Int64(kc_averror(EINVAL))
        }
        guard lseek(fd, off_t(target), SEEK_SET) >= 0 else { return Int64(kc_averror(errno)) }
        position = target
        statistics.seekTargets.append(target)
        return target
    }
}

/// An open container: the `AVFormatContext`, its custom I/O, and the chosen video stream.
final class MediaInput {
    let path: String
    let source: FileSource
    private var io: UnsafeMutablePointer<AVIOContext>?
    private(set) var format: UnsafeMutablePointer<AVFormatContext>?
    /// Index of the video stream decoded.
    private(set) var streamIndex: Int32 = -1

    /// Opens `path`, recognises its container, reads the stream headers and picks the video
    /// stream. Checks `limits` against the coded size as soon as the header gives it (before
    /// `avformat_find_stream_info` decodes anything) and again after.
    init(path: String, limits: VideoLimits, isCancelled: @escaping () -> Bool = { false }) throws {
        do {
            try FFmpegLibraries.load()
        } catch {
            throw VideoError(path: path, kind: .noDecoder, reason: error.description)
        }
        self.path = path
        source = try Self.openFile(path)
        source.isCancelled = isCancelled
        let bufferSize: Int32 = 32 * 1024
        guard let buffer = av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self),
              let io = avio_alloc_context(buffer, bufferSize, 0, Unmanaged.passUnretained(source).toOpaque(),
                                          { opaque, buf, size in
                                              Unmanaged<FileSource>.fromOpaque(opaque!).takeUnretainedValue().read(buf!, size)
                                          }, nil,
                                          { opaque, offset, whence in
                                              Unmanaged<FileSource>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
                                          })
        else { throw VideoError(path: path, kind: .unreadable, reason: "out of memory opening the file") }
        self.io = io
        var probed: UnsafePointer<AVInputFormat>?
        // By content only (no file name): a text file named .mp4 is not "an MP4 without its moov".
        let probe = av_probe_input_buffer2(io, &probed, nil, nil, 0, 0)
        guard probe >= 0, let inputFormat = probed else {
            if probe == kc_averror_exit() { throw VideoError(path: path, kind: .unreadable, reason: "stopped while opening") }
            if probe != kc_averror_invaliddata() && probe != kc_averror_eof() {
                throw VideoError(path: path, kind: .unreadable, failed: "cannot read the file", ffmpegCode: probe)
            }
            throw VideoError(path: path, kind: .unknownContainer,
                             reason: "not a video file FFmpeg can read (unknown container)")
        }
        let containerName = String(cString: inputFormat.pointee.name)
        if containerName.hasSuffix("_pipe") || containerName == "image2" {
            let image = containerName.replacingOccurrences(of: "_pipe", with: "").uppercased()
            throw VideoError(path: path, kind: .unknownContainer,
                             reason: "a still image (\(image)), not a video; show it as an image item instead")
        }
        format = avformat_alloc_context()
        guard let ctx = format else { throw VideoError(path: path, kind: .unreadable, reason: "out of memory opening the file") }
        ctx.pointee.pb = io
        ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        kc_refuse_nested_io(ctx)
        let opened = avformat_open_input(&format, path, inputFormat, nil)   // frees the context on failure
        guard opened >= 0, let ctx = format else {
            format = nil
            throw Self.openFailure(path: path, container: containerName, code: opened)
        }
        try pickStream(ctx: ctx, limits: limits, checkSizeIfKnown: true)
        let info = avformat_find_stream_info(ctx, nil)
        guard info >= 0 else {
            throw Self.openFailure(path: path, container: containerName, code: info)
        }
        try pickStream(ctx: ctx, limits: limits, checkSizeIfKnown: false)
    }

    deinit {
        if format != nil { avformat_close_input(&format) }
        if let io {
            var buffer: UnsafeMutablePointer<UInt8>? = io.pointee.buffer
            av_free(buffer)
            buffer = nil
            var ioContext: UnsafeMutablePointer<AVIOContext>? = io
            avio_context_free(&ioContext)
        }
    }

    var stream: UnsafeMutablePointer<AVStream> { format!.pointee.streams[Int(streamIndex)]! }
    var codecParameters: UnsafeMutablePointer<AVCodecParameters> { stream.pointee.codecpar }
    var containerName: String { String(cString: format!.pointee.iformat.pointee.name) }
    var statistics: ReadStatistics { source.statistics }

    /// Picks the best video stream that is not a cover picture and checks its size.
    private func pickStream(ctx: UnsafeMutablePointer<AVFormatContext>, limits: VideoLimits, checkSizeIfKnown: Bool) throws {
        var best = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        if best >= 0, ctx.pointee.streams[Int(best)]!.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
            best = -1
            for i in 0..<Int32(ctx.pointee.nb_streams) {
                let s = ctx.pointee.streams[Int(i)]!.pointee
                if s.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && s.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 {
                    best = i
                    break
                }
            }
        }
        guard best >= 0 else {
            if checkSizeIfKnown { return }   // streams may appear in find_stream_info
            let what = ctx.pointee.nb_streams == 0 ? "no streams" : "no video stream (audio only, or only a cover picture)"
            throw VideoError(path: path, kind: .noVideoStream, reason: "\(what) in this \(containerName(ctx)) file")
        }
        streamIndex = best
        let par = ctx.pointee.streams[Int(best)]!.pointee.codecpar.pointee
        if checkSizeIfKnown && (par.width <= 0 || par.height <= 0) { return }
        try limits.check(width: Int(par.width), height: Int(par.height), path: path, codec: codecName(par.codec_id))
    }

    private func containerName(_ ctx: UnsafeMutablePointer<AVFormatContext>) -> String {
        String(cString: ctx.pointee.iformat.pointee.name)
    }

    private static func openFailure(path: String, container: String, code: Int32) -> VideoError {
        if code == kc_averror_exit() { return VideoError(path: path, kind: .unreadable, reason: "stopped while opening") }
        if code == kc_averror(EIO) || code == kc_averror(EISDIR) || code == kc_averror(EACCES) {
            return VideoError(path: path, kind: .unreadable, failed: "cannot read the file", ffmpegCode: code)
        }
        return VideoError(path: path, kind: .corrupt, failed: "the \(container) container is damaged or truncated",
                          ffmpegCode: code)
    }

    /// Opens a regular, non-empty file for reading, with errors a kiosk builder understands.
    private static func openFile(_ path: String) throws -> FileSource {
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            if e == ENOENT { throw VideoError(path: path, kind: .unreadable, reason: "no such file") }
            if e == EACCES { throw VideoError(path: path, kind: .unreadable, reason: "permission denied (the kiosk's user cannot reach it)") }
            throw VideoError(path: path, kind: .unreadable, cannot: "cannot read the file", errno: e)
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw VideoError(path: path, kind: .unreadable, reason: "a folder, not a video file")
        default: throw VideoError(path: path, kind: .unreadable, reason: "not a regular file (a device, pipe or socket)")
        }
        if st.st_size == 0 { throw VideoError(path: path, kind: .empty, reason: "the file is empty (0 bytes)") }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if e == EACCES { throw VideoError(path: path, kind: .unreadable, reason: "permission denied (the kiosk's user cannot read it)") }
            throw VideoError(path: path, kind: .unreadable, cannot: "cannot open the file", errno: e)
        }
        return FileSource(fd: fd, size: Int64(st.st_size))
    }
}
