// libFuzzer target: the strict JSON reader (JSON.parse) and the compact serializer.
//
// Beyond not crashing, every input is held to these properties; a violation traps (fatalError), which
// libFuzzer reports as a crash with the input saved:
//  - round trip: what parses serializes to text that parses again, to an equal value, and serializes to
//    the very same text;
//  - limits are monotonic: what parses under tight limits parses under the defaults to the same value;
//  - errors point into the input (0 <= offset <= count) and their message says "at offset <offset>";
//  - every member of a parsed object is found again by key (the key index of large objects agrees with
//    the member list), and number accessors agree with the lexeme;
//  - keeping every top-level object member as its text (SecretObjectMembers.all) accepts the same
//    documents, each kept text parses to the member it stands for, and the other members stay as they are.
@testable import TelenoridCore

private let tightLimits = JSONLimits(maxDepth: 4, maxBytes: 256, maxStringBytes: 16)

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    let text = String(decoding: input.prefix(512), as: UTF8.self)
    fatalError("fuzz_json: \(what); input (\(input.count) bytes, first 512 shown): \(text)")
}

@discardableResult
private func parse(_ bytes: [UInt8], _ limits: JSONLimits) -> JSONValue? {
    do {
        return try JSON.parse(bytes, limits: limits)
    } catch {
        guard error.offset >= 0, error.offset <= bytes.count else {
            fail("error offset \(error.offset) outside the input: \(error.message)", bytes)
        }
        guard error.message.hasSuffix("at offset \(error.offset)") else {
            fail("error message does not end with its offset: \(error.message)", bytes)
        }
        return nil
    }
}

/// Checks lookups and number accessors everywhere in the value (depth is bounded by the parser's limit).
private func check(_ value: JSONValue, _ input: [UInt8]) {
    switch value {
    case .object(let object):
        guard object.keys.count == object.count else { fail("keys and count disagree", input) }
        for (position, member) in object.members.enumerated() {
            guard let found = object[member.key] else { fail("member \(position) not found by its key", input) }
            guard found == member.value else { fail("lookup of member \(position) gives another value", input) }
            check(member.value, input)
        }
        // Replacing a member in place keeps the order and the count.
        if let last = object.members.last {
            var copy = object
            copy.set(last.key, .null)
            guard copy.count == object.count, copy.members.last?.key == last.key, copy[last.key] == .null else {
                fail("set on an existing key changed the object's shape", input)
            }
        }
    case .array(let elements):
        for element in elements { check(element, input) }
    case .number(let number):
        guard JSONNumber(text: number.text) == number else {
            fail("a parsed number's lexeme is refused by JSONNumber(text:)", input)
        }
        if let integer = number.int64 {
            guard String(integer) == number.text || (number.text == "-0" && integer == 0) else {
                fail("int64 \(integer) differs from lexeme \(number.text)", input)
            }
        }
        _ = number.double
    case .string, .bool, .null:
        break
    }
}

private func checkKeptObjects(_ bytes: [UInt8], _ value: JSONValue) {
    guard let (rest, kept) = try? JSON.parse(bytes, secretMembers: [], secretObjectMembers: .all) else {
        fail("parses, but not with every object member kept as text", bytes)
    }
    guard case .object(let object) = value else {
        guard kept.isEmpty, rest == value else { fail("kept members of a document that is not an object", bytes) }
        return
    }
    var objects = 0
    for member in object.members {
        if case .object = member.value {
            objects += 1
            guard let text = kept[member.key], (try? JSON.parse(text.bytes)) == member.value,
                rest.objectValue?[member.key] == nil
            else {
                fail("kept text of member \(member.key) does not stand for it", bytes)
            }
        } else {
            guard kept[member.key] == nil, rest.objectValue?[member.key] == member.value else {
                fail("member \(member.key), not an object, was not left as it was", bytes)
            }
        }
    }
    guard kept.count == objects else { fail("more members kept than there are objects", bytes) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let tight = parse(bytes, tightLimits)
    guard let value = parse(bytes, JSONLimits()) else {
        if tight != nil { fail("parses under tight limits but not under the defaults", bytes) }
        return 0
    }
    if let tight, tight != value { fail("tight and default limits give different values", bytes) }
    check(value, bytes)
    checkKeptObjects(bytes, value)

    let text = JSON.serialize(value)
    let textBytes = Array(text.utf8)
    guard let again = parse(textBytes, JSONLimits()) else {
        fail("serialized form does not parse: \(text.prefix(512))", bytes)
    }
    guard again == value else { fail("serialized form parses to another value: \(text.prefix(512))", bytes) }
    guard JSON.serialize(again) == text else { fail("serialization is not stable: \(text.prefix(512))", bytes) }
    // The String entry point must agree with the byte one.
    guard (try? JSON.parse(text)) == value else { fail("JSON.parse(String) disagrees with JSON.parse([UInt8])", bytes) }
    return 0
}
