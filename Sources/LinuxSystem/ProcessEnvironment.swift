#if canImport(Glibc)
import Glibc
#endif

/// The process's environment variables, read from `environ`: what Foundation's
/// `ProcessInfo.processInfo.environment` gives, without making `ProcessInfo` (its first use
/// builds the process's whole description: ~3 % of the main thread's samples before the first
/// frame in a profile under emulation, docs/start-up.md, stop 52).
public enum ProcessEnvironment {
    /// Every `NAME=value` entry as `[NAME: value]`. An entry without `=` is left out; a name
    /// given twice keeps its first value, the one `getenv` returns.
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        // Never null here: nothing in the program calls `clearenv`.
        var entry = environ
        while let text = entry.pointee {
            if let (name, value) = split(String(cString: text)), variables[name] == nil { variables[name] = value }
            entry += 1
        }
        return variables
    }

    /// `NAME=value` as its two parts (the value may hold `=`); nil without `=` or without a name.
    static func split(_ entry: String) -> (String, String)? {
        guard let equals = entry.utf8.firstIndex(of: UInt8(ascii: "=")), equals != entry.utf8.startIndex else { return nil }
        return (String(entry[..<equals]), String(entry[entry.index(after: equals)...]))
    }
}
