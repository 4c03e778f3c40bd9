import CFFmpeg
import Foundation

/// What this machine can decode: libavcodec's software decoders for the common video codecs,
/// the V4L2 memory-to-memory decoders libavcodec was built with, and the `/dev/video*` nodes
/// that are memory-to-memory devices (asked with `VIDIOC_QUERYCAP`; for those, the compressed
/// formats their bitstream queue takes, which makes them decoders). For `--version` and
/// `check-config`.
public struct VideoCapabilities {
    /// One codec: libavcodec's name and the decoders for it.
    public struct Codec: Equatable, Sendable {
        public var codec: String
        /// The software decoder libavcodec picks, nil when there is none.
        public var software: String?
        /// The V4L2 m2m decoder for it compiled into libavcodec, if any.
        public var v4l2: String?
    }

    /// A memory-to-memory device node.
    public struct Device: Equatable, Sendable {
        public var path: String
        /// The driver's name for the device (`VIDIOC_QUERYCAP` card).
        public var card: String
        /// Compressed formats it takes in (fourcc codes such as `H264`): non-empty for a decoder.
        public var compressedInputs: [String]
    }

    /// The codecs a kiosk is likely to meet, in this order.
    public static let commonCodecs = ["h264", "hevc", "vp9", "av1", "vp8", "mpeg4", "mpeg2video"]

    public var codecs: [Codec]
    /// Every V4L2 m2m decoder compiled into libavcodec (`h264_v4l2m2m`…).
    public var v4l2Decoders: [String]
    /// `/dev/video*` nodes that are memory-to-memory devices.
    public var devices: [Device]
    /// Why FFmpeg's libraries could not be opened; nil when they were.
    public var ffmpegMissing: String?

    /// Looks at libavcodec and `/dev` now.
    public static func current() -> VideoCapabilities {
        do {
            try FFmpegLibraries.load()
        } catch {
            return VideoCapabilities(codecs: commonCodecs.map(Codec.init(codec:)), v4l2Decoders: [], devices: m2mDevices(),
                                     ffmpegMissing: error.description)
        }
        var v4l2: [String] = []
        var state: UnsafeMutableRawPointer?
        while let c = av_codec_iterate(&state) {
            let name = String(cString: c.pointee.name)
            if av_codec_is_decoder(c) != 0, name.hasSuffix("_v4l2m2m") { v4l2.append(name) }
        }
        let codecs = commonCodecs.map { name -> Codec in
            guard let descriptor = avcodec_descriptor_get_by_name(name) else { return Codec(codec: name) }
            let id = descriptor.pointee.id
            return Codec(codec: name, software: softwareDecoder(for: id),
                         v4l2: VideoDecoder.v4l2Decoder(for: id).map { String(cString: $0.pointee.name) })
        }
        return VideoCapabilities(codecs: codecs, v4l2Decoders: v4l2.sorted(), devices: m2mDevices(), ffmpegMissing: nil)
    }

    /// One line per codec, then the V4L2 decoders in libavcodec and the m2m device nodes.
    public var summary: String {
        var lines = ffmpegMissing.map { ["\($0): no video"] } ?? []
        lines += codecs.map { c in
            "\(c.codec): software \(c.software ?? "none"), V4L2 \(c.v4l2 ?? "none")"
        }
        lines.append("V4L2 m2m decoders in libavcodec: " + (v4l2Decoders.isEmpty ? "none" : v4l2Decoders.joined(separator: ", ")))
        if devices.isEmpty {
            lines.append("V4L2 m2m devices: none (no /dev/video* node is a memory-to-memory device)")
        } else {
            for d in devices {
                let role = d.compressedInputs.isEmpty ? "not a decoder" : "decodes " + d.compressedInputs.joined(separator: ", ")
                lines.append("V4L2 m2m device \(d.path) (\(d.card)): \(role)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The decoder `avcodec_find_decoder` would pick among the software ones (the V4L2 wrappers
    /// and hardware-only decoders left out).
    static func softwareDecoder(for id: AVCodecID) -> String? {
        softwareCodec(for: id).map { String(cString: $0.pointee.name) }
    }

    static func softwareCodec(for id: AVCodecID) -> UnsafePointer<AVCodec>? {
        var state: UnsafeMutableRawPointer?
        while let c = av_codec_iterate(&state) {
            guard c.pointee.id == id, av_codec_is_decoder(c) != 0 else { continue }
            let name = String(cString: c.pointee.name)
            if name.hasSuffix("_v4l2m2m") || c.pointee.capabilities & AV_CODEC_CAP_HARDWARE != 0
                || c.pointee.capabilities & AV_CODEC_CAP_EXPERIMENTAL != 0 { continue }
            return c
        }
        return nil
    }

    static func m2mDevices() -> [Device] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        let nodes = names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
        var devices: [Device] = []
        for node in nodes {
            let path = "/dev/\(node)"
            let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var caps: UInt32 = 0
            var card = [CChar](repeating: 0, count: 64)
            guard kc_v4l2_querycap(fd, &caps, &card, card.count) == 0, caps & kc_v4l2_cap_m2m() != 0 else { continue }
            let mplane: Int32 = caps & kc_v4l2_cap_m2m_mplane() != 0 ? 1 : 0
            var inputs: [String] = []
            var index: UInt32 = 0, fourcc: UInt32 = 0, compressed: Int32 = 0
            while index < 64, kc_v4l2_output_format(fd, mplane, index, &fourcc, &compressed) == 0 {
                if compressed != 0 { inputs.append(fourccText(fourcc)) }
                index += 1
            }
            devices.append(Device(path: path, card: String(cString: card), compressedInputs: inputs))
        }
        return devices
    }

    static func fourccText(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8((code >> (8 * $0)) & 0xFF) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}

extension VideoCapabilities.Codec {
    init(codec: String) { self.init(codec: codec, software: nil, v4l2: nil) }
}
