import CarouselCore

/// One key of the schema: its name, type, default, documentation, and how a checked value
/// lands in the model (`Target` is the struct the key's table fills).
struct KeySpec<Target> {
    var name: String
    var type: ValueType
    var doc: String
    /// The default as the reference shows it, read from a default `Target`; nil: none.
    var defaultOf: (Target) -> String?
    /// A value to show in the reference's example (TOML syntax).
    var example: String
    /// A table that has this key must give it.
    var required = false
    var apply: (inout Target, ConfigValue) -> Void

    /// The same key applied to a part of a bigger struct.
    func lifted<Outer>(_ part: @autoclosure @escaping () -> WritableKeyPath<Outer, Target>) -> KeySpec<Outer> {
        let apply = self.apply, defaultOf = self.defaultOf
        return KeySpec<Outer>(name: name, type: type, doc: doc, defaultOf: { defaultOf($0[keyPath: part()]) },
                              example: example, required: required,
                              apply: { outer, v in apply(&outer[keyPath: part()], v) })
    }

    /// The same key with the default described in words instead of read from the model.
    func withDefault(_ text: String) -> KeySpec {
        var k = self
        k.defaultOf = { _ in text }
        return k
    }
}

// MARK: Typed constructors (the default is read through the same key path the value is written to)
//
// The key path is taken as an autoclosure: it is made when the key is first applied or its
// default read, not when the schema is built. The schema has ~250 keys and a file gives a few
// dozen; each key path made cost the runtime a lookup of its types by their mangled names
// (`swift_getKeyPath`): made lazily, the start runs ~2.8 M fewer instructions (callgrind,
// docs/start-up.md, stop 52). A key path literal is made once and kept.

extension KeySpec {
    static func bool(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Bool>, _ doc: String, example: String? = nil) -> KeySpec {
        KeySpec(name: name, type: .bool, doc: doc, defaultOf: { String($0[keyPath: kp()]) },
                example: example ?? "true", apply: { $0[keyPath: kp()] = $1.bool })
    }

    static func bool(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Bool?>, _ doc: String, defaultText: String, example: String = "true") -> KeySpec {
        KeySpec(name: name, type: .bool, doc: doc, defaultOf: { $0[keyPath: kp()].map { String($0) } ?? defaultText },
                example: example, apply: { $0[keyPath: kp()] = $1.bool })
    }

    static func int(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Int>, _ range: NumberRange, _ doc: String, example: String? = nil) -> KeySpec {
        KeySpec(name: name, type: .integer(range), doc: doc, defaultOf: { String($0[keyPath: kp()]) },
                example: example ?? String(Int(range.min ?? 0) + 1), apply: { $0[keyPath: kp()] = $1.int })
    }

    static func int(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Int?>, _ range: NumberRange, _ doc: String, defaultText: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .integer(range), doc: doc, defaultOf: { $0[keyPath: kp()].map { String($0) } ?? defaultText },
                example: example, apply: { $0[keyPath: kp()] = $1.int })
    }

    static func intChoice(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Int>, _ choices: [Int], _ doc: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .integerChoice(choices), doc: doc, defaultOf: { String($0[keyPath: kp()]) },
                example: example, apply: { $0[keyPath: kp()] = $1.int })
    }

    static func number(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Double>, _ range: NumberRange, _ doc: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .number(range), doc: doc, defaultOf: { ValueFormat.number($0[keyPath: kp()]) },
                example: example, apply: { $0[keyPath: kp()] = $1.number })
    }

    static func number(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Double?>, _ range: NumberRange, _ doc: String, defaultText: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .number(range), doc: doc, defaultOf: { $0[keyPath: kp()].map(ValueFormat.number) ?? defaultText },
                example: example, apply: { $0[keyPath: kp()] = $1.number })
    }

    static func string(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, String>, _ doc: String, example: String, allowEmpty: Bool = false) -> KeySpec {
        KeySpec(name: name, type: .string(allowEmpty: allowEmpty), doc: doc, defaultOf: { ValueFormat.quoted($0[keyPath: kp()]) },
                example: example, apply: { $0[keyPath: kp()] = $1.string })
    }

    /// A font string (`ValueType.font`): a string key whose value the load looks up.
    static func font(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, String>, _ doc: String, example: String) -> KeySpec {
        var key = string(name, kp(), doc, example: example)
        key.type = .font
        return key
    }

    static func string(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, String?>, _ doc: String, defaultText: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .string(allowEmpty: false), doc: doc, defaultOf: { $0[keyPath: kp()].map(ValueFormat.quoted) ?? defaultText },
                example: example, apply: { $0[keyPath: kp()] = $1.string })
    }

    static func choice<E: RawRepresentable & CaseIterable>(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, E>, _ doc: String, example: E) -> KeySpec
    where E.RawValue == String {
        KeySpec(name: name, type: .choice(E.allCases.map(\.rawValue)), doc: doc, defaultOf: { ValueFormat.quoted($0[keyPath: kp()].rawValue) },
                example: ValueFormat.quoted(example.rawValue), apply: { t, v in if let e = E(rawValue: v.string) { t[keyPath: kp()] = e } })
    }

    static func choice(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, String>, _ choices: [String], _ doc: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .choice(choices), doc: doc, defaultOf: { ValueFormat.quoted($0[keyPath: kp()]) },
                example: ValueFormat.quoted(example), apply: { $0[keyPath: kp()] = $1.string })
    }

    static func color(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, ARGBColor>, _ doc: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .color, doc: doc, defaultOf: { ValueFormat.quoted(ColorValue.format($0[keyPath: kp()])) },
                example: ValueFormat.quoted(example), apply: { $0[keyPath: kp()] = $1.color })
    }

    static func color(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, ARGBColor?>, _ doc: String, defaultText: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .color, doc: doc,
                defaultOf: { $0[keyPath: kp()].map { ValueFormat.quoted(ColorValue.format($0)) } ?? defaultText },
                example: ValueFormat.quoted(example), apply: { $0[keyPath: kp()] = $1.color })
    }

    /// A path-valued key (`.picture`, `.video`, `.directory`, `.path` or `.socketPath`), stored resolved.
    static func path(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, String?>, _ type: ValueType, _ doc: String, defaultText: String, example: String) -> KeySpec {
        KeySpec(name: name, type: type, doc: doc, defaultOf: { $0[keyPath: kp()].map(ValueFormat.quoted) ?? defaultText },
                example: ValueFormat.quoted(example), apply: { $0[keyPath: kp()] = $1.string })
    }

    /// `[x, y]` in `range`.
    static func point(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Point2>, _ range: NumberRange, _ doc: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .numbers(count: 2, range), doc: doc,
                defaultOf: { ValueFormat.numbers([$0[keyPath: kp()].x, $0[keyPath: kp()].y]) },
                example: example, apply: { t, v in let n = v.numbers; if n.count == 2 { t[keyPath: kp()] = Point2(n[0], n[1]) } })
    }

    /// `[width, height]` in `range`.
    static func size(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, Size2>, _ range: NumberRange, _ doc: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .numbers(count: 2, range), doc: doc,
                defaultOf: { ValueFormat.numbers([$0[keyPath: kp()].width, $0[keyPath: kp()].height]) },
                example: example, apply: { t, v in let n = v.numbers; if n.count == 2 { t[keyPath: kp()] = Size2(n[0], n[1]) } })
    }

    /// `[x, y, z]` in `range`, into a tuple.
    static func triple(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<Target, (x: Double, y: Double, z: Double)>, _ range: NumberRange,
                       _ doc: String, example: String) -> KeySpec {
        KeySpec(name: name, type: .numbers(count: 3, range), doc: doc,
                defaultOf: { let t = $0[keyPath: kp()]; return ValueFormat.numbers([t.x, t.y, t.z]) },
                example: example, apply: { t, v in let n = v.numbers; if n.count == 3 { t[keyPath: kp()] = (n[0], n[1], n[2]) } })
    }
}

/// A problem a table's own consistency check found, at `path` inside the table (a key, or a
/// deeper path such as `idle.home_item` for the root); nil or a path not in the file: the
/// table itself.
struct TableProblem {
    var path: ConfigPath?
    var message: String
    init(_ key: String?, _ message: String) { path = key.map { [.key($0)] }; self.message = message }
    init(path: ConfigPath, _ message: String) { self.path = path; self.message = message }
}

/// A table of the schema: its keys, its sub-tables, and a check across its keys.
struct TableSpec<Target> {
    /// The name in its parent (`rotary` for `[input.rotary]`); empty for the document root.
    var name: String
    var doc: String
    /// A default `Target`, for the defaults in the reference.
    var prototype: Target
    var keys: [KeySpec<Target>]
    var children: [ChildSpec<Target>] = []
    /// Runs after the keys and children were applied: checks across keys (`fade_min ≤
    /// fade_max`…) and completes what needs the whole table (items from a folder…).
    var finish: ((inout Target) -> [TableProblem])?

    /// Every name this table accepts, for "did you mean".
    var allNames: [String] { keys.map(\.name) + children.map(\.name) }
}

/// How a sub-table appears in the file.
enum TableForm {
    /// `[a.b]`, `b = { … }` or dotted keys.
    case table
    /// `[[a.b]]`, or `b = [{ … }, { … }]`.
    case arrayOfTables
    /// `b = { … }`, usually written inline.
    case inline
    /// `[a.b]` whose keys are free (an environment, a key map).
    case map
}

/// A sub-table of a `Parent` table, with its type hidden behind closures so a table can hold
/// children of any type.
struct ChildSpec<Parent> {
    var name: String
    var form: TableForm
    /// Decodes `node` (found at `path`) into `parent`.
    var decode: (inout Parent, TOMLNode, ConfigPath, ConfigDecoder) -> Void
    /// Reference sections for this child and its own children, given its full header name.
    var reference: (String) -> [ReferenceSection]
}

extension ChildSpec {
    /// A table filling the same struct as its parent (most sections fill `KioskConfiguration`).
    /// `onPresent` runs when the table is in the file, before its keys (to create optional parts).
    static func section(_ spec: TableSpec<Parent>, onPresent: ((inout Parent) -> Void)? = nil) -> ChildSpec {
        ChildSpec(name: spec.name, form: .table,
                  decode: { parent, node, path, decoder in
                      guard let entries = decoder.expectTable(node, at: path, form: .table) else { return }
                      onPresent?(&parent)
                      decoder.decode(spec, entries: entries, at: path, into: &parent)
                  },
                  reference: { header in ReferenceSection.sections(for: spec, header: header, form: .table) })
    }

    /// A table filling a different struct `Child`, read from and written back to the parent.
    static func nested<Child>(_ spec: TableSpec<Child>, form: TableForm = .table,
                              get: @escaping (Parent) -> Child, set: @escaping (inout Parent, Child, ConfigPath, ConfigDecoder) -> Void) -> ChildSpec {
        ChildSpec(name: spec.name, form: form,
                  decode: { parent, node, path, decoder in
                      guard let entries = decoder.expectTable(node, at: path, form: form) else { return }
                      var child = get(parent)
                      decoder.decode(spec, entries: entries, at: path, into: &child)
                      set(&parent, child, path, decoder)
                  },
                  reference: { header in ReferenceSection.sections(for: spec, header: header, form: form) })
    }

    /// `[[name]]`: each element starts as `make(parent, index)`; all are handed to `store`.
    static func arrayOfTables<Element>(_ spec: TableSpec<Element>, make: @escaping (Parent, Int) -> Element,
                                       store: @escaping (inout Parent, [(Element, ConfigPath)], ConfigDecoder) -> Void) -> ChildSpec {
        ChildSpec(name: spec.name, form: .arrayOfTables,
                  decode: { parent, node, path, decoder in
                      guard let elements = decoder.expectArrayOfTables(node, at: path) else { return }
                      var out: [(Element, ConfigPath)] = []
                      for (n, entries) in elements.enumerated() {
                          guard let entries else { continue }
                          var e = make(parent, n)
                          let p = path + [.index(n)]
                          decoder.decode(spec, entries: entries, at: p, into: &e)
                          out.append((e, p))
                      }
                      store(&parent, out, decoder)
                  },
                  reference: { header in ReferenceSection.sections(for: spec, header: header, form: .arrayOfTables) })
    }

    /// A table whose keys are chosen by the user (`[actions.env]`, `[input.keymap]`): each key
    /// passes `checkKey` (nil: fine, else a message), each value `valueType`.
    static func map(_ name: String, doc: String, keyDoc: String, valueType: ValueType, example: [(String, String)],
                    checkKey: @escaping (String) -> String?, apply: @escaping (inout Parent, String, ConfigValue) -> Void) -> ChildSpec {
        ChildSpec(name: name, form: .map,
                  decode: { parent, node, path, decoder in
                      guard let entries = decoder.expectTable(node, at: path, form: .map) else { return }
                      for (key, value) in entries {
                          let p = path + [.key(key)]
                          if let problem = checkKey(key) { decoder.report(at: p, key: true, problem); continue }
                          if let v = decoder.checkValue(valueType, value, at: p) { apply(&parent, key, v) }
                      }
                  },
                  reference: { header in
                      [ReferenceSection(header: header, form: .map, doc: doc,
                                        rows: [ReferenceRow(key: keyDoc, type: valueType.typeName, defaultText: "none",
                                                            allowed: valueType.allowed, doc: "One entry per key.")],
                                        example: example.map { "\($0.0) = \($0.1)" })]
                  })
    }
}
