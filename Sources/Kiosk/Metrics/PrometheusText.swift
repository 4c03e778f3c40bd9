import Foundation

/// `KioskHealth` in the Prometheus text exposition format (version 0.0.4): every metric with its
/// `# HELP` and `# TYPE` lines, names `kiosk_carousel_*`, counters ending in `_total`, units in
/// the names, info-style metrics (`…_info{label="…"} 1`) for the current item's id and the mode.
public enum PrometheusText {
    /// The file's text for `h`. Labels are sorted so the output is stable.
    public static func render(_ h: KioskHealth) -> String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            out += "# HELP kiosk_carousel_\(name) \(help)\n# TYPE kiosk_carousel_\(name) \(type)\n"
            for s in samples { out += "kiosk_carousel_\(name)\(s.labels) \(s.value)\n" }
        }
        func flag(_ b: Bool) -> String { b ? "1" : "0" }
        /// Metrics of one sample without labels: name, type, help, value.
        func plain(_ rows: [(String, String, String, String)]) {
            for (name, type, help, value) in rows { metric(name, type, help, [("", value)]) }
        }
        /// An info metric: one sample `{LABEL="VALUE"} 1`, none without a value.
        func info(_ name: String, _ help: String, _ label: String, _ value: String?) {
            metric(name, "gauge", help, value.map { [("{\(label)=\"\(escape($0))\"}", "1")] } ?? [])
        }
        /// A counter per label value, every key of `known` present (0 until counted).
        func perLabel(_ name: String, _ help: String, _ label: String, _ counts: [String: Int], known: [String]) {
            var all = counts
            for key in known where all[key] == nil { all[key] = 0 }
            metric(name, "counter", help, all.keys.sorted().map { ("{\(label)=\"\(escape($0))\"}", String(all[$0]!)) })
        }
        plain([("frames_presented_total", "counter", "Frames presented since the start (black frames of a blank not counted).",
                String(h.framesPresented)),
               ("last_frame_time_seconds", "gauge", "Unix time of the last frame presented (0: none yet).", time(h.lastFrameTime)),
               ("last_input_time_seconds", "gauge", "Unix time of the last event from an input device (0: none yet).",
                time(h.lastInputTime)),
               ("current_item", "gauge", "Index of the current item (0 is the first).", String(h.currentIndex))])
        info("current_item_info", "The current item's id.", "id", h.currentID)
        perLabel("selections_total", "Selections per item id.", "id", h.selections, known: h.itemIDs)
        perLabel("errors_total", "Errors by kind: action, card, config_reload, display, video.", "kind", h.errors,
                 known: KioskHealth.errorKinds)
        plain([("config_generation", "gauge", "1 for the configuration loaded at start, +1 at every reload applied.",
                String(h.configGeneration)),
               ("config_load_errors_total", "counter", "Reloads refused (the running configuration was kept).",
                String(h.configLoadErrors)),
               ("display_connected", "gauge", "1 when a screen is connected.", flag(h.displayConnected))])
        info("display_mode_info", "The mode of the screen: WIDTHxHEIGHT@HZ of the scene.", "mode", h.displayMode)
        plain([("blanked", "gauge", "1 while the screen is blanked by the idle controller.", flag(h.blanked)),
               ("input_devices", "gauge", "Input devices open now.", String(h.inputDevices)),
               ("card_cache_bytes", "gauge", "Bytes held by the card face cache.", String(h.cardCacheBytes))])
        // A histogram's samples carry suffixes after the family's name: `_bucket{le="…"}`, `_sum`, `_count`.
        let frames = h.frameTimes
        metric("frame_duration_seconds", "histogram", "Seconds each presented frame took to draw and hand to the display.",
               zip(FrameTimeHistogram.bounds, frames.cumulativeCounts).map { ("_bucket{le=\"\($0)\"}", String($1)) }
                   + [("_bucket{le=\"+Inf\"}", String(frames.count)), ("_sum", String(format: "%.6f", frames.sum)),
                      ("_count", String(frames.count))])
        plain([("flips_missed_total", "counter", "Page flips that reached the screen more than a refresh late, or never.",
                String(h.flipsMissed))])
        if let rss = h.residentBytes {
            plain([("process_resident_memory_bytes", "gauge", "Resident memory of the process (/proc/self/statm).", String(rss))])
        }
        if let heap = h.heap {
            plain([("heap_bytes", "gauge", "Bytes malloc has handed out and not had back (mallinfo2: every arena and mmapped blocks).",
                    String(heap.inUse)),
                   ("heap_free_bytes", "gauge", "Bytes malloc holds free in its arenas, not given back to the system (mallinfo2's fordblks).",
                    String(heap.heldFree))])
        }
        plain([("process_start_time_seconds", "gauge", "Unix time the process started.", time(h.startTime))])
        metric("version_info", "gauge", "The running version and root slot (none off the image).",
               [("{slot=\"\(escape(h.slot))\",version=\"\(escape(h.version))\"}", "1")])
        info("update_state_info", "The last update's state: checking, downloading, installing, installed, failed.", "state", h.updateState)
        plain([("rollbacks_total", "counter", "Boots that went back to the old slot because the new one did not start.",
                String(h.rollbacks))])
        if let tv = h.tv {
            metric("tv_power_info", "gauge", "The power status the TV last reported over HDMI-CEC: on, standby, standby_to_on, on_to_standby, unknown.",
                   [("{state=\"\(escape(tv.power))\"}", "1")])
            plain([("tv_power_time_seconds", "gauge", "Unix time the TV last reported its power status (0: never).", time(tv.reportedAt)),
                   ("cec_messages_sent_total", "counter", "HDMI-CEC messages handed to the adapter.", String(tv.messagesSent)),
                   ("cec_messages_failed_total", "counter", "HDMI-CEC messages that failed: not sent, not acknowledged, no reply, refused.",
                    String(tv.messagesFailed))])
        }
        return out
    }

    /// Unix seconds with millisecond precision; 0 for none.
    static func time(_ t: Double?) -> String {
        guard let t, t.isFinite else { return "0" }
        return String(format: "%.3f", t)
    }

    /// A label value escaped as the format wants: backslash, double quote and newline, and
    /// nothing else (the exposition format has no `\t`, `\r` or `\uXXXX`: other characters,
    /// control characters included, are written as they are). Not JSON escaping, so not
    /// `JSONString.quoted`.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
