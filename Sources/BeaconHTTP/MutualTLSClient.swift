import CBeaconCurl
import Foundation

/// GETs over HTTPS presenting a ``ClientCertificate`` (mutual TLS), through libcurl itself:
/// FoundationNetworking's `URLSession`, which ``HTTPClient`` uses, cannot present one on Linux.
///
/// Each request runs on a thread of its own (libcurl's transfer blocks), never on Swift's
/// cooperative pool; it ends within the request's timeout.
public enum MutualTLSClient {
    /// Performs `request` (a GET) presenting `certificate`; a body larger than
    /// `maximumBodySize` is refused.
    /// - Throws: ``HTTPClientError`` when no response came (the TLS handshake failed, the server
    ///   refused the certificate, it timed out…), with libcurl's reason.
    public static func get(
        _ request: HTTPRequest, certificate: ClientCertificate, maximumBodySize: Int = 16 << 20
    ) async throws(HTTPClientError) -> HTTPResponse {
        guard request.url.hasPrefix("https://") || request.url.hasPrefix("http://") else {
            throw .invalidURL(request.url)
        }
        let outcome: Result<HTTPResponse, HTTPClientError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: perform(request, certificate: certificate, maximumBodySize: maximumBodySize))
            }
            thread.name = "beacond-mtls"
            thread.start()
        }
        return try outcome.get()
    }

    private static func perform(
        _ request: HTTPRequest, certificate: ClientCertificate, maximumBodySize: Int
    ) -> Result<HTTPResponse, HTTPClientError> {
        var result = beacond_curl_result()
        let lines = request.headers.map { "\($0.name): \($0.value)" }
        let timeout = request.timeout.components
        let milliseconds = max(1, Int(timeout.seconds) * 1000 + Int(timeout.attoseconds / 1_000_000_000_000_000))
        withCStrings(lines) { headers in
            beacond_curl_get(
                request.url, headers, lines.count, certificate.certificateFile, certificate.keyFile,
                certificate.authorityFile, milliseconds, maximumBodySize, &result)
        }
        defer { beacond_curl_result_free(&result) }
        switch result.failure {
        case 0: break
        case 2: return .failure(.timedOut(url: request.url, timeout: request.timeout))
        case 3: return .failure(.bodyTooLarge(url: request.url, limit: maximumBodySize))
        default:
            let reason = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .failure(.failed(url: request.url, reason: "TLS with a client certificate: \(reason)"))
        }
        var headers: [String: String] = [:]
        if let etag = result.etag { headers["etag"] = String(cString: etag) }
        if let modified = result.last_modified { headers["last-modified"] = String(cString: modified) }
        if let signature = result.signature { headers["x-beacond-signature"] = String(cString: signature) }
        let body = result.body.map { Array(UnsafeBufferPointer(start: $0, count: result.body_size)) } ?? []
        return .success(HTTPResponse(status: result.status, headers: headers, body: body))
    }

    /// Calls `body` with `strings` as a C array of C strings, valid for the call.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
