"""An HTTP server on the host's loopback that serves update and content bundles to the guest
(Tests/image/update_test.py), with byte ranges so that a download cut by a power cut resumes.

Standard library only. `BundleServer(folder)` serves the files of FOLDER on 127.0.0.1 at a free
port (`.port`), in a thread, and counts the requests and bytes sent per path (`.log`), so a test
can tell a resumed download (a Range request) from a fresh one.
"""
import http.server
import os
import re
import threading


class _Handler(http.server.BaseHTTPRequestHandler):
    server_version = 'kiosk-update-test/1'

    def log_message(self, fmt, *args):
        pass

    def _file(self):
        name = os.path.basename(self.path.split('?')[0])
        path = os.path.join(self.server.folder, name)
        return name, path if name and os.path.isfile(path) else None

    def do_HEAD(self):
        self._serve(body=False)

    def do_GET(self):
        self._serve(body=True)

    def _serve(self, body):
        name, path = self._file()
        if path is None:
            self.send_error(404)
            return
        size = os.path.getsize(path)
        st = os.stat(path)
        etag = f'"{st.st_size:x}-{int(st.st_mtime):x}"'
        start, end, status = 0, size - 1, 200
        m = re.fullmatch(r'bytes=(\d+)-(\d*)', self.headers.get('Range', '') or '')
        if m:
            start = int(m.group(1))
            end = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
            if start >= size:
                self.send_response(416)
                self.send_header('Content-Range', f'bytes */{size}')
                self.end_headers()
                return
            status = 206
        self.send_response(status)
        self.send_header('Content-Type', 'application/octet-stream')
        self.send_header('Content-Length', str(end - start + 1))
        self.send_header('Accept-Ranges', 'bytes')
        self.send_header('ETag', etag)
        self.send_header('Last-Modified', self.date_time_string(int(st.st_mtime)))
        if status == 206:
            self.send_header('Content-Range', f'bytes {start}-{end}/{size}')
        self.end_headers()
        with self.server.lock:
            entry = self.server.log.setdefault(name, {'requests': 0, 'ranges': 0, 'bytes': 0})
            entry['requests'] += 1
            entry['ranges'] += status == 206
        if not body:
            return
        with open(path, 'rb') as f:
            f.seek(start)
            left = end - start + 1
            while left:
                chunk = f.read(min(left, 1 << 16))
                if not chunk:
                    break
                try:
                    self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    break
                left -= len(chunk)
                with self.server.lock:
                    self.server.log[name]['bytes'] += len(chunk)


class BundleServer:
    def __init__(self, folder):
        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), _Handler)
        self.httpd.folder = folder
        self.httpd.log = {}
        self.httpd.lock = threading.Lock()
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def log(self):
        with self.httpd.lock:
            return {k: dict(v) for k, v in self.httpd.log.items()}

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
