import BeaconConfiguration
import BeaconCore
import BeaconCrypto
import BeaconDaemonConfiguration
import BeaconHTTP
import Foundation

/// Remotely administered alert definitions: fetches the document, validates it, and keeps the
/// last good set whatever goes wrong.
///
/// A state machine on injected time: ``check(now:)`` performs one conditional fetch and says
/// what happened; ``nextCheck`` says when to call it again. It never reads a clock.
public actor RemoteAlertDefinitions {
    /// What one check did.
    public enum Outcome: Sendable, Equatable {
        /// A new, valid set of definitions (apply it).
        case updated([String])
        /// A new, valid set, staged (`stage: true`): run it as the shadow; ``promoteStaged(named:)``
        /// once it is promoted makes it the set in force.
        case staged([String])
        /// The server says nothing changed (304), or served the same document again.
        case unchanged
        /// The server answered, but the document is unusable; the last good set stays.
        case rejected(String)
        /// The server could not be reached or answered with an error; the last good set stays.
        case unreachable(String)
        /// The server refused who asked (HTTP 401 or 403), or the credentials could not be read;
        /// the last good set stays.
        case refused(String)
        /// The document's signature is missing or wrong (`signature:`); the last good set stays.
        case badSignature(String)

        /// Whether the check failed (the last good set stays): what is reported to the sinks.
        public var isFailure: Bool {
            switch self {
            case .rejected, .unreachable, .refused, .badSignature: true
            case .updated, .staged, .unchanged: false
            }
        }

        /// The outcome's name in metrics, events and the status API.
        public var name: String {
            switch self {
            case .updated: "updated"
            case .staged: "staged"
            case .unchanged: "unchanged"
            case .rejected: "rejected"
            case .unreachable: "unreachable"
            case .refused: "refused"
            case .badSignature: "bad-signature"
            }
        }

        /// Why a failed check failed (`nil` for the others).
        public var failure: String? {
            switch self {
            case .rejected(let why), .unreachable(let why), .refused(let why), .badSignature(let why): why
            case .updated, .staged, .unchanged: nil
            }
        }

        /// One line for the log.
        public var logLine: String {
            switch self {
            case .updated(let ids): "remote alerts: applied a new version (\(ids.count) alerts: \(ids.joined(separator: ", ")))"
            case .staged(let ids):
                "remote alerts: staged a new version as the shadow (\(ids.count) alerts: \(ids.joined(separator: ", "))); `beacond promote` makes it live, `beacond shadow --stop` sets it aside"
            case .unchanged: "remote alerts: unchanged"
            case .rejected(let why): "remote alerts: kept the last good set; the new document is invalid: \(why)"
            case .unreachable(let why): "remote alerts: kept the last good set; could not fetch: \(why)"
            case .refused(let why): "remote alerts: kept the last good set; the server refused the request: \(why)"
            case .badSignature(let why): "remote alerts: kept the last good set; the document's signature does not hold: \(why)"
            }
        }
    }

    public let configuration: RemoteAlertsConfiguration
    private let fetcher: any ConfigurationFetcher
    private let validate: @Sendable ([AlertDefinition]) throws -> Void
    private let report: @Sendable (Outcome, Timestamp) -> Void
    private var etag: String?
    private var lastModified: String?
    private var lastBody: [UInt8]?
    /// The definitions in force (the last good set), empty before the first success.
    public private(set) var definitions: [AlertDefinition] = []
    /// The staged set waiting for its promotion (`stage: true`).
    public var staged: [AlertDefinition]? { stagedBodies.last { $0.name == stagedName }?.definitions }
    /// The name the staged set runs under as the shadow: ``stagingPrefix`` and its version.
    public private(set) var stagedName: String?
    /// The documents staged lately, by shadow name: a promotion names the one it made live,
    /// even when a newer version was staged in the meantime.
    private var stagedBodies: [(name: String, body: [UInt8], definitions: [AlertDefinition])] = []
    /// The latest document staged or set aside: the same one again is not staged again.
    private var lastStagedBody: [UInt8]?
    /// The document of the set in force (from the cache or a fetch).
    private var inForceBody: [UInt8]?
    /// Checks whose outcome the daemon has acted on (``settled()``): what a test waits for.
    public private(set) var settledChecks = 0
    /// When ``check(now:)`` should run next (`nil`: now).
    public private(set) var nextCheck: Timestamp?

    /// Creates the fetcher of remote definitions.
    /// - Parameters:
    ///   - configuration: where and how often to fetch.
    ///   - fetcher: how a document is fetched (HTTP, or a test's).
    ///   - validate: called with a candidate set before it is accepted (e.g. building the
    ///     strategies and engine rules); throwing rejects the document.
    ///   - report: called with each check's outcome and time (the daemon tells its sinks, its
    ///     metrics and its page of a failure).
    public init(
        configuration: RemoteAlertsConfiguration, fetcher: any ConfigurationFetcher,
        validate: @escaping @Sendable ([AlertDefinition]) throws -> Void = { _ in },
        report: @escaping @Sendable (Outcome, Timestamp) -> Void = { _, _ in }
    ) {
        self.configuration = configuration
        self.fetcher = fetcher
        self.validate = validate
        self.report = report
    }

    /// Starts from the cached last good document, if there is one (a restart without network).
    public func loadCache() -> Outcome? {
        guard let path = configuration.cachePath, let data = FileManager.default.contents(atPath: path) else { return nil }
        let outcome = accept(Array(data), source: path)
        if case .updated = outcome { lastBody = nil } // refetch at the first check even if the server says 304
        return outcome
    }

    /// The latest check: when, and what came of it (`nil` before the first).
    public private(set) var lastCheck: (time: Timestamp, outcome: Outcome)?

    /// Fetches the document once (conditionally) and applies it if it is new and valid; the
    /// outcome is kept as ``lastCheck`` and handed to `report` (the daemon's sinks, metrics and page).
    public func check(now: Timestamp) async -> Outcome {
        let outcome = await fetchAndAccept(now: now)
        lastCheck = (now, outcome)
        report(outcome, now)
        return outcome
    }

    private func fetchAndAccept(now: Timestamp) async -> Outcome {
        nextCheck = now + configuration.checkEvery
        var credentials: [String: String] = [:]
        if let auth = configuration.credentials {
            do throws(RemoteCredentialsError) { credentials[auth.header] = try auth.headerValue() } catch {
                return .refused("\(error)")
            }
        }
        let request = ConfigurationRequest(
            url: configuration.url, etag: lastBody == nil ? nil : etag,
            lastModified: lastBody == nil ? nil : lastModified,
            timeout: configuration.timeout, credentials: credentials,
            clientCertificate: configuration.tls.map {
                ClientCertificate(certificateFile: $0.certificate, keyFile: $0.key, authorityFile: $0.authority)
            })
        let response: ConfigurationResponse
        do {
            response = try await fetcher.fetch(request)
        } catch {
            return .unreachable("\(configuration.url): \(error)")
        }
        switch response.status {
        case 401, 403:
            let sent = configuration.credentials.map { "the \($0.header) header from \($0.file)" } ?? "no credentials"
            return .refused(
                "\(configuration.url) answered HTTP \(response.status) to \(sent); check the credentials (auth:) of this environment"
            )
        case 304:
            return .unchanged
        case 200:
            if let key = configuration.signature, let failure = Self.signatureFailure(of: response, key: key) {
                return .badSignature("\(configuration.url): \(failure)")
            }
            if response.body == lastBody || response.body == lastStagedBody { return .unchanged }
            if response.body == inForceBody {
                // The cached set in force, served again after a restart: nothing new to stage.
                (lastBody, etag, lastModified) = (response.body, response.etag, response.lastModified)
                return .unchanged
            }
            let outcome = accept(response.body, source: configuration.url, staging: configuration.stage)
            switch outcome {
            case .updated:
                etag = response.etag
                lastModified = response.lastModified
                writeCache(response.body)
            case .staged:
                etag = response.etag
                lastModified = response.lastModified
            default:
                break
            }
            return outcome
        default:
            return .unreachable("\(configuration.url) answered HTTP \(response.status)")
        }
    }

    /// `staging`: a new set waits for its promotion — unless nothing is in force yet.
    private func accept(_ body: [UInt8], source: String, staging: Bool = false) -> Outcome {
        let candidate: [AlertDefinition]
        do {
            candidate = try Self.parse(String(decoding: body, as: UTF8.self), file: source, beacons: configuration.beacons)
            try validate(candidate)
        } catch {
            return .rejected("\(error)")
        }
        if staging, lastBody != nil || !definitions.isEmpty {
            let name = "\(stagingPrefix) (version \(Self.version(of: body)))"
            stagedName = name
            stagedBodies.removeAll { $0.name == name }
            stagedBodies.append((name, body, candidate))
            if stagedBodies.count > 4 { stagedBodies.removeFirst() }
            lastStagedBody = body
            return .staged(candidate.map(\.id))
        }
        definitions = candidate
        lastBody = body
        inForceBody = body
        return .updated(candidate.map(\.id))
    }

    /// Why `response`'s document is not signed with `key`'s secret (`X-Beacond-Signature:
    /// sha256=<hex HMAC-SHA256 of the body>`), or `nil` when it is; compared in constant time.
    static func signatureFailure(of response: ConfigurationResponse, key: RemoteSignatureKey) -> String? {
        let secret: [UInt8]
        do throws(RemoteCredentialsError) { secret = try key.secret() } catch { return "\(error)" }
        guard let header = response.signature else {
            return "the document has no X-Beacond-Signature header, and signature: asks for one"
        }
        let expected = "sha256=" + HMACSHA256.hexAuthenticationCode(for: response.body, key: secret)
        guard HMACSHA256.constantTimeEqual(Array(header.lowercased().utf8), Array(expected.utf8)) else {
            return "its X-Beacond-Signature is not the HMAC-SHA256 of the document with the key in \(key.file)"
        }
        return nil
    }

    /// A document's version as a shadow's name shows it: the first 8 hex digits of its SHA-256.
    static func version(of body: [UInt8]) -> String {
        SHA256Hasher.hash(body).prefix(4).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The staged version named `name` (a shadow's name) was promoted: it is the set in force
    /// from now on, and the cached one (a restart starts from it). Returns its ids, or `nil` when
    /// no staged version has that name.
    @discardableResult
    public func promoteStaged(named name: String) -> [String]? {
        guard let promoted = stagedBodies.first(where: { $0.name == name }) else { return nil }
        definitions = promoted.definitions
        inForceBody = promoted.body
        writeCache(promoted.body)
        if stagedName == name { discardStaged() }
        return promoted.definitions.map(\.id)
    }

    /// The staged set was set aside (its shadow stopped or replaced): it is dropped, and the same
    /// document is not staged again — the next version is.
    public func discardStaged() { stagedName = nil }

    /// The daemon has acted on a check's outcome.
    public func settled() { settledChecks += 1 }

    /// What the names of the staged versions' shadows start with: `remote:URL`.
    public nonisolated var stagingPrefix: String { "remote:\(configuration.url)" }

    /// Whether `name` is a staged version's shadow.
    public nonisolated func isStagedName(_ name: String) -> Bool { name.hasPrefix(stagingPrefix + " (version ") }

    private func writeCache(_ body: [UInt8]) {
        guard let path = configuration.cachePath else { return }
        try? Data(body).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Reads a remote document: a mapping with an `alerts:` list (as in a local file), or the
    /// list alone. With `ignoringOtherKeys` (a shadow's candidate: a whole configuration file
    /// may be tried, of which only the alerts are), keys beside `alerts:` are not refused.
    static func parse(
        _ text: String, file: String, beacons: BeaconDirectory = .empty, ignoringOtherKeys: Bool = false
    ) throws(ConfigurationError) -> [AlertDefinition] {
        let root = try ConfigNode(yaml: text, file: file)
        let list: ConfigNode
        if root.isMapping {
            if !ignoringOtherKeys { try root.checkKeys(allowed: ["alerts"]) }
            list = try root.required("alerts")
        } else {
            list = root
        }
        var definitions: [AlertDefinition] = []
        for item in try list.sequence() {
            let definition = try AlertDefinition(node: item, beacons: beacons)
            if definitions.contains(where: { $0.id == definition.id }) {
                throw item.error("duplicate alert id '\(definition.id)'; ids must be unique")
            }
            definitions.append(definition)
        }
        return definitions
    }
}
