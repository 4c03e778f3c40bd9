import Foundation
@testable import Kiosk

/// A stand-in for RAUC 1.8's command line (`rauc info --output-format=json`, `rauc install`) in
/// a scratch folder: a shell script that records its arguments in `calls` and answers as RAUC
/// does — its refusal texts are those of RAUC's bundle.c, signature.c and install.c
/// ("Signature size is 0", "signature verification failed: …", "Compatible mismatch: Expected
/// '…' but bundle manifest has '…'", "Pre-install handler error: Child process exited with code
/// 1") with the CLI's `LastError:` line and exit status 1.
///
/// A fake bundle is a text file of `key=value` lines: `compatible`, `version`, and `signature`
/// (`ok`, `none`, `untrusted`, `tampered`). The fake's own system has `compatible` and a
/// pre-install handler that refuses a version not newer than `running` (as the image's does).
struct FakeRauc {
    let folder: String
    var program: String { folder + "/rauc" }
    var calls: String { folder + "/calls" }

    /// The system's compatible, and the bundles' unless one says otherwise.
    let compatible: String

    init(folder: String, compatible: String = "KioskCarousel-amd64", running: String = "0.1.1") throws {
        self.folder = folder
        self.compatible = compatible
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            echo "$*" >> '\(folder)/calls'
            cmd=$1; shift
            [ "$cmd" = info ] && shift   # --output-format=json
            bundle=$1
            [ -f "$bundle" ] || { echo "Failed to open bundle: $bundle: No such file or directory" >&2; exit 1; }
            field() { sed -n "s/^$1=//p" "$bundle"; }
            check() {
                case "$(field signature)" in
                    ok) ;;
                    none) echo "Signature size is 0" ;;
                    untrusted) echo "signature verification failed: Verify error:unable to get local issuer certificate" ;;
                    tampered) echo "signature verification failed: content verify error" ;;
                    *) echo "Failed to read signature size from bundle: Not enough data" ;;
                esac
            }
            err=$(check)
            case "$cmd" in
            info)
                [ -n "$err" ] && { echo "$err" >&2; exit 1; }
                printf '{"compatible":"%s","version":"%s","description":null,"build":null,"hooks":[],"images":[]}\\n' \\
                    "$(field compatible)" "$(field version)"
                ;;
            install)
                echo "installing"
                echo "  0% Installing"
                echo " 40% Checking bundle"
                if [ -z "$err" ] && [ "$(field compatible)" != '\(compatible)' ]; then
                    err="Compatible mismatch: Expected '\(compatible)' but bundle manifest has '$(field compatible)'"
                fi
                if [ -z "$err" ] && ! dpkg --compare-versions "$(field version)" gt '\(running)'; then
                    err="Pre-install handler error: Child process exited with code 1"
                fi
                if [ -n "$err" ]; then
                    echo "100% Installing failed."
                    echo "LastError: $err"
                    echo "Installing \\`$bundle' failed"
                    exit 1
                fi
                [ -n "$FAKE_RAUC_STATUS" ] && cp "$FAKE_RAUC_STATUS" '\(folder)/status-during-install'
                echo "100% Installing done."
                echo "Installing \\`$bundle' succeeded"
                ;;
            esac
            """
        try script.write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
    }

    /// Writes a fake bundle.
    @discardableResult
    func bundle(_ name: String, compatible: String? = nil, version: String, signature: String = "ok") throws -> String {
        let path = folder + "/" + name
        try "compatible=\(compatible ?? self.compatible)\nversion=\(version)\nsignature=\(signature)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The recorded calls, one line each.
    var recorded: [String] {
        ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// A system identity in a scratch folder: os-release with `IMAGE_VERSION`, a kernel command line
/// with `rauc.slot=`, RAUC's system.conf with `compatible=`.
func fakeIdentity(in folder: String, version: String = "0.1.1", slot: String = "A", compatible: String = "KioskCarousel-amd64",
                  blessStatus: String? = nil) throws -> SystemIdentity {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var identity = SystemIdentity()
    identity.osRelease = folder + "/os-release"
    identity.cmdline = folder + "/cmdline"
    identity.raucSystemConf = folder + "/system.conf"
    // Boot counting: none unless a status is given. "indeterminate": the boot loader started
    // the counted entry kiosk-2-b+2-1.conf and it is still there; "good": it was renamed.
    identity.bootCountVariable = folder + "/LoaderBootCountPath"
    identity.espFolders = [folder + "/esp"]
    if let blessStatus {
        try FileManager.default.createDirectory(atPath: folder + "/esp/loader/entries", withIntermediateDirectories: true)
        let counted = "\\loader\\entries\\kiosk-2-b+2-1.conf"
        var variable = Data([0x06, 0, 0, 0])
        for unit in counted.utf16 + [0] { variable.append(UInt8(unit & 0xff)); variable.append(UInt8(unit >> 8)) }
        FileManager.default.createFile(atPath: identity.bootCountVariable, contents: variable)
        let entry = folder + "/esp/loader/entries/" + (blessStatus == "indeterminate" ? "kiosk-2-b+2-1.conf" : "kiosk-2-b.conf")
        FileManager.default.createFile(atPath: entry, contents: Data("title kiosk\n".utf8))
    }
    try "ID=debian\nIMAGE_ID=kiosk-carousel\nIMAGE_VERSION=\"\(version)\"\n".write(toFile: identity.osRelease, atomically: true, encoding: .utf8)
    try "BOOT_IMAGE=/a/vmlinuz root=PARTUUID=x ro rauc.slot=\(slot) panic=10\n".write(toFile: identity.cmdline, atomically: true, encoding: .utf8)
    try "[system]\ncompatible=\(compatible)\nbootloader=custom\n".write(toFile: identity.raucSystemConf, atomically: true, encoding: .utf8)
    return identity
}
