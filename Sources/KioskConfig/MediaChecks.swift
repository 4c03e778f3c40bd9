import Foundation

/// What the loader checks of the pictures, clips and fonts a configuration names, beyond their
/// being readable files and non-empty strings: checks that need libraries this module does not
/// link (FFmpeg, the picture decoders, fontconfig), passed in as a value by the program
/// (`Cards.MediaFileCheck` makes them).
///
/// The rule (docs/configuration.md, "Pictures and clips"): `check-config`, `simulate` and `run`
/// (at start and on every reload) load with `MediaFileCheck.kiosk`, which opens every clip — a
/// `video = …` key's and an items folder's — so a clip this machine cannot play is a problem of
/// the file, at the key that names it, in all three. Pictures are decoded only by `usb-import`
/// (`MediaFileCheck.stick`): a kiosk would decode every photo on every reload; a picture that does
/// not decode shows the card's "!" face instead. Fonts (`font` keys) are checked by all four: a
/// font string none of whose families is installed is a problem at its value (the card would
/// show "!", the title overlay another font).
public struct MediaChecks: Sendable {
    /// Given a clip's absolute path, why it cannot be played here (nil when it can); nil: clips
    /// are not opened.
    public var clip: (@Sendable (String) -> String?)?
    /// Given a picture's absolute path, why it cannot be drawn (nil when it can); nil: pictures
    /// are not decoded.
    public var picture: (@Sendable (String) -> String?)?
    /// Given a `font` key's value, why it cannot be drawn with, as words that follow the quoted
    /// value (`is not installed (…)`; nil when it can); nil: fonts are not checked.
    public var font: (@Sendable (String) -> String?)?

    public init(clip: (@Sendable (String) -> String?)? = nil, picture: (@Sendable (String) -> String?)? = nil,
                font: (@Sendable (String) -> String?)? = nil) {
        self.clip = clip; self.picture = picture; self.font = font
    }

    /// Files must exist and be readable; their content is not read; fonts are not looked up
    /// (tests, tools that draw no card).
    public static let none = MediaChecks()
}

/// A picture or clip a configuration names, with the place that names it: the key's value, or
/// `[items] directory` for a folder's files.
struct MediaReference {
    /// `folder`: an items folder itself (only kept inside a stick's folder, never read).
    enum Kind { case picture, clip, folder }
    var kind: Kind
    /// Absolute.
    var path: String
    /// As the file writes it (for a folder's file: its name in the folder).
    var written: String
    /// The key whose value names it.
    var place: ConfigPath
    /// The file comes from an items folder (the key names the folder, not the file).
    var fromFolder = false
}

/// The media pass of a load: every reference checked (each distinct file once, several at a
/// time), and, for a USB stick's content, every path kept inside the stick's folder.
struct MediaPass {
    var checks: MediaChecks
    /// The folder every file must be inside (a stick's `kiosk-carousel/`, named in messages by
    /// its last component); nil: anywhere.
    var confinedTo: String?

    /// `[items] directory`: the key that names a folder's pictures and clips.
    static let itemsFolderKey: ConfigPath = [.key("items"), .key("directory")]

    /// The references of a decoded configuration: what its keys named (`keyed`: pictures, clips
    /// and the items folder), and the items folder's pictures and clips (at `[items] directory`).
    static func references(keyed: [MediaReference], config: KioskConfiguration) -> [MediaReference] {
        let place = itemsFolderKey
        var out = keyed
        for item in config.items where item.fromDirectory {
            if let clip = item.video {
                out.append(MediaReference(kind: .clip, path: clip, written: (clip as NSString).lastPathComponent, place: place, fromFolder: true))
            } else if let picture = item.image {
                out.append(MediaReference(kind: .picture, path: picture, written: (picture as NSString).lastPathComponent, place: place, fromFolder: true))
            }
        }
        return out
    }

    /// The problems of `references` (at their keys), in their order.
    func problems(_ references: [MediaReference]) -> [(place: ConfigPath, message: String)] {
        var out: [(ConfigPath, String)] = []
        var probed: [MediaReference] = []
        for r in references {
            if let folder = confinedTo, !MediaPass.isInside(r.path, folder: folder) {
                // A folder outside is said once, not again for each of its files.
                if r.fromFolder { continue }
                let name = (folder as NSString).lastPathComponent
                let shown = PathResolver.standardized(r.written) == r.path ? "" : " (\(r.path))"
                out.append((r.place, "\(Self.subject(r))\(shown) is outside the \(name)/ folder, so it would not be copied; put it in the folder"))
            } else if check(for: r.kind) != nil {
                probed.append(r)
            }
        }
        let reasons = reasons(for: probed)
        for r in probed {
            if let why = reasons[Key(kind: r.kind, path: r.path)] ?? nil { out.append((r.place, "\(Self.subject(r)): \(why)")) }
        }
        return out
    }

    /// `'video' "clip.mp4"`, `'directory' file "clip.mp4"` (a folder's file).
    static func subject(_ r: MediaReference) -> String {
        let key = "'\(r.place.lastKey ?? r.place.dotted)'"
        return r.fromFolder ? "\(key) file \(ValueFormat.quoted(r.written))" : "\(key) \(ValueFormat.quoted(r.written))"
    }

    static func isInside(_ path: String, folder: String) -> Bool {
        (PathResolver.standardized(path) + "/").hasPrefix(PathResolver.standardized(folder) + "/")
    }

    private struct Key: Hashable { var kind: MediaReference.Kind; var path: String }

    private func check(for kind: MediaReference.Kind) -> (@Sendable (String) -> String?)? {
        switch kind {
        case .clip: return checks.clip
        case .picture: return checks.picture
        case .folder: return nil
        }
    }

    /// Each distinct file checked once; files checked on several threads (a clip's probe reads
    /// its container's header, a picture is decoded: the load waits for the slowest, not the sum).
    private func reasons(for references: [MediaReference]) -> [Key: String?] {
        var keys: [Key] = []
        var seen = Set<Key>()
        for r in references where seen.insert(Key(kind: r.kind, path: r.path)).inserted { keys.append(Key(kind: r.kind, path: r.path)) }
        let results = ReasonSlots(count: keys.count)
        let work: [(@Sendable (String) -> String?, String)] = keys.map { (check(for: $0.kind)!, $0.path) }
        DispatchQueue.concurrentPerform(iterations: work.count) { n in
            results.set(n, work[n].0(work[n].1))
        }
        var out: [Key: String?] = [:]
        for (n, k) in keys.enumerated() { out[k] = results.value(n) }
        return out
    }
}

/// The answers of a concurrent pass, one slot per file.
private final class ReasonSlots: @unchecked Sendable {
    private var slots: [String?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ n: Int, _ value: String?) { lock.lock(); slots[n] = value; lock.unlock() }
    func value(_ n: Int) -> String? { lock.lock(); defer { lock.unlock() }; return slots[n] }
}
