import Foundation
import XCTest

/// A small HTTP server on the loopback (python3's http.server) that misbehaves on purpose, for the
/// updater's downloads (issue 29 §2, issue 32 §2): it supports Range on the good paths, and on the
/// others stalls, trickles, cuts the body short, sends more than it announced, loops redirects or
/// announces a huge file, trickles its headers (slowloris), floods them, redirects to `file://`
/// or from https to http. Three more ports speak TLS with the same handler: `tlsPort` with a
/// certificate for 127.0.0.1 signed by a test CA (`caFile`, not in the system's store),
/// `wrongNamePort` with one for another name signed by the same CA, `selfSignedPort` with a
/// self-signed one for 127.0.0.1. `silentPort` accepts no connection at all (its backlog is full:
/// the kernel drops the SYN, as a dead host's network does). Every request is logged as
/// `METHOD PATH RANGE` to `log`.
final class MisbehavingServer {
    let folder: String
    let process = Process()
    private(set) var port = 0
    private(set) var tlsPort = 0
    private(set) var wrongNamePort = 0
    private(set) var selfSignedPort = 0
    private(set) var silentPort = 0
    /// The test CA that signed `tlsPort`'s and `wrongNamePort`'s certificates (PEM).
    var caFile: String { folder + "/ca.pem" }
    /// Another CA that signed nothing here.
    var otherCAFile: String { folder + "/other-ca.pem" }
    var log: String { folder + "/requests.log" }
    /// The good paths' body unless another is given: 1 MiB.
    static let body: [UInt8] = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    static let script = #"""
        import http.server, os, socket, socketserver, ssl, sys, threading, time
        folder = sys.argv[1]
        ports = {}
        body = open(os.path.join(folder, "body"), "rb").read()
        counts = {}
        lock = threading.Lock()
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *a): pass
            def note(self):
                with lock:
                    with open(os.path.join(folder, "requests.log"), "a") as f:
                        f.write("%s %s %s\n" % (self.command, self.path, self.headers.get("Range", "-")))
                    counts[(self.command, self.path)] = counts.get((self.command, self.path), 0) + 1
                    return counts[(self.command, self.path)]
            def head(self, code, length, extra=()):
                self.send_response(code)
                self.send_header("ETag", '"v1"')
                self.send_header("Last-Modified", "Sat, 28 Nov 2026 12:00:00 GMT")
                if length is not None: self.send_header("Content-Length", str(length))
                for k, v in extra: self.send_header(k, v)
                self.end_headers()
            def trickle_headers(self):
                # slowloris from the server's side: the status line, then a header byte every 0.5 s for 60 s
                self.close_connection = True
                try:
                    self.wfile.write(b"HTTP/1.1 200 OK\r\n"); self.wfile.flush()
                    for b in b"X-Slow: " + b"s" * 118:
                        self.wfile.write(bytes([b])); self.wfile.flush(); time.sleep(0.5)
                except Exception: pass
            def flood_headers(self):
                self.close_connection = True
                try:
                    self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                    for i in range(100000): self.wfile.write(b"X-Flood-%d: %s\r\n" % (i, b"f" * 1000))
                except Exception: pass
            def common(self):
                """The misbehaviours HEAD and GET share; True when one answered."""
                p = self.path
                if p == "/loop": self.head(302, 0, [("Location", "/loop")]); return True
                if p == "/missing": self.head(404, 0); return True
                if p == "/slowloris.raucb": self.trickle_headers(); return True
                if p == "/headerflood.raucb": self.flood_headers(); return True
                if p == "/silent.raucb": self.close_connection = True; time.sleep(60); return True
                if p == "/tofile": self.head(302, 0, [("Location", "file:///etc/passwd")]); return True
                if p == "/tohttp": self.head(302, 0, [("Location", "http://127.0.0.1:%d/good.raucb" % ports["plain"])]); return True
                return False
            def do_HEAD(self):
                self.note()
                p = self.path
                if self.common(): return
                if p == "/missing": self.head(404, 0); return
                if p == "/huge.raucb": self.head(200, 10 << 30); return
                if p == "/liar.raucb": self.head(200, 2000); return
                if p == "/endless.raucb": self.head(200, 1000); return
                if p == "/long.raucb": self.head(200, 1000); return
                if p == "/unannounced-endless.raucb": self.head(200, None, [("Connection", "close")]); self.close_connection = True; return
                self.head(200, len(body), [("Accept-Ranges", "bytes")])
            def do_GET(self):
                n = self.note()
                p = self.path
                if self.common(): return
                if p == "/long.raucb": self.head(200, 5000); self.wfile.write(bytes(5000)); return
                if p == "/unannounced-endless.raucb": p = "/endless.raucb"
                if p == "/steady.raucb":
                    # 8 KiB a second: above the low-speed limit, never done within a short --max-time
                    self.head(200, len(body))
                    try:
                        for i in range(0, len(body), 4096): self.wfile.write(body[i:i + 4096]); self.wfile.flush(); time.sleep(0.5)
                    except Exception: pass
                    return
                if p == "/liar.raucb": self.head(200, 1000); self.wfile.write(body[:1000]); return
                if p == "/endless.raucb":
                    self.close_connection = True
                    self.send_response(200); self.send_header("Connection", "close"); self.end_headers()
                    try:
                        for _ in range(100000): self.wfile.write(b"x" * 65536)
                    except Exception: pass
                    return
                if p == "/stall.raucb":
                    self.head(200, len(body)); self.wfile.write(body[:100]); self.wfile.flush(); time.sleep(60); return
                if p == "/trickle.raucb":
                    self.head(200, len(body))
                    try:
                        for i in range(600): self.wfile.write(body[i:i + 1]); self.wfile.flush(); time.sleep(0.1)
                    except Exception: pass
                    return
                rng = self.headers.get("Range")
                start = 0
                if rng and p != "/norange.raucb" and rng.startswith("bytes=") and rng.endswith("-"):
                    start = int(rng[6:-1])
                    if start >= len(body): self.head(416, 0); return
                    self.head(206, len(body) - start, [("Content-Range", "bytes %d-%d/%d" % (start, len(body) - 1, len(body)))])
                else:
                    self.head(200, len(body))
                if p in ("/cut.raucb", "/norange.raucb") and n == 1:
                    self.close_connection = True
                    self.wfile.write(body[start:start + len(body) // 2]); self.wfile.flush()
                    return
                self.wfile.write(body[start:])
        class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
        plain = S(("127.0.0.1", 0), H)
        ports["plain"] = plain.server_address[1]
        tls_ports = []
        for name in ("good", "wrongname", "selfsigned"):
            tls = S(("127.0.0.1", 0), H)
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(os.path.join(folder, name + ".pem"), os.path.join(folder, name + ".key"))
            tls.socket = ctx.wrap_socket(tls.socket, server_side=True)
            threading.Thread(target=tls.serve_forever, daemon=True).start()
            tls_ports.append(tls.server_address[1])
        # A port whose backlog is full and never accepted from: a SYN to it is dropped.
        silent = socket.socket(); silent.bind(("127.0.0.1", 0)); silent.listen(0)
        fillers = []
        for _ in range(3):
            c = socket.socket(); c.setblocking(False)
            try: c.connect(silent.getsockname())
            except BlockingIOError: pass
            fillers.append(c)
        time.sleep(0.2)
        print(plain.server_address[1], *tls_ports, silent.getsockname()[1], flush=True)
        plain.serve_forever()
        """#

    /// `body`: what the good paths serve.
    init(body: [UInt8] = MisbehavingServer.body) throws {
        folder = NSTemporaryDirectory() + "misbehaving-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(body).write(to: URL(fileURLWithPath: folder + "/body"))
        try Self.script.write(toFile: folder + "/server.py", atomically: true, encoding: .utf8)
        try makeCertificates()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", folder + "/server.py", folder]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // The first line says the ports (the server is listening then).
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw NSError(domain: "MisbehavingServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "python3 ended before it listened"]) }
            line += chunk
        }
        let ports = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard ports.count == 5 else { throw NSError(domain: "MisbehavingServer", code: 2) }
        port = ports[0]; tlsPort = ports[1]; wrongNamePort = ports[2]; selfSignedPort = ports[3]; silentPort = ports[4]
    }

    /// The certificates' files, made once per test process (`certificates`) and copied into
    /// each server's folder: openssl's five runs cost seconds on a busy machine.
    static let certificateFiles = ["ca.pem", "ca.key", "other-ca.pem", "other-ca.key", "good.pem", "good.key",
                                   "wrongname.pem", "wrongname.key", "selfsigned.pem", "selfsigned.key"]
    static let certificates: Result<String, Error> = Result {
        let folder = NSTemporaryDirectory() + "misbehaving-server-certificates-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try makeCertificates(in: folder)
        return folder
    }

    private func makeCertificates() throws {
        let made = try Self.certificates.get()
        for name in Self.certificateFiles {
            try FileManager.default.copyItem(atPath: made + "/" + name, toPath: folder + "/" + name)
        }
    }

    /// The two CAs and the three servers' certificates (EC keys: quick to make).
    private static func makeCertificates(in folder: String) throws {
        let caFile = folder + "/ca.pem", otherCAFile = folder + "/other-ca.pem"
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"]
        try openssl(["req", "-x509"] + key + ["-subj", "/CN=Kiosk test CA", "-keyout", folder + "/ca.key", "-out", caFile])
        try openssl(["req", "-x509"] + key + ["-subj", "/CN=Another CA", "-keyout", folder + "/other-ca.key", "-out", otherCAFile])
        for (name, san) in [("good", "IP:127.0.0.1"), ("wrongname", "DNS:other.example")] {
            try openssl(["req", "-x509"] + key + ["-subj", "/CN=\(name)", "-addext", "subjectAltName=\(san)",
                                                      "-addext", "basicConstraints=critical,CA:FALSE",
                                                      "-CA", caFile, "-CAkey", folder + "/ca.key",
                                                      "-keyout", folder + "/\(name).key", "-out", folder + "/\(name).pem"])
        }
        try openssl(["req", "-x509"] + key + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                                  "-keyout", folder + "/selfsigned.key", "-out", folder + "/selfsigned.pem"])
    }

    private static func openssl(_ arguments: [String]) throws {
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = arguments
        let errors = Pipe()
        openssl.standardError = errors
        try openssl.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else {
            throw NSError(domain: "MisbehavingServer", code: 3, userInfo: [NSLocalizedDescriptionKey:
                "openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(String(decoding: said, as: UTF8.self))"])
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
    /// `path` on the TLS port whose certificate the test CA signed for 127.0.0.1.
    func tlsURL(_ path: String, port: Int? = nil) -> String { "https://127.0.0.1:\(port ?? tlsPort)\(path)" }

    var requests: [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

    func stop() {
        // SIGKILL: a test process whose kiosk blocked SIGTERM for its signalfd passes that mask on
        // to its children (Foundation's Process does not reset it), and SIGTERM would wait forever.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
