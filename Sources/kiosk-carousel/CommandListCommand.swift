import ArgumentParser

/// `command-list` (hidden): the README's command list, generated from the command tree so it
/// cannot drift from the program (scripts/update-readme-reference.sh writes it into README.md
/// between its markers; CommandListTests fails when they differ).
struct CommandListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "command-list",
        abstract: "Print the README's command list (every command's usage and abstract) as Markdown.",
        shouldDisplay: false)

    func run() throws {
        print(try CommandList.markdown(root: KioskCarouselCommand.self), terminator: "")
    }
}

/// Every command a person can run, found by walking the subcommands of the root command (hidden
/// ones left out), with its usage line (`CommandSynopsis`) and abstract.
enum CommandList {
    /// The commands below `root`, depth first, as `[root, …, command]` paths; groups (commands
    /// with subcommands) are left out, their subcommands are listed.
    static func leaves(of root: ParsableCommand.Type) -> [[ParsableCommand.Type]] {
        func walk(_ path: [ParsableCommand.Type]) -> [[ParsableCommand.Type]] {
            let children = path.last!.configuration.subcommands.filter { $0.configuration.shouldDisplay }
            return children.isEmpty ? [path] : children.flatMap { walk(path + [$0]) }
        }
        return walk([root]).filter { $0.count > 1 }
    }

    /// A code block of usage lines (and `--version`), then a table of what each command does.
    static func markdown(root: ParsableCommand.Type) throws -> String {
        let commands = leaves(of: root)
        var out = "```\n"
        for path in commands {
            let words = path.map { $0._commandName } + [try CommandSynopsis.line(for: path.last!)]
            out += words.filter { !$0.isEmpty }.joined(separator: " ") + "\n"
        }
        out += "\(root._commandName) --version\n```\n\n"
        out += "`\(root._commandName) COMMAND --help` lists a command's options and what they take.\n\n"
        out += "| command | what it does |\n| --- | --- |\n"
        for path in commands {
            let name = path.dropFirst().map { $0._commandName }.joined(separator: " ")
            out += "| `\(name)` | \(path.last!.configuration.abstract.replacingOccurrences(of: "|", with: "\\|")) |\n"
        }
        return out
    }
}
