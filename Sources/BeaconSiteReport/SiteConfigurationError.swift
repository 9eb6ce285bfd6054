/// Why a site layout or a hub's configuration cannot be used.
public enum SiteConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    case noGateways
    case tooManyGateways(Int, limit: Int)
    case duplicateGateway(String)
    case invalidGatewayID(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .noGateways:
            "a site needs at least one gateway: list them under gateways: with an id, a room and (for positions) a position"
        case .tooManyGateways(let count, let limit):
            "a site may have at most \(limit) gateways (\(count) are listed); split it into sites per floor or building"
        case .duplicateGateway(let id):
            "gateway id '\(id)' is listed twice: every gateway of a site needs its own id"
        case .invalidGatewayID(let id):
            "gateway id '\(id)' is not usable: use letters, digits, '-', '_' or '.' (it is a topic level)"
        case .invalid(let message):
            message
        }
    }
}
