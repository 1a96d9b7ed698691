extension JSON {
    /// Compact JSON: no whitespace, members in order, numbers as their lexemes, only `"`, `\` and
    /// control characters escaped.
    public static func serialize(_ value: JSONValue) -> String {
        // Iterative so values built in code (not bounded by the parser's depth limit) cannot exhaust
        // the stack here.
        enum Task {
            case value(JSONValue)
            case key(String)
            case byte(UInt8)
        }
        var out: [UInt8] = []
        var tasks: [Task] = [.value(value)]
        while let task = tasks.popLast() {
            switch task {
            case .byte(let byte):
                out.append(byte)
            case .key(let key):
                JSONGrammar.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
            case .value(.null):
                out.append(contentsOf: "null".utf8)
            case .value(.bool(let flag)):
                out.append(contentsOf: (flag ? "true" : "false").utf8)
            case .value(.number(let number)):
                out.append(contentsOf: number.text.utf8)
            case .value(.string(let string)):
                JSONGrammar.appendQuoted(string, to: &out)
            case .value(.array(let elements)):
                out.append(UInt8(ascii: "["))
                tasks.append(.byte(UInt8(ascii: "]")))
                // Pushed in reverse so they pop in document order.
                for (position, element) in elements.enumerated().reversed() {
                    tasks.append(.value(element))
                    if position > 0 { tasks.append(.byte(UInt8(ascii: ","))) }
                }
            case .value(.object(let object)):
                out.append(UInt8(ascii: "{"))
                tasks.append(.byte(UInt8(ascii: "}")))
                for (position, member) in object.members.enumerated().reversed() {
                    tasks.append(.value(member.value))
                    tasks.append(.key(member.key))
                    if position > 0 { tasks.append(.byte(UInt8(ascii: ","))) }
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
