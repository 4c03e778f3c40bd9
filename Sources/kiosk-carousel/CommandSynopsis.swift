import ArgumentParser
import Foundation

/// A command's usage line as the README shows it (`CommandList`): the arguments a person must
/// give, written as man pages write them (`check-config FILE`, `layout --scroll-offset OFFSET`),
/// then `[options]` when the command has any others; `--help` lists those. ArgumentParser's own
/// usage line names values after their option (`--config <config>`), becomes `<options>` past
/// twelve of them and is never wrapped (`record`'s was 330 characters): every command gives this
/// line as its `usage:` too, so `--help` and option errors show it (CommandHelpTests checks).
enum CommandSynopsis {
    /// What is read of ArgumentParser's description of a command (`_dumpHelp()`, its JSON).
    private struct Dump: Decodable {
        struct Command: Decodable { var arguments: [Argument]? }
        struct Argument: Decodable {
            struct Name: Decodable { var kind: String; var name: String }
            var kind: String
            var shouldDisplay: Bool
            var isOptional: Bool
            var isRepeating: Bool
            var preferredName: Name?
            var valueName: String?
        }
        var command: Command
    }

    /// `command`'s line after the program and command names (`FILE`, `[DEVICE] [options]`, or
    /// empty for a command without arguments). Throws when ArgumentParser's description cannot
    /// be read (a new version that changed it): a guessed line would go into the README unseen.
    static func line(for command: ParsableCommand.Type) throws -> String {
        let dump = try JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8))
        let arguments = (dump.command.arguments ?? []).filter { $0.shouldDisplay && !["help", "version"].contains($0.preferredName?.name) }
        var words: [String] = []
        var hasOthers = false
        for a in arguments {
            let value = (a.valueName ?? a.preferredName?.name ?? "value").uppercased() + (a.isRepeating ? " ..." : "")
            if a.kind == "positional" {
                words.append(a.isOptional ? "[\(value)]" : value)
            } else if !a.isOptional, let name = a.preferredName {
                words.append("--\(name.name) \(value)")
            } else {
                hasOthers = true
            }
        }
        if hasOthers { words.append("[options]") }
        return words.joined(separator: " ")
    }
}
