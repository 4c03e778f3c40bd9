/// `[metrics]`: a Prometheus text file a fleet's node_exporter collects (docs/control.md).
enum MetricsSchema {
    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "metrics", doc: """
            A health signal for fleets: Prometheus text-format metrics (frames presented, last frame \
            and input times, current item, selections, errors by kind, config generation, display, \
            input devices, memory) written atomically to a file (a temporary file in the same folder, \
            fsync, rename), at most every `interval` seconds and only when something changed. Off \
            unless `file` is set. The control socket's `state` reply carries the same facts.
            """, prototype: KioskConfiguration(), keys: [
                .path("file", \.metrics.file, .path,
                      "The metrics file, or a folder (node_exporter's textfile collector folder): then the file is `kiosk_carousel.prom` in it. Written mode 0644.",
                      defaultText: "none (no metrics file)", example: "/run/kiosk-carousel/metrics.prom"),
                .number("interval", \.metrics.interval, .closed(1, 3600),
                        "Least seconds between two writes of the file (a change after a quiet spell is written at once).",
                        example: "15"),
            ])
    }
}
