import Foundation
import JSON

/// Why a bundle was not installed, in words a person at the kiosk understands.
public enum BundleRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// No signature at all (or not a bundle).
    case unsigned
    /// Signed, but not by a key of this kiosk's keyring.
    case untrusted
    /// Signed, but changed after it was signed.
    case tampered
    /// Made for another architecture: the bundle's and this kiosk's.
    case wrongArchitecture(bundle: String, kiosk: String)
    /// Not newer than the running version: the bundle's and the running one.
    case older(bundle: String, running: String)
    /// Anything else RAUC said (its last error).
    case other(String)

    public var description: String {
        switch self {
        case .unsigned: return "unsigned"
        case .untrusted: return "signed by a key this kiosk does not trust"
        case .tampered: return "changed after it was signed (damaged or tampered with)"
        case .wrongArchitecture(let bundle, let kiosk): return "for another architecture (\(bundle), this kiosk is \(kiosk))"
        case .older(let bundle, let running):
            return bundle == running ? "the version already running (\(running))" : "older than the running \(running) (\(bundle))"
        case .other(let said): return said
        }
    }
}

/// What `rauc info` says of a bundle whose signature it checked.
public struct BundleInfo: Equatable, Sendable {
    public var compatible: String
    public var version: String
}

/// RAUC's command line (`rauc info`, `rauc install`; RAUC 1.8, bookworm), which talks to the
/// `rauc` D-Bus service for installs. `program` is replaced in tests by a script that answers as
/// RAUC does.
public struct RaucClient: Sendable {
    public var program: String
    public init(program: String = "rauc") { self.program = program }

    /// Checks the bundle's signature and reads its manifest (nothing is written).
    public func info(_ bundle: String) throws(BundleRefusal) -> BundleInfo {
        let result: ChildProcess.Result
        do { result = try ChildProcess.run([program, "info", "--output-format=json", bundle]) } catch {
            throw .other("\(program) cannot be run: \(error)")
        }
        guard result.status == 0 else { throw Self.refusal(result.said, bundleVersion: nil, running: nil) }
        // The JSON is the last line (RAUC may print notes before it).
        let line = result.output.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? ""
        guard case .object(let fields)? = JSONValue.parse(line), case .string(let compatible)? = fields["compatible"] else {
            throw .other("rauc info gave no manifest: \(result.said.prefix(300))")
        }
        var version = ""
        if case .string(let v)? = fields["version"] { version = v }
        return BundleInfo(compatible: compatible, version: version)
    }

    /// Installs the bundle into the other slot (RAUC checks everything again).
    public func install(_ bundle: String, info: BundleInfo, running: String) throws(BundleRefusal) {
        let result: ChildProcess.Result
        do { result = try ChildProcess.run([program, "install", bundle]) } catch {
            throw .other("\(program) cannot be run: \(error)")
        }
        guard result.status == 0 else {
            var refusal = Self.refusal(result.said, bundleVersion: info.version, running: running)
            if case .wrongArchitecture = refusal {
                refusal = .wrongArchitecture(bundle: SystemIdentity.architecture(ofCompatible: info.compatible),
                                             kiosk: SystemIdentity.architecture(ofCompatible: Self.expected(in: result.said) ?? ""))
            }
            throw refusal
        }
    }

    /// Reads RAUC's error text (its `LastError:` line and what it printed) as a refusal.
    static func refusal(_ said: String, bundleVersion: String?, running: String?) -> BundleRefusal {
        let lower = said.lowercased()
        if lower.contains("compatible mismatch") {
            return .wrongArchitecture(bundle: "?", kiosk: "?")
        }
        if lower.contains("pre-install handler error") || lower.contains("older") || lower.contains("downgrade") {
            if let bundleVersion, let running { return .older(bundle: bundleVersion, running: running) }
            return .other(lastError(said))
        }
        if lower.contains("signature size is 0") || lower.contains("exceeds bundle size") || lower.contains("exceeds 64kib")
            || lower.contains("failed to read signature size") || lower.contains("no signature") {
            return .unsigned
        }
        if lower.contains("unable to get local issuer certificate") || lower.contains("self-signed certificate")
            || lower.contains("self signed certificate") || lower.contains("certificate verify") || lower.contains("unable to get issuer") {
            return .untrusted
        }
        if lower.contains("signature verification failed") || lower.contains("digest") || lower.contains("verity")
            || lower.contains("hash") || lower.contains("corrupt") {
            return .tampered
        }
        return .other(lastError(said))
    }

    /// The text after `LastError:` (what RAUC's CLI prints when an install failed), else all of it.
    static func lastError(_ said: String) -> String {
        for line in said.split(separator: "\n") where line.hasPrefix("LastError:") {
            return line.dropFirst("LastError:".count).trimmingCharacters(in: .whitespaces)
        }
        return said.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The `Expected 'X'` of RAUC's compatible mismatch.
    static func expected(in said: String) -> String? {
        guard let r = said.range(of: "Expected '") else { return nil }
        let rest = said[r.upperBound...]
        return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
    }
}
