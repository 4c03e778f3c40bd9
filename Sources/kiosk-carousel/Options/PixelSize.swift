import ArgumentParser
import KioskConfig

/// A size in pixels written `WIDTHxHEIGHT` (`1280x720`), each 1 to 16384: `--size` options and
/// the sizes read from mode strings (`1920x1080@60`, sysfs `modes`).
struct PixelSize: Equatable, ExpressibleByArgument, CustomStringConvertible {
    var width: Int
    var height: Int

    init(_ width: Int, _ height: Int) { self.width = width; self.height = height }

    /// `[display] headless_size`: what `simulate` and `layout` draw or lay out without `--size`.
    init(headlessSizeOf config: KioskConfiguration) {
        self.init(config.display.headlessSize.width, config.display.headlessSize.height)
    }

    /// Parses `WxH` (case-insensitive `x`); throws a message that shows the expected form.
    init(parsing text: String) throws {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...16384).contains(w), (1...16384).contains(h) else {
            throw ValidationError("a size must look like 1280x720 (1 to 16384 each), not '\(text)'")
        }
        self.init(w, h)
    }

    /// The size at the start of a mode name: `1920x1080` of `1920x1080@60`; nil when it has none.
    init?(modeName: String) {
        guard let s = try? PixelSize(parsing: String(modeName.split(separator: "@", maxSplits: 1).first ?? "")) else { return nil }
        self = s
    }

    init?(argument: String) { try? self.init(parsing: argument) }

    var description: String { "\(width)x\(height)" }
    var defaultValueDescription: String { description }
}
