import Foundation
import XCTest

/// A small HTTP server on the loopback (python3's http.server) that misbehaves on purpose, for the
/// updater's downloads (issue 29 §2, issue 32 §2): it supports Range on the good paths, and on the
/// others stalls, trickles, cuts the body short, sends more than it announced, loops redirects or
/// announces a huge file. A second port speaks TLS with a self-signed certificate (not in the
/// system's store). Every request is logged as `METHOD PATH RANGE` to `log`.
final class MisbehavingServer {
    let folder: String
    let process = Process()
    private(set) var port = 0
    private(set) var tlsPort = 0
    var log: String { folder + "/requests.log" }
    /// The good paths' body unless another is given: 1 MiB.
    static let body: [UInt8] = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    static let script = #"""
        import http.server, os, socketserver, ssl, sys, threading, time
        folder = sys.argv[1]
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
            def do_HEAD(self):
                self.note()
                p = self.path
                if p == "/loop": self.head(302, 0, [("Location", "/loop")]); return
                if p == "/missing": self.head(404, 0); return
                if p == "/huge.raucb": self.head(200, 10 << 30); return
                if p == "/liar.raucb": self.head(200, 2000); return
                if p == "/endless.raucb": self.head(200, 1000); return
                self.head(200, len(body), [("Accept-Ranges", "bytes")])
            def do_GET(self):
                n = self.note()
                p = self.path
                if p == "/loop": self.head(302, 0, [("Location", "/loop")]); return
                if p == "/missing": self.head(404, 0); return
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
        tls = S(("127.0.0.1", 0), H)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem"))
        tls.socket = ctx.wrap_socket(tls.socket, server_side=True)
        threading.Thread(target=tls.serve_forever, daemon=True).start()
        print(plain.server_address[1], tls.server_address[1], flush=True)
        plain.serve_forever()
        """#

    /// `body`: what the good paths serve.
    init(body: [UInt8] = MisbehavingServer.body) throws {
        folder = NSTemporaryDirectory() + "misbehaving-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(body).write(to: URL(fileURLWithPath: folder + "/body"))
        try Self.script.write(toFile: folder + "/server.py", atomically: true, encoding: .utf8)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                             "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
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
        guard ports.count == 2 else { throw NSError(domain: "MisbehavingServer", code: 2) }
        port = ports[0]; tlsPort = ports[1]
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    var requests: [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

    func stop() {
        // SIGKILL: a test process whose kiosk blocked SIGTERM for its signalfd passes that mask on
        // to its children (Foundation's Process does not reset it), and SIGTERM would wait forever.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
