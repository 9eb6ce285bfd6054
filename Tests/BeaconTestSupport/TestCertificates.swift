import Foundation
import Testing

/// A throw-away certificate authority and a server certificate for 127.0.0.1, made with the
/// `openssl` command in `directory` (readable by the broker, which may run as another user).
public struct TestCertificates: Sendable {
    public let caFile: URL
    public let serverCertificate: URL
    public let serverKey: URL

    public init(in directory: URL) throws {
        caFile = directory.appendingPathComponent("ca.pem")
        serverCertificate = directory.appendingPathComponent("server.pem")
        serverKey = directory.appendingPathComponent("server.key")
        let caKey = directory.appendingPathComponent("ca.key")
        let request = directory.appendingPathComponent("server.csr")
        let extensions = directory.appendingPathComponent("server.ext")
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: extensions)
        try Self.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey.path, "-out", caFile.path,
            "-days", "2", "-subj", "/CN=beacond test CA",
        ])
        try Self.openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", serverKey.path, "-out", request.path,
            "-subj", "/CN=127.0.0.1",
        ])
        try Self.openssl([
            "x509", "-req", "-in", request.path, "-CA", caFile.path, "-CAkey", caKey.path, "-CAcreateserial",
            "-out", serverCertificate.path, "-days", "2", "-extfile", extensions.path,
        ])
        for file in [caFile, serverCertificate, serverKey] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        }
    }

    /// Issues a client certificate signed by this authority (for mutual TLS): `NAME.pem` and
    /// `NAME.key` beside the authority's files.
    public func issueClient(named name: String) throws -> (certificate: URL, key: URL) {
        let directory = caFile.deletingLastPathComponent()
        let certificate = directory.appendingPathComponent("\(name).pem")
        let key = directory.appendingPathComponent("\(name).key")
        let request = directory.appendingPathComponent("\(name).csr")
        try Self.openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", request.path, "-subj", "/CN=\(name)",
        ])
        try Self.openssl([
            "x509", "-req", "-in", request.path, "-CA", caFile.path, "-CAkey", directory.appendingPathComponent("ca.key").path,
            "-CAcreateserial", "-out", certificate.path, "-days", "2",
        ])
        return (certificate, key)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func openssl(_ arguments: [String]) throws {
        try run("/usr/bin/openssl", arguments)
    }

    public static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        blockUntilExit(process)
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(executable) \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
