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
        func one(_ value: String) -> [(labels: String, value: String)] { [("", value)] }
        func flag(_ b: Bool) -> String { b ? "1" : "0" }
        metric("frames_presented_total", "counter", "Frames presented since the start (black frames of a blank not counted).",
               one(String(h.framesPresented)))
        metric("last_frame_time_seconds", "gauge", "Unix time of the last frame presented (0: none yet).",
               one(time(h.lastFrameTime)))
        metric("last_input_time_seconds", "gauge", "Unix time of the last event from an input device (0: none yet).",
               one(time(h.lastInputTime)))
        metric("current_item", "gauge", "Index of the current item (0 is the first).", one(String(h.currentIndex)))
        metric("current_item_info", "gauge", "The current item's id.",
               h.currentID.map { [("{id=\"\(escape($0))\"}", "1")] } ?? [])
        var selections = h.selections
        for id in h.itemIDs where selections[id] == nil { selections[id] = 0 }
        metric("selections_total", "counter", "Selections per item id.",
               selections.keys.sorted().map { ("{id=\"\(escape($0))\"}", String(selections[$0]!)) })
        var errors = h.errors
        for kind in KioskHealth.errorKinds where errors[kind] == nil { errors[kind] = 0 }
        metric("errors_total", "counter", "Errors by kind: action, card, config_reload, display, video.",
               errors.keys.sorted().map { ("{kind=\"\(escape($0))\"}", String(errors[$0]!)) })
        metric("config_generation", "gauge", "1 for the configuration loaded at start, +1 at every reload applied.",
               one(String(h.configGeneration)))
        metric("config_load_errors_total", "counter", "Reloads refused (the running configuration was kept).",
               one(String(h.configLoadErrors)))
        metric("display_connected", "gauge", "1 when a screen is connected.", one(flag(h.displayConnected)))
        metric("display_mode_info", "gauge", "The mode of the screen: WIDTHxHEIGHT@HZ of the scene.",
               h.displayMode.map { [("{mode=\"\(escape($0))\"}", "1")] } ?? [])
        metric("blanked", "gauge", "1 while the screen is blanked by the idle controller.", one(flag(h.blanked)))
        metric("input_devices", "gauge", "Input devices open now.", one(String(h.inputDevices)))
        metric("card_cache_bytes", "gauge", "Bytes held by the card face cache.", one(String(h.cardCacheBytes)))
        if let rss = h.residentBytes {
            metric("process_resident_memory_bytes", "gauge", "Resident memory of the process (/proc/self/statm).", one(String(rss)))
        }
        metric("process_start_time_seconds", "gauge", "Unix time the process started.", one(time(h.startTime)))
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
