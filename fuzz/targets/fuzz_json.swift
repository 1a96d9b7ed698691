// libFuzzer target: the strict JSON reader. Beyond not crashing, whatever parses must serialize to
// text that parses again to the same text (the serializer and parser agree).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSON.parse(bytes) else { return 0 }
    let text = JSON.serialize(value)
    guard let again = try? JSON.parse(text), JSON.serialize(again) == text, again == value else {
        fatalError("round trip changed the document")
    }
    return 0
}
