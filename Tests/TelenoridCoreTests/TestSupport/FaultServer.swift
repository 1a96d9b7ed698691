import Foundation

/// Tests/support/fault_server.py in a subprocess; its first stdout line is "<port>[ <ca path>]".
///
/// Under valgrind Foundation's Process cannot spawn (it trips over valgrind's reserved descriptors), so
/// a server started by hand can be named instead: TELENORID_FAULT_SERVER="<port>" and
/// TELENORID_FAULT_SERVER_HTTPS="<port> <ca path>", i.e. the servers' first output lines.
final class FaultServer: @unchecked Sendable {
    let port: Int
    let caFile: String?
    private let process: Process?

    init(https: Bool) throws {
        if let given = ProcessInfo.processInfo.environment[
            https ? "TELENORID_FAULT_SERVER_HTTPS" : "TELENORID_FAULT_SERVER"]
        {
            let fields = given.split(separator: " ")
            guard let first = fields.first, let port = Int(first), !https || fields.count == 2 else {
                throw Failure(
                    reason:
                        "TELENORID_FAULT_SERVER\(https ? "_HTTPS" : "") is not \"<port>\(https ? " <ca path>" : "")\"")
            }
            self.port = port
            self.caFile = https ? String(fields[1]) : nil
            self.process = nil
            return
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("support/fault_server.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + (https ? ["--https"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                process.terminate()
                throw Failure(
                    reason:
                        "\(script)\(https ? " --https" : "") exited before printing its port (python3 and the cryptography package are needed)"
                )
            }
            line.append(chunk)
        }
        let fields = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let first = fields.first, let port = Int(first) else {
            process.terminate()
            throw Failure(reason: "fault_server.py printed an unexpected first line")
        }
        self.port = port
        self.caFile = fields.count > 1 ? String(fields[1]) : nil
        self.process = process
    }

    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
