// libFuzzer target: an account registry record (the C header's "Accounts") as any process sharing the store
// may have written it. Properties beyond not crashing: an accepted registry holds at most 100 accounts, each
// with the id its issuer and subject give (a record key's characters, so no entry can name another record),
// no id twice, and it is read back the same after being written.
@testable import TelenoridCore

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_accounts: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccounts(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let entries = try? AccountRegistry.entries(input) else { return 0 }
    guard entries.count <= AccountRegistry.maximumAccounts else { fail("over 100 accounts accepted", input) }
    var ids = Set<String>()
    for entry in entries {
        guard let id = entry["id"]?.stringValue, let issuer = entry["issuer"]?.stringValue,
            let subject = entry["subject"]?.stringValue, id == AccountRegistry.id(issuer: issuer, subject: subject),
            (try? RecordStore.checkKey("app." + id)) != nil, ids.insert(id).inserted
        else { fail("an entry with a wrong, unusable or repeated id accepted", input) }
    }
    var document = JSONObject()
    document.set("version", .number(JSONNumber(1)))
    document.set("accounts", .array(entries.map { .object($0) }))
    guard let again = try? AccountRegistry.entries(Array(JSON.serialize(.object(document)).utf8)), again == entries
    else { fail("not read back the same after being written", input) }
    return 0
}
