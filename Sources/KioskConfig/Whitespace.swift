/// Foundation's `CharacterSet.whitespaces` — Unicode's space separators (general category Zs), the
/// horizontal tab and, in swift-corelibs-foundation, U+200B ZERO WIDTH SPACE — read from the
/// standard library's Unicode properties.
///
/// The config's checks ask "is this blank?" of every string value: `trimmingCharacters(in:
/// .whitespaces)` answered it through `NSString`, ~21,000 instructions a value, 1.8 M of the
/// ~33 M the main thread ran to its exit after the first frame (callgrind, docs/start-up.md,
/// stop 65). These give the same answers (`WhitespaceTests` compares them with Foundation's over
/// every Unicode scalar).
public enum Whitespace {
    /// Whether `scalar` is in `CharacterSet.whitespaces`.
    @inlinable
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar.value == 0x200B || scalar.properties.generalCategory == .spaceSeparator
    }
}

extension StringProtocol {
    /// Empty, or nothing but `Whitespace` (what `trimmingCharacters(in: .whitespaces).isEmpty`
    /// says, without Foundation).
    public var isBlank: Bool { unicodeScalars.allSatisfy(Whitespace.contains) }

    /// This text without its leading and trailing `Whitespace` (what `trimmingCharacters(in:
    /// .whitespaces)` gives, without Foundation).
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Whitespace.contains($0) }),
              let last = scalars.lastIndex(where: { !Whitespace.contains($0) }) else { return "" }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
