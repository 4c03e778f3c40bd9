import KioskConfig
import Kiosk

/// `run`'s options read without swift-argument-parser, when they are written plainly: how the
/// unit starts the kiosk (`run --config /etc/kiosk-carousel/config.toml`). Under emulation the
/// parser's first use costs more than the rest of the arguments' step (it builds the whole
/// command's argument set by reflection and checks for a completion-script request first;
/// docs/start-up.md, stop 48). Anything else — help, an option this does not know, a value it
/// would read differently or not at all, an option given twice, a check that fails — gives nil,
/// and swift-argument-parser reads the arguments and says what it says, as before.
/// `RunPlainArgumentsTests` holds the two readings to the same result.
extension RunOptions {
    /// The options of `kiosk-carousel run ARGUMENTS`, each `--name value` or `--name=value` with
    /// the names swift-argument-parser gives `RunCommand`'s properties; nil when anything is not
    /// that plain, or when the options do not pass `validate()`.
    init?(plainArguments arguments: [String]) {
        var options = RunOptions()
        var given = Set<Substring>()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else { return nil }
            let spelled = argument.dropFirst(2)
            let name: Substring, value: String
            if let equals = spelled.firstIndex(of: "=") {
                name = spelled[..<equals]
                value = String(spelled[spelled.index(after: equals)...])
            } else {
                // A value that starts with "-" is the parser's to judge (an option, "-", a negative number).
                guard let next = rest.popFirst(), !next.hasPrefix("-") else { return nil }
                (name, value) = (spelled, next)
            }
            // An empty value is the parser's to judge too (`--config=` is a missing value to it).
            guard !value.isEmpty, name == "shot" || given.insert(name).inserted else { return nil }
            switch name {
            case "config": options.config = value
            case "backend":
                guard let backend = DisplaySettings.Backend(rawValue: value) else { return nil }
                options.backend = backend
            case "events": options.events = value
            case "latency-trace": options.latencyTrace = value
            case "exit-after":
                guard let seconds = Double(value) else { return nil }
                options.exitAfter = seconds
            case "shot": options.shots.append(value)
            case "log-level":
                guard let level = try? KioskLogging.parseLevel(value) else { return nil }
                options.logLevel = level
            default: return nil
            }
        }
        guard (try? options.validate()) != nil else { return nil }
        self = options
    }
}
