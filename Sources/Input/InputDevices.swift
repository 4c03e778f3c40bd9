import CarouselCore

/// Every real input device of the kiosk behind one `InputSource`: libinput (touch, pointer,
/// keys) and, when configured, the rotary encoder, the volume knob and the headphone jack's
/// switch through libevdev. Its descriptors are its
/// sources' (the knob's change as it comes and goes: `descriptorGeneration`).
public final class InputDevices: InputSource {
    public let libinput: LibInputSource
    public let rotary: RotaryEncoderSource?
    public let volumeKnob: VolumeKnobSource?
    public let headphoneJack: HeadphoneJackSource?

    /// Starts libinput, the knob watcher and the jack watcher. Booting without any device is fine.
    public init(options: InputOptions) throws {
        libinput = try LibInputSource(options: options)
        rotary = try options.rotary.map { try RotaryEncoderSource(options: $0) }
        volumeKnob = try options.volumeKnob.map { try VolumeKnobSource(options: $0.knob, detentsPerStep: $0.detentsPerStep) }
        headphoneJack = options.headphoneJack ? try HeadphoneJackSource() : nil
    }

    private var sources: [InputSource] {
        [libinput] + (rotary.map { [$0] } ?? []) + (volumeKnob.map { [$0] } ?? []) + (headphoneJack.map { [$0] } ?? [])
    }

    public var pollDescriptors: [Int32] { sources.flatMap(\.pollDescriptors) }
    public var descriptorGeneration: Int { sources.reduce(0) { $0 + $1.descriptorGeneration } }
    /// Every source's devices (the metrics' `input_devices`; without it the protocol's default, 0,
    /// was reported whatever was plugged in).
    public var deviceCount: Int { sources.reduce(0) { $0 + $1.deviceCount } }


    public func readTimed(fd: Int32) -> [TimedInputEvent] {
        for s in sources where s.pollDescriptors.contains(fd) { return s.readTimed(fd: fd) }
        return []
    }

    public func screenChanged(width: Int, height: Int) {
        sources.forEach { $0.screenChanged(width: width, height: height) }
    }

    public func suspend() { sources.forEach { $0.suspend() } }
    public func resume() { sources.forEach { $0.resume() } }
    public func close() { sources.forEach { $0.close() } }
}
