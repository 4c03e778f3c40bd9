/// Writes a Swift string as a JSON string literal (RFC 8259 §7): the one encoder every JSON
/// writer of the program uses (the events stream, control-socket replies, the `reloaded` report).
///
/// Escaped: `"` as `\"`, `\` as `\\`, newline, carriage return and tab as `\n`, `\r`, `\t`, and
/// every other control character U+0000…U+001F as `\u00xx` (lower-case hex; so backspace and
/// form feed are `\u0008` and `\u000c`, as the events stream always wrote them). Everything else
/// is kept as it is, in UTF-8: non-ASCII letters, U+007F, and U+2028/U+2029 (the line and
/// paragraph separators, which JSON allows unescaped; the program's JSON goes to JSON readers,
/// never into JavaScript source). `/` is not escaped.
public enum JSONString {
    /// `s` in double quotes, escaped as above.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                out += "\\u00"
                out.unicodeScalars.append(hexDigits[Int(u.value >> 4)])
                out.unicodeScalars.append(hexDigits[Int(u.value & 0xF)])
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)
}
