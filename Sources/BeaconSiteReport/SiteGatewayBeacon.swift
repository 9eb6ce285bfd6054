import BeaconCore

/// The iBeacon identity a gateway with `site.advertise: true` advertises, derived from the site's
/// name and the gateway's id alone, so that the hub knows every gateway's identity without being
/// told: the UUID from the site's name (the same for every gateway of the site; version nibble 8,
/// RFC 9562's custom UUIDs), major and minor from the gateway's id.
///
/// Two gateways of one site get the same identity with a chance of about one in four billion;
/// `SiteLayout` refuses a site where that happens, naming both.
public enum SiteGatewayBeacon {
    /// The identity `gateway` of `site` advertises.
    public static func identity(site: String, gateway: String) -> BeaconID {
        let high = mix(fnv1a(site.utf8, seed: 0x6265_6163_6f6e_6431))
        var low = mix(fnv1a(site.utf8, seed: 0x7369_7465_2d75_7569))
        // RFC 9562: version 8 (custom) in the high word's nibble 12-15, variant 10 in the low word.
        let versioned = (high & ~0xF000) | 0x8000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let word = mix(fnv1a(gateway.utf8, seed: 0x6761_7465_7761_7931))
        return .iBeacon(
            uuidHigh: versioned, uuidLow: low, major: UInt16(truncatingIfNeeded: word >> 16),
            minor: UInt16(truncatingIfNeeded: word))
    }

    /// Whether `id` is in the identity space of `site`'s gateways (its UUID is the site's).
    public static func isGatewayIdentity(_ id: BeaconID, site: String) -> Bool {
        let probe = identity(site: site, gateway: "-")
        return id.kind == .iBeacon && id.uuid == probe.uuid
    }

    private static func fnv1a(_ bytes: String.UTF8View, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// SplitMix64's finaliser.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
