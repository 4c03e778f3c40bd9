/// Image formats Cards decodes, recognised by their content (never by the file name alone).
enum ImageFormat: String, Equatable, Sendable {
    case png = "PNG", jpeg = "JPEG", webp = "WebP", svg = "SVG"

    /// The format of `bytes`, or a failure saying what the file looks like instead.
    static func sniff(_ bytes: [UInt8], path: String) throws -> ImageFormat {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        if bytes.starts(with: [0x1F, 0x8B]) {
            throw CardFailure(file: path, reason: "gzip-compressed file (.svgz?) is not supported; save the SVG uncompressed")
        }
        if looksLikeSVG(bytes) { return .svg }
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let named = ["png", "jpg", "jpeg", "webp", "svg"].contains(ext) ? " (named .\(ext))" : ""
        throw CardFailure(file: path, reason: "not a PNG, JPEG, WebP or SVG image\(named); it starts with \(preview(bytes))")
    }

    /// An XML text whose first 4 KB hold an `<svg` element.
    static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        var head = bytes.prefix(4096)[...]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        guard let first = head.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }),
              first == UInt8(ascii: "<") else { return false }
        let text = String(decoding: head, as: UTF8.self)
        return text.contains("<svg")
    }

    /// The first bytes as printable text (or hex) for a log line.
    static func preview(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(12)
        if head.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return "\"" + String(decoding: head, as: UTF8.self) + "\""
        }
        return head.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined(separator: " ")
    }
}
