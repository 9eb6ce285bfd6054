import BeaconHTTP

/// One conditional GET of a configuration document.
public struct ConfigurationRequest: Hashable, Sendable {
    public var url: String
    /// The `ETag` of the version in force, sent as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` of the version in force, sent as `If-Modified-Since`.
    public var lastModified: String?
    public var timeout: Duration
    /// Headers that say who asks (`auth:`, read from its file): name and value.
    public var credentials: [String: String]
    /// The client certificate to present (`tls:`), if the server asks for one.
    public var clientCertificate: ClientCertificate?

    public init(
        url: String, etag: String? = nil, lastModified: String? = nil, timeout: Duration = .seconds(30),
        credentials: [String: String] = [:], clientCertificate: ClientCertificate? = nil
    ) {
        self.clientCertificate = clientCertificate
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.timeout = timeout
        self.credentials = credentials
    }
}

/// What the server answered.
public struct ConfigurationResponse: Hashable, Sendable {
    /// HTTP status (200, 304, …).
    public var status: Int
    public var body: [UInt8]
    public var etag: String?
    public var lastModified: String?
    /// The `X-Beacond-Signature` header (`sha256=<hex>`), if the server signs its documents.
    public var signature: String?

    public init(
        status: Int, body: [UInt8] = [], etag: String? = nil, lastModified: String? = nil, signature: String? = nil
    ) {
        self.status = status
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.signature = signature
    }
}

/// Fetches configuration documents (HTTP in the daemon; anything in a test).
public protocol ConfigurationFetcher: Sendable {
    /// Performs the request; throws when the server cannot be reached or does not answer in time.
    func fetch(_ request: ConfigurationRequest) async throws -> ConfigurationResponse
}
